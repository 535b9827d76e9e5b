package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class FixedRandomTest {

  @Test
  void lowestAndHighestPinTheEndsOfTheUnitInterval() {
    assertThat(FixedRandom.lowest().nextDouble()).isZero();
    assertThat(FixedRandom.highest().nextDouble()).isEqualTo(Math.nextDown(1.0));
  }

  @Test
  void ofFractionDrawsThatFraction() {
    assertThat(FixedRandom.ofFraction(0.25).nextDouble()).isEqualTo(0.25);
    assertThat(FixedRandom.ofFraction(0.25).toString()).isEqualTo("FixedRandom[nextDouble=0.25]");
    assertThatThrownBy(() -> FixedRandom.ofFraction(1.0)).hasMessageContaining("was 1.0");
  }
}
