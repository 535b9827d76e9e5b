package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads, one {@link RetryBudget}, repeated: seeded mixes of successes, retries, gauge reads
 * and ticker advances. Bounded in count (8 threads x 20,000 operations per round), not in time;
 * nothing is timed. Invariants, checked by every thread after every operation and at the end:
 *
 * <ul>
 *   <li>the balance is never negative and never above {@code maxTokens};
 *   <li>every retry asked for was granted or refused, and counted once (atomic counters);
 *   <li>no token is created or lost: when the cap is never reached, the final balance is exactly
 *       the initial tokens + ratio x successes + the floor's refill for the ticker's whole advance
 *       - the granted retries, to the billionth of a token;
 *   <li>when the cap is reached, the grants never exceed what was deposited and refilled.
 * </ul>
 */
@Timeout(60)
final class RetryBudgetStressTest {
  private static final int THREADS = 8;
  private static final int OPERATIONS = 20_000;
  private static final long UNITS = 1_000_000_000L; // the budget's billionths of a token

  private record Totals(long successes, long granted, long refused, long advancedNanos) {}

  private static Totals run(RetryBudget budget, AtomicLong now, int maxTokens, int seed)
      throws InterruptedException {
    AtomicLong successes = new AtomicLong();
    AtomicLong granted = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    AtomicLong advanced = new AtomicLong();
    AtomicLong violations = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      SplittableRandom random = new SplittableRandom(seed * 31L + t);
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                for (int i = 0; i < OPERATIONS; i++) {
                  int roll = random.nextInt(100);
                  if (roll < 45) {
                    budget.recordSuccess();
                    successes.incrementAndGet();
                  } else if (roll < 90) {
                    if (budget.tryAcquireRetry()) {
                      granted.incrementAndGet();
                    } else {
                      refused.incrementAndGet();
                    }
                  } else if (roll < 95) {
                    long step = 1L + random.nextInt(1_000);
                    now.addAndGet(step);
                    advanced.addAndGet(step);
                  }
                  double tokens = budget.availableTokens();
                  if (tokens < 0 || tokens > maxTokens) {
                    violations.incrementAndGet();
                  }
                }
              },
              "budget-stress-" + t);
      threads.add(thread);
      thread.start();
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(threads).noneMatch(Thread::isAlive);
    assertThat(violations).as("balance outside [0, maxTokens]").hasValue(0);
    return new Totals(successes.get(), granted.get(), refused.get(), advanced.get());
  }

  @RepeatedTest(10)
  void tokensAreConservedExactlyWhenTheCapIsNeverReached(
      org.junit.jupiter.api.RepetitionInfo repetition) throws InterruptedException {
    AtomicLong now = new AtomicLong();
    int maxTokens = 1_000_000; // far above what 160,000 operations can deposit
    int floor = 10;
    RetryBudget budget =
        RetryBudget.builder()
            .ratio(0.25)
            .minRetriesPerSecond(floor)
            .maxTokens(maxTokens)
            .ticker(now::get)
            .build();

    Totals totals = run(budget, now, maxTokens, repetition.getCurrentRepetition());

    long asked = totals.granted() + totals.refused();
    assertThat(asked).isPositive();
    assertThat(totals.refused()).as("some retries are refused: the budget binds").isPositive();
    long expectedUnits =
        floor * UNITS // one second of the floor to start with
            + totals.successes() * UNITS / 4
            + totals.advancedNanos() * floor // the floor's exact refill
            - totals.granted() * UNITS;
    assertThat(budget.availableTokens()).isEqualTo((double) expectedUnits / UNITS);
  }

  @RepeatedTest(10)
  void theCapHoldsAndGrantsNeverExceedDepositsWhenItIsReached(
      org.junit.jupiter.api.RepetitionInfo repetition) throws InterruptedException {
    AtomicLong now = new AtomicLong();
    int maxTokens = 5;
    RetryBudget budget =
        RetryBudget.builder()
            .ratio(0.5)
            .minRetriesPerSecond(1_000)
            .maxTokens(maxTokens)
            .ticker(now::get)
            .build();

    Totals totals = run(budget, now, maxTokens, 1_000 + repetition.getCurrentRepetition());

    long depositedUnits =
        maxTokens * UNITS // the initial tokens: one second of the floor, capped
            + totals.successes() * UNITS / 2
            + totals.advancedNanos() * 1_000;
    assertThat(totals.granted() * UNITS).isLessThanOrEqualTo(depositedUnits);
    assertThat(totals.refused()).isPositive();
    assertThat(budget.availableTokens()).isBetween(0.0, (double) maxTokens);
  }
}
