package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bounded.runtime.AdaptiveThrottle;
import dev.bounded.runtime.OverloadedException;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.ThrottledException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Adaptive throttling of an overloaded dependency, as users of the test fixtures would test it:
 * time on a {@link ManualTicker}, the rejection draw pinned by {@link FixedRandom}.
 */
final class ThrottleScenarioTest {
  private final ManualTicker ticker = new ManualTicker();

  private AdaptiveThrottle throttle(FixedRandom draw) {
    return AdaptiveThrottle.builder("inventory")
        .window(Duration.ofMinutes(2))
        .ticker(ticker)
        .random(draw)
        .build();
  }

  /** Sends {@code n} requests through {@code policy} to a dependency that answers 503. */
  private static void overload(RetryPolicy policy, int n) {
    for (int i = 0; i < n; i++) {
      Throwable failure =
          catchThrowable(
              () ->
                  policy.call(
                      a -> {
                        throw new OverloadedException("503");
                      }));
      assertThat(failure).isInstanceOfAny(OverloadedException.class, ThrottledException.class);
    }
  }

  @Test
  void anOverloadedDependencyIsShedLocallyAndRecoversWhenTheWindowMovesOn() throws Exception {
    AdaptiveThrottle throttle = throttle(FixedRandom.ofFraction(0.5));
    RetryPolicy policy = RetryPolicy.builder().name("inventory").throttle(throttle).build();
    ScriptedDependency<String> healthy = ScriptedDependency.returning("ok");

    overload(policy, 20); // 20 requests, 0 accepts: p = 20/21, far above the draw of 0.5
    Throwable shed = catchThrowable(() -> policy.call(a -> healthy.call()));

    assertThat(shed).isInstanceOf(ThrottledException.class);
    assertThat(healthy.calls()).isZero();
    assertThat(throttle.rejectionProbability()).isGreaterThan(0.5);

    ticker.advance(Duration.ofMinutes(2)); // the overload falls out of the window
    assertThat(throttle.rejectionProbability()).isZero();
    String answer = policy.call(a -> healthy.call());
    assertThat(answer).isEqualTo("ok");
    assertThat(healthy.calls()).isEqualTo(1);
  }

  @Test
  void nothingIsShedUntilTheDependencyRefusesHalfTheTraffic() {
    AdaptiveThrottle throttle = throttle(FixedRandom.lowest()); // any p > 0 rejects
    for (int i = 0; i < 10; i++) {
      assertThat(throttle.tryAcquire()).isTrue();
      if (i % 2 == 0) {
        throttle.recordAccepted(); // half accepted: requests - 2 * accepts <= 0 throughout
      }
    }
    assertThat(throttle.rejectionProbability()).isZero();
    assertThat(throttle.tryAcquire()).isTrue(); // 10 - 2 * 5 = 0: still sent
    assertThat(throttle.tryAcquire()).isFalse(); // 11 - 2 * 5 > 0 and the draw is 0
  }
}
