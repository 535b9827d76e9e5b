package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

final class RetryPolicyTest {
  private static final RandomGenerator LOWEST = () -> 0L;
  private static final RandomGenerator HIGHEST = () -> -1L;

  private final FakeClock clock = new FakeClock();
  private final List<String> events = new ArrayList<>();
  private final RetryListener recorder =
      new RetryListener() {
        @Override
        public void onRetryScheduled(int attempt, Throwable failure, Duration delay) {
          events.add("retry " + attempt + " " + failure.getMessage() + " " + delay);
        }

        @Override
        public void onOutcome(RetryOutcome outcome, int attempts, Throwable failure) {
          events.add(
              outcome + " " + attempts + (failure == null ? "" : " " + failure.getMessage()));
        }
      };

  @AfterEach
  void clearInterruptFlag() {
    // A test that leaves the flag set would leak it into the next test on this thread.
    Thread.interrupted();
  }

  private RetryPolicy.Builder policy() {
    return RetryPolicy.builder()
        .retryOn(IOException.class)
        .backoff(Duration.ofMillis(100), Duration.ofSeconds(1))
        .sleeper(clock)
        .random(HIGHEST)
        .listener(recorder);
  }

  /** Fails with the given failures in order, then returns "ok"; counts calls. */
  private static final class Flaky implements RetryableCall<String, Exception> {
    final List<Exception> failures;
    final List<Integer> seenAttempts = new ArrayList<>();
    int calls;

    Flaky(Exception... failures) {
      this.failures = List.of(failures);
    }

    @Override
    public String call(Attempt attempt) throws Exception {
      seenAttempts.add(attempt.number());
      int index = calls++;
      if (index < failures.size()) {
        throw failures.get(index);
      }
      return "ok";
    }
  }

  @Nested
  final class AttemptCap {
    @Test
    void twoTransientFailuresThenSuccessMeansExactlyThreeCalls() throws Exception {
      Flaky flaky = new Flaky(new ConnectException("refused 1"), new ConnectException("refused 2"));

      String result = policy().maxAttempts(3).build().call(flaky);

      assertThat(result).isEqualTo("ok");
      assertThat(flaky.calls).isEqualTo(3);
      assertThat(flaky.seenAttempts).containsExactly(1, 2, 3);
    }

    @Test
    void maxAttemptsCountsTheFirstCallSoThreeMeansThreeNotFour() {
      AtomicInteger calls = new AtomicInteger();

      Throwable thrown =
          catchThrowable(
              () ->
                  policy()
                      .maxAttempts(3)
                      .build()
                      .call(
                          attempt -> {
                            calls.incrementAndGet();
                            throw new IOException("down");
                          }));

      assertThat(calls).hasValue(3);
      assertThat(thrown).isInstanceOf(RetriesExhaustedException.class);
    }

    @Test
    void oneAttemptDisablesRetries() {
      Flaky flaky = new Flaky(new IOException("down"));

      assertThatThrownBy(() -> policy().maxAttempts(1).build().call(flaky))
          .isInstanceOf(RetriesExhaustedException.class)
          .hasMessageStartingWith("1 attempt failed");
      assertThat(flaky.calls).isEqualTo(1);
      assertThat(clock.sleeps()).isEmpty();
    }

    @Test
    void rejectsFewerThanOneAttempt() {
      assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("was 0");
    }

    @Test
    void exhaustionThrowsTheLastFailureAsCauseWithEarlierOnesSuppressed() {
      IOException first = new IOException("first");
      IOException second = new IOException("second");
      IOException third = new IOException("third");
      Flaky flaky = new Flaky(first, second, third);

      RetriesExhaustedException thrown =
          (RetriesExhaustedException)
              catchThrowable(() -> policy().maxAttempts(3).build().call(flaky));

      assertThat(thrown.attempts()).isEqualTo(3);
      assertThat(thrown).hasMessageStartingWith("3 attempts failed").hasCause(third);
      assertThat(thrown.getSuppressed()).containsExactly(first, second);
      assertThat(events).last().isEqualTo("EXHAUSTED 3 third");
    }

