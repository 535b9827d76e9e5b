package dev.bounded.runtime.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bounded.runtime.AdaptiveThrottle;
import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.DeadlineExceededException;
import dev.bounded.runtime.OverloadedException;
import dev.bounded.runtime.RetriesExhaustedException;
import dev.bounded.runtime.RetryBudget;
import dev.bounded.runtime.RetryBudgetExhaustedException;
import dev.bounded.runtime.RetryEnding;
import dev.bounded.runtime.RetryListener;
import dev.bounded.runtime.RetryOutcome;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.ThrottledException;
import dev.bounded.runtime.Ticker;
import dev.bounded.runtime.UnknownOutcomeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 14: one retry owner, overload not retried, adaptive client-side throttling. Public API
 * only; time is a manual ticker, randomness a fixed draw.
 */
@Timeout(20)
// Nesting retry layers on purpose: these tests show that only one of them retries.
@SuppressWarnings("NestedRetry")
final class Issue14Test {
  /** Records "name:ENDING:attempts" for every call of every policy it listens to. */
  private static final class Outcomes implements RetryListener {
    final List<String> seen = Collections.synchronizedList(new ArrayList<>());

    @Override
    public RetryListener onCallStart(RetryPolicy policy, Deadline deadline) {
      String name = policy.name().orElse("unnamed");
      return new RetryListener() {
        @Override
        public void onEnd(RetryEnding ending, int attempts, Throwable failure) {
          seen.add(name + ":" + ending + ":" + attempts);
        }
      };
    }
  }

  private static final class Manual implements Ticker {
    final AtomicLong now = new AtomicLong();

    @Override
    public long read() {
      return now.get();
    }

    void advance(Duration by) {
      now.addAndGet(by.toNanos());
    }
  }

  /** A generator whose {@code nextDouble()} is always {@code fraction}. */
  private static RandomGenerator fixed(double fraction) {
    long bits = ((long) (fraction * 0x1.0p53)) << 11;
    return () -> bits;
  }

  private final Outcomes outcomes = new Outcomes();

  private RetryPolicy.Builder layer(String name) {
    return RetryPolicy.builder()
        .name(name)
        .maxAttempts(3)
        .noBackoff()
        .retryOn(RuntimeException.class)
        .listener(outcomes);
  }

  /** Five nested layers, layer-1 outermost, each retrying every RuntimeException 3 times. */
  private String fiveLayers(Supplier<String> leaf) {
    Supplier<String> call = leaf;
    for (int i = 5; i >= 1; i--) {
      RetryPolicy policy = layer("layer-" + i).build();
      Supplier<String> inner = call;
      call = () -> policy.call(attempt -> inner.get());
    }
    return call.get();
  }

  @Nested
  final class Item1OneRetryOwner {
    @Test
    void fiveLayersOfThreeAttemptsCallTheLeafThreeTimesNot243() {
      AtomicInteger leafCalls = new AtomicInteger();

      Throwable thrown =
          catchThrowable(
              () ->
                  fiveLayers(
                      () -> {
                        leafCalls.incrementAndGet();
                        throw new IllegalStateException("inventory down");
                      }));

      assertThat(leafCalls).hasValue(3);
      assertThat(thrown).isInstanceOf(RetriesExhaustedException.class);
      assertThat(((RetriesExhaustedException) thrown).policyName()).contains("layer-5");
      assertThat(thrown.getMessage())
          .isEqualTo(
              "retry policy 'layer-5': 3 attempts failed, giving up; last failure:"
                  + " java.lang.IllegalStateException: inventory down")
          .doesNotContain("layer-4", "layer-1");
      assertThat(outcomes.seen)
          .containsExactly(
              "layer-5:EXHAUSTED:3",
              "layer-4:DECIDED_BELOW:1",
              "layer-3:DECIDED_BELOW:1",
              "layer-2:DECIDED_BELOW:1",
              "layer-1:DECIDED_BELOW:1");
    }

    @Test
    void aListenerWrittenForTheSevenOutcomesHearsTheNewEndingsAsNonRetryable() {
      List<String> legacy = new ArrayList<>();
      RetryListener sevenOutcomes =
          new RetryListener() {
            @Override
            public void onOutcome(RetryOutcome outcome, int attempts, Throwable failure) {
              legacy.add(outcome + ":" + attempts);
            }
          };
      RetryPolicy inner = layer("inner").build();
      RetryPolicy outer = layer("outer").listener(sevenOutcomes).build();

      Throwable thrown =
          catchThrowable(
              () ->
                  outer.call(
                      a ->
                          inner.call(
                              b -> {
                                throw new IllegalStateException("down");
                              })));
      Throwable overloaded =
          catchThrowable(
              () ->
                  outer.call(
                      a -> {
                        throw new OverloadedException("503");
                      }));

      assertThat(thrown).isInstanceOf(RetriesExhaustedException.class);
      assertThat(overloaded).isInstanceOf(OverloadedException.class);
      assertThat(legacy).containsExactly("NON_RETRYABLE:1", "NON_RETRYABLE:1");
      assertThat(RetryEnding.THROTTLED.outcome()).isEqualTo(RetryOutcome.NON_RETRYABLE);
    }

