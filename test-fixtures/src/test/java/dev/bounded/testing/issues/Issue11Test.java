package dev.bounded.testing.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bounded.runtime.Deadline;
import dev.bounded.testing.FixedRandom;
import dev.bounded.testing.ManualTicker;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 11, the items in test-fixtures (item 7, the thread-leak check, is in {@code
 * ThreadLeakExtensionTest}, next to the fixtures it runs). {@code @Timeout} turns the hang of item
 * 8 into a failure.
 */
@Timeout(10)
final class Issue11Test {

  @Nested
  final class Item08BoundedDrawsOfFixedRandom {
    @Test
    void highestGivesTheTopOfEveryBoundedRange() {
      FixedRandom highest = FixedRandom.highest();

      assertThat(highest.nextInt(3)).isEqualTo(2);
      assertThat(highest.nextInt(1)).isZero();
      assertThat(highest.nextInt(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE - 1);
      assertThat(highest.nextInt(5, 8)).isEqualTo(7);
      assertThat(highest.nextInt(Integer.MIN_VALUE, Integer.MAX_VALUE))
          .isEqualTo(Integer.MAX_VALUE - 1);
      assertThat(highest.nextLong(1000)).isEqualTo(999);
      assertThat(highest.nextLong(-10, 10)).isEqualTo(9);
      assertThat(highest.nextLong(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE - 1);
    }

    @Test
    void lowestGivesTheOriginAndAFractionItsPointOfTheRange() {
      assertThat(FixedRandom.lowest().nextInt(3)).isZero();
      assertThat(FixedRandom.lowest().nextInt(5, 8)).isEqualTo(5);
      assertThat(FixedRandom.lowest().nextLong(Long.MIN_VALUE, Long.MAX_VALUE))
          .isEqualTo(Long.MIN_VALUE);
      assertThat(FixedRandom.ofFraction(0.5).nextInt(10)).isEqualTo(5);
      assertThat(FixedRandom.ofFraction(0.25).nextLong(1000)).isEqualTo(250);
      assertThat(FixedRandom.ofFraction(0.5).nextLong(100, 200)).isEqualTo(150);
    }

    @Test
    void badBoundsAreRefusedAsRandomGeneratorDoes() {
      assertThatThrownBy(() -> FixedRandom.highest().nextInt(0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> FixedRandom.highest().nextLong(5, 5))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  final class Item11HugeAdvances {
    @Test
    void advancePastTheLongRangeSaturatesInsteadOfThrowing() {
      ManualTicker ticker = new ManualTicker();
      Deadline inADay = Deadline.after(Duration.ofDays(1), ticker);

      ticker.advance(Duration.ofDays(365L * 300));

      assertThat(ticker.read()).isEqualTo(Long.MAX_VALUE);
      assertThat(inADay.isExpired()).isTrue();
      ticker.advance(Duration.ofSeconds(Long.MAX_VALUE)); // time stands still at the end
      assertThat(ticker.read()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aTickerStartedNearTheTopStillMeasuresDifferences() {
      ManualTicker ticker = ManualTicker.startingAt(Long.MAX_VALUE - 5);
      Deadline inASecond = Deadline.after(Duration.ofSeconds(1), ticker);

      ticker.advance(Duration.ofMillis(999));
      assertThat(inASecond.remaining()).isEqualTo(Duration.ofMillis(1));
      ticker.advance(Duration.ofSeconds(Long.MAX_VALUE));

      assertThat(ticker.read() - (Long.MAX_VALUE - 5)).isEqualTo(Long.MAX_VALUE);
      assertThat(inASecond.isExpired()).isTrue();
    }

    @Test
    void negativeAdvancesAreStillRefused() {
      assertThatThrownBy(() -> new ManualTicker().advance(Duration.ofNanos(-1)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
