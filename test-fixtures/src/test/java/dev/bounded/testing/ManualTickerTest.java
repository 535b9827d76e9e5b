package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bounded.runtime.Deadline;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class ManualTickerTest {

  @Test
  void readsZeroUntilAdvanced() {
    ManualTicker ticker = new ManualTicker();

    assertThat(ticker.read()).isZero();
    assertThat(ticker.advance(Duration.ofMillis(3)).read()).isEqualTo(3_000_000L);
  }

  @Test
  void drivesADeadline() {
    ManualTicker ticker = new ManualTicker();
    Deadline deadline = Deadline.after(Duration.ofSeconds(1), ticker);

    ticker.advance(Duration.ofMillis(999));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(1));

    ticker.advance(Duration.ofMillis(1));
    assertThat(deadline.isExpired()).isTrue();
  }

  @Test
  void canStartNearOverflowToExerciseDifferenceArithmetic() {
    ManualTicker ticker = ManualTicker.startingAt(Long.MAX_VALUE);
    Deadline deadline = Deadline.after(Duration.ofSeconds(1), ticker);

    ticker.advance(Duration.ofMillis(1));

    assertThat(ticker.read()).isEqualTo(Long.MIN_VALUE + 999_999L);
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(999));
  }

  @Test
  void neverGoesBack() {
    ManualTicker ticker = new ManualTicker();

    assertThatThrownBy(() -> ticker.advance(Duration.ofNanos(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-0.000000001S");
    assertThat(ticker.read()).isZero();
  }
}