    @Test
    void theSameFailureInstanceIsNotSuppressedUnderItself() {
      IOException shared = new IOException("shared");

      RetriesExhaustedException thrown =
          (RetriesExhaustedException)
              catchThrowable(() -> policy().build().call(new Flaky(shared, shared, shared)));

      assertThat(thrown).hasCause(shared);
      assertThat(thrown.getSuppressed()).isEmpty();
      assertThat(shared.getSuppressed()).isEmpty();
    }
  }

  @Nested
  final class Backoff {
    @Test
    void highestJitterWaitsTheCappedExponentialCeiling() throws Exception {
      Flaky flaky =
          new Flaky(
              new IOException("1"),
              new IOException("2"),
              new IOException("3"),
              new IOException("4"));

      policy()
          .maxAttempts(5)
          .backoff(Duration.ofMillis(100), Duration.ofMillis(300))
          .random(HIGHEST)
          .build()
          .call(flaky);

      // min(cap, base * 2^k) for k = 0, 1, 2, 3: the cap applies before the jitter.
      assertThat(clock.sleeps())
          .containsExactly(
              Duration.ofMillis(100),
              Duration.ofMillis(200),
              Duration.ofMillis(300),
              Duration.ofMillis(300));
    }

    @Test
    void lowestJitterWaitsNothingAndNeverCallsTheSleeper() throws Exception {
      Sleeper mustNotSleep =
          duration -> {
            throw new AssertionError("slept " + duration);
          };
      Flaky flaky = new Flaky(new IOException("1"), new IOException("2"));

      String result = policy().random(LOWEST).sleeper(mustNotSleep).build().call(flaky);

      assertThat(result).isEqualTo("ok");
      assertThat(events).containsExactly("retry 1 1 PT0S", "retry 2 2 PT0S", "SUCCESS 3");
    }

    @Test
    void noBackoffNeverCallsTheSleeperAndDrawsNoRandomNumber() throws Exception {
      RandomGenerator mustNotDraw =
          () -> {
            throw new AssertionError("drew a random number");
          };
      Sleeper mustNotSleep =
          duration -> {
            throw new AssertionError("slept " + duration);
          };

      String result =
          policy()
              .noBackoff()
              .random(mustNotDraw)
              .sleeper(mustNotSleep)
              .build()
              .call(new Flaky(new IOException("1"), new IOException("2")));

      assertThat(result).isEqualTo("ok");
    }