    @Test
    void aDecisionWrappedInAnotherExceptionIsStillNotRetried() {
      RetryPolicy inner = layer("inner").build();
      RetryPolicy outer = layer("outer").build();
      AtomicInteger leafCalls = new AtomicInteger();

      assertThatThrownBy(
              () ->
                  outer.call(
                      attempt -> {
                        try {
                          return inner.call(
                              a -> {
                                leafCalls.incrementAndGet();
                                throw new IllegalStateException("down");
                              });
                        } catch (RetriesExhaustedException e) {
                          throw new IllegalArgumentException("service failed", e); // a wrapper
                        }
                      }))
          .isInstanceOf(IllegalArgumentException.class)
          .hasCauseInstanceOf(RetriesExhaustedException.class);
      assertThat(leafCalls).hasValue(3);
    }

    @Test
    void budgetDeadlineAndAPolicysUnknownOutcomeAreNotRetriedAboveEither() {
      RetryPolicy outer = layer("outer").build();
      RetryBudget empty = RetryBudget.builder().minRetriesPerSecond(0).ratio(0).build();
      RetryPolicy budgeted = layer("budgeted").budget(empty).build();
      RetryPolicy writes = layer("writes").build();
      AtomicInteger calls = new AtomicInteger();

      assertThatThrownBy(
              () ->
                  outer.call(
                      a ->
                          budgeted.call(
                              b -> {
                                calls.incrementAndGet();
                                throw new IllegalStateException("down");
                              })))
          .isInstanceOf(RetryBudgetExhaustedException.class);
      assertThat(calls).hasValue(1);

      calls.set(0);
      assertThatThrownBy(
              () ->
                  outer.call(
                      a -> {
                        calls.incrementAndGet();
                        throw new DeadlineExceededException("the scope's deadline passed");
                      }))
          .isInstanceOf(DeadlineExceededException.class);
      assertThat(calls).hasValue(1);

      calls.set(0);
      Throwable unknown =
          catchThrowable(
              () ->
                  outer.callIdempotent(
                      a ->
                          writes.call(
                              b -> {
                                calls.incrementAndGet();
                                throw new TimeoutException("write timed out");
                              })));
      assertThat(unknown).isInstanceOf(UnknownOutcomeException.class);
      assertThat(((UnknownOutcomeException) unknown).decidedByPolicy()).isTrue();
      assertThat(calls).hasValue(1);
    }

    @Test
    void anUnknownOutcomeTheOperationThrowsItselfIsStillRetriedWhenIdempotent() {
      RetryPolicy policy = layer("reads").build();
      AtomicInteger calls = new AtomicInteger();

      assertThatThrownBy(
              () ->
                  policy.callIdempotent(
                      a -> {
                        calls.incrementAndGet();
                        throw new UnknownOutcomeException("read timed out", null);
                      }))
          .isInstanceOf(RetriesExhaustedException.class);
      assertThat(calls).hasValue(3);
    }
  }

  @Nested
  final class Item2OverloadIsNotRetried {
    @Test
    void everyLayerButTheOwnerPassesOverloadOnAtOnce() {
      AtomicInteger leafCalls = new AtomicInteger();
      List<Duration> slept = new ArrayList<>();
      RetryBudget budget = RetryBudget.builder().ticker(() -> 0L).build(); // 10 tokens to start
      RetryPolicy owner =
          layer("edge")
              .retryOwner()
              .backoff(Duration.ofMillis(100), Duration.ofSeconds(1))
              .random(fixed(0.5))
              .sleeper(slept::add)
              .budget(budget)
              .build();
      RetryPolicy middle = layer("middle").build();
      RetryPolicy client = layer("client").build();

      Throwable thrown =
          catchThrowable(
              () ->
                  owner.call(
                      a ->
                          middle.call(
                              b ->
                                  client.call(
                                      c -> {
                                        leafCalls.incrementAndGet();
                                        throw new IllegalStateException(
                                            "gateway",
                                            new OverloadedException("inventory answered 503"));
                                      }))));

      assertThat(leafCalls).hasValue(3); // the owner's 3 attempts, each passed through twice
      assertThat(thrown)
          .isInstanceOf(RetriesExhaustedException.class)
          .hasMessageStartingWith("retry policy 'edge': 3 attempts failed");
      assertThat(slept).hasSize(2); // backoff between the owner's attempts
      assertThat(budget.availableTokens()).isEqualTo(8.0); // within its budget
      assertThat(outcomes.seen)
          .containsSubsequence("client:OVERLOADED:1", "middle:OVERLOADED:1", "edge:EXHAUSTED:3");
    }

    @Test
    void aPolicyThatIsNotTheOwnerNeverRetriesOverloadWhateverItsClassifier() {
      RetryPolicy policy = layer("client").build();
      AtomicInteger calls = new AtomicInteger();
      OverloadedException overloaded = new OverloadedException("429 Too Many Requests");

      assertThat(policy.isRetryable(overloaded)).isFalse();
      assertThat(policy.toBuilder().retryOwner().build().isRetryable(overloaded)).isTrue();
      assertThatThrownBy(
              () ->
                  policy.call(
                      a -> {
                        calls.incrementAndGet();
                        throw overloaded;
                      }))
          .isSameAs(overloaded);
      assertThat(calls).hasValue(1);
    }
  }

  @Nested
  final class Item3AdaptiveThrottle {
    private final Manual ticker = new Manual();

    private AdaptiveThrottle.Builder throttle(double draw) {
      return AdaptiveThrottle.builder("inventory")
          .window(Duration.ofSeconds(32)) // 32 buckets of 1 s
          .ticker(ticker)
          .random(fixed(draw));
    }

    @Test
    void aHealthyDependencyIsNeverThrottled() {
      AdaptiveThrottle throttle = throttle(0.0).build();
      for (int i = 0; i < 100; i++) {
        assertThat(throttle.tryAcquire()).isTrue();
        throttle.recordAccepted();
      }
      assertThat(throttle.rejectionProbability()).isZero();
      assertThat(throttle.rejected()).isZero();
    }

    @Test
    void theProbabilityIsRequestsMinusKAcceptsOverRequestsPlusOne() {
      AdaptiveThrottle throttle = throttle(0.0).build();
      for (int i = 0; i < 10; i++) {
        throttle.tryAcquire();
      }
      for (int i = 0; i < 4; i++) {
        throttle.recordAccepted();
      }
      assertThat(throttle.requests()).isEqualTo(10);
      assertThat(throttle.accepts()).isEqualTo(4);
      assertThat(throttle.rejectionProbability()).isEqualTo((10 - 2.0 * 4) / 11);

      throttle.recordAccepted(); // 10 - 2 * 5 = 0
      assertThat(throttle.rejectionProbability()).isZero();

      AdaptiveThrottle k3 = throttle(0.0).k(3).build();
      for (int i = 0; i < 10; i++) {
        k3.tryAcquire();
      }
      k3.recordAccepted();
      assertThat(k3.rejectionProbability()).isEqualTo((10 - 3.0) / 11);
    }

    @Test
    void aDrawBelowTheProbabilityRejectsAndOneAboveSends() {
      AdaptiveThrottle low = throttle(0.90).build(); // p will be 10/11 = 0.909
      AdaptiveThrottle high = throttle(0.95).build();
      for (int i = 0; i < 10; i++) {
        assertThat(low.tryAcquire()).isTrue(); // p rises from 0 to 9/10 while these count
        high.tryAcquire();
      }

      assertThat(low.tryAcquire()).isFalse();
      assertThat(low.rejected()).isEqualTo(1);
      assertThat(low.requests()).as("a rejected request still counts").isEqualTo(11);
      assertThat(high.tryAcquire()).isTrue();
    }

    @Test
    void theWindowSlidesOnTheTicker() {
      AdaptiveThrottle throttle = throttle(0.0).build();
      for (int i = 0; i < 10; i++) {
        throttle.tryAcquire();
      }
      ticker.advance(Duration.ofSeconds(31)); // bucket 31: bucket 0 is still in the window
      assertThat(throttle.requests()).isEqualTo(10);
      throttle.tryAcquire();
      assertThat(throttle.requests()).isEqualTo(11);

      ticker.advance(Duration.ofSeconds(1)); // bucket 32 takes bucket 0's place
      assertThat(throttle.requests()).isEqualTo(1);
      ticker.advance(Duration.ofMinutes(10)); // idle far past the window
      assertThat(throttle.requests()).isZero();
      assertThat(throttle.rejectionProbability()).isZero();
    }