    @Test
    void jitterIsUniformBetweenZeroAndTheCeiling() throws Exception {
      RandomGenerator half =
          new RandomGenerator() {
            @Override
            public long nextLong() {
              throw new AssertionError("only nextDouble is used");
            }

            @Override
            public double nextDouble() {
              return 0.5;
            }
          };

      policy()
          .random(half)
          .maxAttempts(3)
          .build()
          .call(new Flaky(new IOException("1"), new IOException("2")));

      assertThat(clock.sleeps()).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100));
    }

    @Test
    void theCeilingSaturatesForLargeAttemptNumbers() throws Exception {
      List<Exception> failures = new ArrayList<>();
      for (int i = 0; i < 70; i++) {
        failures.add(new IOException("f" + i));
      }

      policy()
          .maxAttempts(71)
          .backoff(Duration.ofNanos(1), Duration.ofSeconds(1))
          .build()
          .call(new Flaky(failures.toArray(new Exception[0])));

      assertThat(clock.sleeps()).hasSize(70);
      assertThat(clock.sleeps().get(69)).isEqualTo(Duration.ofSeconds(1));
      assertThat(clock.sleeps().get(10)).isEqualTo(Duration.ofNanos(1024));
    }

    @Test
    void rejectsACapBelowTheBase() {
      assertThatThrownBy(
              () -> RetryPolicy.builder().backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("PT1S")
          .hasMessageContaining("PT2S");
      assertThatThrownBy(
              () -> RetryPolicy.builder().backoff(Duration.ofSeconds(-1), Duration.ofSeconds(1)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  final class Classification {
    @Test
    void aFailureThatIsNotTransientIsThrownAsItIsAfterOneCallWithoutSleeping() {
      IllegalArgumentException bug = new IllegalArgumentException("bad sku");
      Flaky flaky = new Flaky(bug);

      assertThatThrownBy(() -> policy().build().call(flaky)).isSameAs(bug);
      assertThat(flaky.calls).isEqualTo(1);
      assertThat(clock.sleeps()).isEmpty();
      assertThat(events).containsExactly("NON_RETRYABLE 1 bad sku");
    }

    @Test
    void theDefaultClassifierRetriesNothing() {
      IOException down = new IOException("down");
      Flaky flaky = new Flaky(down);

      assertThatThrownBy(() -> RetryPolicy.builder().sleeper(clock).build().call(flaky))
          .isSameAs(down);
      assertThat(flaky.calls).isEqualTo(1);
    }

    @Test
    void checkedFailuresPassThroughWithTheirOwnType() {
      RetryPolicy none = RetryPolicy.builder().build();
      // Compiles because X is inferred as IOException: no wrapping, no "throws Exception".
      IOException thrown = new IOException("disk");
      try {
        none.call(
            attempt -> {
              throw thrown;
            });
      } catch (IOException e) {
        assertThat(e).isSameAs(thrown);
        return;
      }
      throw new AssertionError("not thrown");
    }

    @Test
    void retryIfAddsAPredicateToTheTypes() throws Exception {
      Flaky flaky = new Flaky(new IllegalStateException("busy"), new IOException("down"));

      String result = policy().retryIf(t -> t.getMessage().equals("busy")).build().call(flaky);

      assertThat(result).isEqualTo("ok");
      assertThat(flaky.calls).isEqualTo(3);
    }

    @Test
    void errorsAreNeverRetriedEvenWhenThePredicateSaysYes() {
      StackOverflowError error = new StackOverflowError("deep");
      AtomicInteger calls = new AtomicInteger();

      assertThatThrownBy(
              () ->
                  policy()
                      .retryIf(t -> true)
                      .build()
                      .call(
                          attempt -> {
                            calls.incrementAndGet();
                            throw error;
                          }))
          .isSameAs(error);
      assertThat(calls).hasValue(1);
    }

    @Test
    void cancellationIsNeverRetried() {
      CancellationException cancelled = new CancellationException("stop");
      AtomicInteger calls = new AtomicInteger();

      assertThatThrownBy(
              () ->
                  policy()
                      .retryOn(RuntimeException.class)
                      .build()
                      .call(
                          attempt -> {
                            calls.incrementAndGet();
                            throw cancelled;
                          }))
          .isSameAs(cancelled);
      assertThat(calls).hasValue(1);
      assertThat(events).containsExactly("NON_RETRYABLE 1 stop");
    }

    @Test
    void refusesToClassifyErrorsInterruptionOrCancellationAsTransient() {
      for (Class<? extends Throwable> type :
          List.of(
              Error.class,
              OutOfMemoryError.class,
              InterruptedException.class,
              CancellationException.class)) {
        assertThatThrownBy(() -> RetryPolicy.builder().retryOn(type))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith(type.getName() + " is never retried");
      }
    }

    @Test
    void isRetryableReportsTheClassification() {
      RetryPolicy p = policy().build();

      assertThat(p.isRetryable(new IOException())).isTrue();
      assertThat(p.isRetryable(new IllegalStateException())).isFalse();
      assertThat(p.isRetryable(new SocketTimeoutException())).isFalse(); // unknown outcome
      assertThat(p.isUnknownOutcome(new SocketTimeoutException())).isTrue();
    }
  }

  @Nested
  final class Interruption {
    @Test
    void anInterruptedAttemptStopsAtOnceAndRestoresTheFlag() {
      InterruptedException interrupted = new InterruptedException("in attempt");
      AtomicInteger calls = new AtomicInteger();

      Throwable thrown =
          catchThrowable(
              () ->
                  policy()
                      .retryIf(t -> true)
                      .build()
                      .call(
                          attempt -> {
                            calls.incrementAndGet();
                            throw interrupted;
                          }));

      assertThat(calls).hasValue(1);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(thrown)
          .isInstanceOf(RetryInterruptedException.class)
          .hasMessageContaining("interrupted during attempt 1")
          .hasCause(interrupted);
      assertThat(events).containsExactly("INTERRUPTED 1 in attempt");
    }

    @Test
    void aFailureSeenWithTheFlagSetIsAnInterruptionNotATransientFailure() {
      AtomicInteger calls = new AtomicInteger();

      Throwable thrown =
          catchThrowable(
              () ->
                  policy()
                      .build()
                      .call(
                          attempt -> {
                            calls.incrementAndGet();
                            Thread.currentThread().interrupt(); // e.g. ClosedByInterruptException
                            throw new IOException("channel closed");
                          }));

      assertThat(calls).hasValue(1);
      assertThat(thrown).isInstanceOf(RetryInterruptedException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void interruptionDuringBackoffStartsNoFurtherAttemptAndSaysSo() {
      IOException transientFailure = new IOException("down");
      Sleeper interruptedSleep =
          duration -> {
            throw new InterruptedException("woken");
          };
      Flaky flaky = new Flaky(transientFailure);

      Throwable thrown =
          catchThrowable(() -> policy().sleeper(interruptedSleep).build().call(flaky));

      assertThat(flaky.calls).isEqualTo(1);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(thrown)
          .isInstanceOf(RetryInterruptedException.class)
          .hasMessageContaining("during the backoff after attempt 1")
          .hasCauseInstanceOf(InterruptedException.class);
      assertThat(thrown.getSuppressed()).containsExactly(transientFailure);
      assertThat(((RetryException) thrown).attempts()).isEqualTo(1);
    }

    @Test
    void aSleeperThatSwallowsTheInterruptStillStopsTheNextAttempt() {
      Sleeper swallowing = duration -> Thread.currentThread().interrupt();
      Flaky flaky = new Flaky(new IOException("down"));

      Throwable thrown = catchThrowable(() -> policy().sleeper(swallowing).build().call(flaky));

      assertThat(flaky.calls).isEqualTo(1);
      assertThat(thrown)
          .isInstanceOf(RetryInterruptedException.class)
          .hasMessageContaining("before attempt 2");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }
  }

  @Nested
  final class OneDeadline {
    @Test
    void noAttemptStartsAfterTheDeadline() {
      Deadline deadline = Deadline.after(Duration.ofSeconds(1), clock);
      IOException slow = new IOException("slow");
      AtomicInteger calls = new AtomicInteger();

      Throwable thrown =
          catchThrowable(
              () ->
                  policy()
                      .random(LOWEST)
                      .build()
                      .call(
                          deadline,
                          attempt -> {
                            calls.incrementAndGet();
                            clock.advance(Duration.ofSeconds(2)); // the attempt spends it all
                            throw slow;
                          }));

      assertThat(calls).hasValue(1);
      assertThat(thrown)
          .isInstanceOf(DeadlineExceededException.class)
          .isNotInstanceOf(CancellationException.class)
          .hasMessage("deadline exceeded after attempt 1")
          .hasCause(slow);
      assertThat(events).last().isEqualTo("DEADLINE_EXCEEDED 1 slow");
    }

    @Test
    void aBackoffThatWouldEndPastTheDeadlineIsNotSlept() {
      // 250 ms: the first backoff (100 ms) fits, the second (200 ms) would end past it.
      Deadline deadline = Deadline.after(Duration.ofMillis(250), clock);
      IOException second = new IOException("second");
      Flaky flaky = new Flaky(new IOException("first"), second, new IOException("third"));

      Throwable thrown =
          catchThrowable(() -> policy().maxAttempts(5).build().call(deadline, flaky));

      assertThat(flaky.calls).isEqualTo(2);
      assertThat(clock.sleeps()).containsExactly(Duration.ofMillis(100));
      assertThat(thrown)
          .isInstanceOf(DeadlineExceededException.class)
          .hasMessage(
              "deadline exceeded after attempt 2: the next backoff of 200ms would end past it"
                  + " (150ms left)")
          .hasCause(second);
      assertThat(thrown).isNotInstanceOf(InterruptedException.class);
    }

    @Test
    void withoutBackoffOrListenerEachRetryReadsTheClockOnce() throws Exception {
      AtomicInteger reads = new AtomicInteger();
      Ticker counting =
          () -> {
            reads.incrementAndGet();
            return clock.read();
          };
      Deadline deadline = Deadline.after(Duration.ofSeconds(1), counting);
      Flaky flaky = new Flaky(new IOException("a"), new IOException("b"));
      RetryPolicy bare = RetryPolicy.builder().retryOn(IOException.class).noBackoff().build();

      assertThat(bare.call(deadline, flaky)).isEqualTo("ok");

      // One read creates the deadline, one checks it before attempt 1, one after each failure
      // (which is also the check before the next attempt): 4, not 6.
      assertThat(reads).hasValue(4);
      assertThat(flaky.calls).isEqualTo(3);
    }

    @Test
    void withoutBackoffOrListenerAnAttemptThatSpendsTheDeadlineIsTheLast() {
      Deadline deadline = Deadline.after(Duration.ofSeconds(1), clock);
      IOException slow = new IOException("slow");
      AtomicInteger calls = new AtomicInteger();
      RetryPolicy bare = RetryPolicy.builder().retryOn(IOException.class).noBackoff().build();

      Throwable thrown =
          catchThrowable(
              () ->
                  bare.call(
                      deadline,
                      attempt -> {
                        calls.incrementAndGet();
                        clock.advance(Duration.ofSeconds(1)); // exactly all of it
                        throw slow;
                      }));

      assertThat(calls).hasValue(1);
      assertThat(thrown)
          .isInstanceOf(DeadlineExceededException.class)
          .hasMessage("deadline exceeded after attempt 1")
          .hasCause(slow);
    }

    @Test
    void withoutBackoffTheDeadlineIsReadAgainAfterTheListener() {
      Deadline deadline = Deadline.after(Duration.ofSeconds(1), clock);
      Flaky flaky = new Flaky(new IOException("a"));
      RetryListener slowListener =
          new RetryListener() {
            @Override
            public void onRetryScheduled(int attempt, Throwable failure, Duration delay) {
              clock.advance(Duration.ofSeconds(2)); // the caller's code spends the deadline
            }
          };
      RetryPolicy policy =
          RetryPolicy.builder()
              .retryOn(IOException.class)
              .noBackoff()
              .listener(slowListener)
              .build();

      assertThatThrownBy(() -> policy.call(deadline, flaky))
          .isInstanceOf(DeadlineExceededException.class)
          .hasMessage("deadline exceeded after attempt 1");
      assertThat(flaky.calls).isEqualTo(1);
    }

    @Test
    void anExpiredDeadlineStartsNoAttemptAtAll() {
      Flaky flaky = new Flaky();

      assertThatThrownBy(() -> policy().build().call(Deadline.after(Duration.ZERO, clock), flaky))
          .isInstanceOf(DeadlineExceededException.class)
          .hasMessage("deadline exceeded before the first attempt")
          .hasNoCause();
      assertThat(flaky.calls).isZero();
    }

    @Test
    void theOperationSeesItsAttemptNumberAndTheTimeLeft() throws Exception {
      Deadline deadline = Deadline.after(Duration.ofSeconds(1), clock);
      List<String> seen = new ArrayList<>();

      policy()
          .build()
          .call(
              deadline,
              attempt -> {
                seen.add(attempt.number() + ":" + attempt.remaining() + ":" + attempt.isLast());
                assertThat(attempt.deadline()).isSameAs(deadline);
                assertThat(attempt.remainingNanos()).isEqualTo(attempt.remaining().toNanos());
                if (attempt.number() < 3) {
                  throw new IOException("down");
                }
                return "ok";
              });

      // Backoff (100 ms, then 200 ms) is spent from the same deadline.
      assertThat(seen).containsExactly("1:PT1S:false", "2:PT0.9S:false", "3:PT0.7S:true");
    }
  }

  @Nested
  final class Budget {
    @Test
    void anEmptyBudgetSurfacesTheFailureAtOnceWithTheRefusalRecorded() {
      RetryBudget empty =
          RetryBudget.builder().ratio(0.5).minRetriesPerSecond(0).ticker(clock).build();
      IOException down = new IOException("down");
      Flaky flaky = new Flaky(down, down);

      Throwable thrown = catchThrowable(() -> policy().budget(empty).build().call(flaky));

      assertThat(flaky.calls).isEqualTo(1);
      assertThat(clock.sleeps()).isEmpty();
      assertThat(thrown)
          .isInstanceOf(RetryBudgetExhaustedException.class)
          .hasMessageContaining("retry budget exhausted after 1 attempt")
          .hasCause(down);
      assertThat(events).containsExactly("BUDGET_EXHAUSTED 1 down");
    }

    @Test
    void successesEarnRetriesAtTheConfiguredRatio() throws Exception {
      RetryBudget budget =
          RetryBudget.builder().ratio(0.5).minRetriesPerSecond(0).ticker(clock).build();
      RetryPolicy p = policy().budget(budget).build();

      p.call(new Flaky()); // +0.5 token
      p.call(new Flaky()); // +0.5 token: one whole retry earned
      Flaky flaky = new Flaky(new IOException("1"), new IOException("2"));

      Throwable thrown = catchThrowable(() -> p.call(flaky));

      assertThat(flaky.calls).isEqualTo(2); // one retry granted, the second refused
      assertThat(thrown).isInstanceOf(RetryBudgetExhaustedException.class);
    }

    @Test
    void anEmptyBudgetNeverBlocksAFirstAttempt() throws Exception {
      RetryBudget empty =
          RetryBudget.builder().ratio(0).minRetriesPerSecond(0).ticker(clock).build();

      assertThat(policy().budget(empty).build().call(new Flaky())).isEqualTo("ok");
    }
  }

  @Nested
  final class UnknownOutcome {
    @Test
    void aTimeoutIsNotRetriedUnlessTheCallIsIdempotent() {
      TimeoutException timeout = new TimeoutException("no reply in 2s");
      Flaky flaky = new Flaky(timeout);

      Throwable thrown =
          catchThrowable(() -> policy().retryOn(Exception.class).build().call(flaky));

      assertThat(flaky.calls).isEqualTo(1);
      assertThat(thrown)
          .isInstanceOf(UnknownOutcomeException.class)
          .hasMessageContaining("not declared idempotent")
          .hasCause(timeout);
      assertThat(events).containsExactly("UNKNOWN_OUTCOME 1 no reply in 2s");
    }

    @Test
    void anIdempotentCallRetriesAnUnknownOutcome() throws Exception {
      Flaky flaky =
          new Flaky(new SocketTimeoutException("read timed out"), new TimeoutException("t"));

      // Not even classified transient: idempotency alone makes an unknown outcome retryable.
      String result = RetryPolicy.builder().sleeper(clock).build().callIdempotent(flaky);

      assertThat(result).isEqualTo("ok");
      assertThat(flaky.calls).isEqualTo(3);
    }

    @Test
    void anUnknownOutcomeFoundAmongTheCausesCounts() {
      Flaky flaky = new Flaky(new CompletionException(new TimeoutException("orTimeout")));

      assertThatThrownBy(() -> policy().retryOn(RuntimeException.class).build().call(flaky))
          .isInstanceOf(UnknownOutcomeException.class);
      assertThat(flaky.calls).isEqualTo(1);
    }

    @Test
    void theOperationMaySayItselfThatTheOutcomeIsUnknown() {
      UnknownOutcomeException own =
          new UnknownOutcomeException("sent, no reply", new IOException());

      assertThatThrownBy(() -> policy().build().call(new Flaky(own))).isSameAs(own);
    }

    @Test
    void configuredTypesAreUnknownOutcomesToo() {
      Flaky flaky = new Flaky(new UncheckedIOException(new IOException("reset")));

      assertThatThrownBy(
              () ->
                  policy()
                      .retryOn(RuntimeException.class)
                      .unknownOutcomeOn(UncheckedIOException.class)
                      .build()
                      .call(flaky))
          .isInstanceOf(UnknownOutcomeException.class);
      assertThat(flaky.calls).isEqualTo(1);
    }
  }

  @Nested
  final class Listeners {
    @Test
    void reportsEachRetryAndTheOutcome() throws Exception {
      policy().build().call(new Flaky(new IOException("a"), new IOException("b")));

      assertThat(events).containsExactly("retry 1 a PT0.1S", "retry 2 b PT0.2S", "SUCCESS 3");
    }
  }

  @Test
  void toBuilderStartsFromTheSameSettingsAndBuiltPoliciesAreIndependent() {
    RetryPolicy.Builder builder = policy().maxAttempts(4);
    RetryPolicy first = builder.build();
    builder.maxAttempts(7);

    RetryPolicy copy = first.toBuilder().build();

    assertThat(first.maxAttempts()).isEqualTo(4);
    assertThat(copy.maxAttempts()).isEqualTo(4);
    assertThat(copy.baseDelay()).isEqualTo(Duration.ofMillis(100));
    assertThat(copy.maxDelay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(copy.isRetryable(new IOException())).isTrue();
    assertThat(copy.toString()).contains("maxAttempts=4", "java.io.IOException");
  }
}