    @Test
    void callCountsOverloadAsNotAcceptedAndOtherFailuresAsAccepted() throws Exception {
      AdaptiveThrottle throttle = throttle(0.0).build();

      assertThat(throttle.call(() -> "ok")).isEqualTo("ok");
      assertThatThrownBy(
              () ->
                  throttle.call(
                      () -> {
                        throw new IllegalStateException("bug");
                      }))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(
              () ->
                  throttle.call(
                      () -> {
                        throw new OverloadedException("503");
                      }))
          .isInstanceOf(OverloadedException.class);

      assertThat(throttle.requests()).isEqualTo(3);
      assertThat(throttle.accepts()).isEqualTo(2);
    }

    @Test
    void aThrottledCallIsNotRunAndSaysWhy() {
      AdaptiveThrottle throttle = throttle(0.0).k(1).build();
      for (int i = 0; i < 100; i++) {
        throttle.tryAcquire(); // nothing accepted: p = 100/101
      }
      AtomicInteger ran = new AtomicInteger();

      Throwable thrown = catchThrowable(() -> throttle.call(ran::incrementAndGet));

      assertThat(ran).hasValue(0);
      assertThat(thrown)
          .isInstanceOf(ThrottledException.class)
          .hasMessage(
              "request rejected locally by adaptive throttle 'inventory': the dependency accepted 0"
                  + " of the last 101 requests");
      assertThat(((ThrottledException) thrown).throttleName()).isEqualTo("inventory");
      assertThat(((ThrottledException) thrown).rejectionProbability()).isEqualTo(101.0 / 102);
    }

    @Test
    void beforeEachAttemptOfAPolicyAThrottledAttemptIsADistinctOutcome() {
      AdaptiveThrottle throttle = throttle(0.0).k(1).build();
      RetryPolicy policy = layer("inventory").throttle(throttle).build();
      AtomicInteger calls = new AtomicInteger();

      Throwable thrown =
          catchThrowable(
              () ->
                  policy.call(
                      a -> {
                        calls.incrementAndGet();
                        throw new OverloadedException("503"); // not accepted, not retried
                      }));
      assertThat(thrown).isInstanceOf(OverloadedException.class);
      // 1 request, 0 accepts: p = 1/2; the fixed draw 0.0 is below it: the next call is shed
      Throwable shed = catchThrowable(() -> policy.call(a -> calls.incrementAndGet()));

      assertThat(calls).hasValue(1);
      assertThat(shed)
          .isInstanceOf(ThrottledException.class)
          .hasMessageStartingWith(
              "retry policy 'inventory': attempt 1 rejected locally by adaptive throttle");
      assertThat(outcomes.seen).containsExactly("inventory:OVERLOADED:1", "inventory:THROTTLED:0");
      assertThat(layer("outer").build().isRetryable(shed)).isFalse();
    }

    @Test
    void atExecutorAdmissionAShedTaskIsRefusedAndNeverRuns() throws Exception {
      AdaptiveThrottle throttle = throttle(0.0).k(1).build();
      BoundedExecutor executor =
          BoundedExecutor.builder("inventory")
              .workers(1)
              .queueCapacity(4)
              .throttle(throttle)
              .build();
      try {
        Future<?> overloaded =
            executor.submit(
                () -> {
                  throw new OverloadedException("503");
                });
        assertThat(catchThrowable(overloaded::get)).hasCauseInstanceOf(OverloadedException.class);
        AtomicInteger ran = new AtomicInteger();

        assertThatThrownBy(() -> executor.execute(ran::incrementAndGet))
            .isInstanceOf(ThrottledException.class);

        executor.close();
        assertThat(ran).hasValue(0);
        assertThat(executor.rejected()).isEqualTo(1);
        assertThat(throttle.requests()).isEqualTo(2);
        assertThat(throttle.accepts()).isZero();
      } finally {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
      }
    }

    @Test
    void aTaskThatRunsNormallyCountsAsAccepted() throws Exception {
      AdaptiveThrottle throttle = throttle(0.0).build();
      try (BoundedExecutor executor =
          BoundedExecutor.builder("inventory")
              .workers(1)
              .queueCapacity(4)
              .throttle(throttle)
              .build()) {
        executor.submit(() -> "ok").get();
        Future<?> bug =
            executor.submit(
                () -> {
                  throw new IllegalStateException("a bug, not overload");
                });
        assertThat(catchThrowable(bug::get)).hasCauseInstanceOf(IllegalStateException.class);
      }
      assertThat(throttle.requests()).isEqualTo(2);
      assertThat(throttle.accepts()).isEqualTo(2);
    }
  }
}
