package dev.bounded.runtime.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bounded.runtime.AdmissionDeadlineExceededException;
import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.DeadlineExceededException;
import dev.bounded.runtime.ExecutorFullException;
import dev.bounded.runtime.RetriesExhaustedException;
import dev.bounded.runtime.RetryBudget;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.ShutdownReport;
import dev.bounded.runtime.Subtask;
import dev.bounded.runtime.TaskScope;
import dev.bounded.runtime.TaskScopeFailedException;
import dev.bounded.runtime.Ticker;
import dev.bounded.runtime.UnknownOutcomeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 11: runtime behaviours that broke a promise of the docs, one nested class per item (items
 * 7, 8 and 11 are in test-fixtures). Public API only. Orderings are forced by latches and observed
 * thread states; {@code @Timeout} only turns a hang (the bug of item 6) into a failure.
 */
@Timeout(20)
final class Issue11Test {
  /** Records the threads it makes, so each test can assert that none survives. */
  private static final class Threads implements ThreadFactory {
    final List<Thread> made = new ArrayList<>();

    @Override
    public synchronized Thread newThread(Runnable task) {
      Thread thread = new Thread(task, "issue11-" + (made.size() + 1));
      made.add(thread);
      return thread;
    }

    synchronized void joinAll() throws InterruptedException {
      for (Thread thread : made) {
        thread.join();
      }
    }
  }

  /** A ticker that moves only when told: a stand-in for test-fixtures' ManualTicker. */
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

  private final Threads threads = new Threads();
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<BoundedExecutor> executors = new ArrayList<>();

  @AfterEach
  void nothingSurvives() throws InterruptedException {
    release.countDown();
    for (BoundedExecutor executor : executors) {
      executor.shutdownNow();
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
    }
    threads.joinAll();
  }

  private BoundedExecutor executor(int workers, int queueCapacity, Ticker ticker) {
    BoundedExecutor executor =
        BoundedExecutor.builder("issue11")
            .workers(workers)
            .queueCapacity(queueCapacity)
            .threadFactory(threads)
            .ticker(ticker)
            .build();
    executors.add(executor);
    return executor;
  }

  private void awaitRelease() {
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void awaitState(Thread thread, Thread.State state) {
    while (thread.getState() != state) {
      Thread.onSpinWait(); // an observed event, not a sleep; @Timeout ends a hang
    }
  }

  private static void awaitActive(BoundedExecutor executor, int active) {
    while (executor.active() != active) {
      Thread.onSpinWait();
    }
  }

  @Nested
  final class Item01BurstOnIdleWorkers {
    @Test
    void workersPlusQueueCapacityTasksFitAtOnceOnAnIdleExecutor() {
      BoundedExecutor executor = executor(4, 1, Ticker.system());

      for (int i = 0; i < 5; i++) { // back to back: no worker has had time to wake
        executor.execute(Issue11Test.this::awaitRelease);
      }

      assertThat(executor.rejected()).isZero();
      awaitActive(executor, 4);
      Throwable refused = catchThrowable(() -> executor.execute(() -> {}));
      assertThat(refused)
          .isInstanceOf(ExecutorFullException.class)
          .hasMessage(
              "executor 'issue11' is full: queue depth 1 of capacity 1, 4 of 4 workers running a"
                  + " task; task refused");
      assertThat(((ExecutorFullException) refused).queueDepth()).isEqualTo(1);
    }

    @Test
    void theRefusalNeverClaimsBusyWorkersThatAreIdle() {
      BoundedExecutor executor = executor(4, 1, Ticker.system());
      executor.execute(Issue11Test.this::awaitRelease);
      awaitActive(executor, 1);

      for (int i = 0; i < 4; i++) {
        executor.execute(Issue11Test.this::awaitRelease);
      }
      awaitActive(executor, 4);

      assertThatThrownBy(() -> executor.execute(() -> {}))
          .hasMessageContaining("4 of 4 workers running a task")
          .hasMessageNotContaining("busy");
      assertThat(executor.queued()).isEqualTo(1);
    }
  }

  @Nested
  final class Item02DeepTimeout {
    private Exception wrapped(int times) {
      Exception failure = new TimeoutException("write timed out after sending");
      for (int i = 0; i < times; i++) {
        failure = new IllegalStateException("layer " + i, failure);
      }
      return failure;
    }

    @Test
    void aTimeoutWrappedSixteenTimesOrAThousandIsAnUnknownOutcome() {
      RetryPolicy policy =
          RetryPolicy.builder().maxAttempts(3).noBackoff().retryOn(RuntimeException.class).build();
      for (int depth : new int[] {15, 16, 17, 1000}) {
        AtomicInteger calls = new AtomicInteger();
        Exception failure = wrapped(depth);

        assertThat(policy.isUnknownOutcome(failure)).as("depth %d", depth).isTrue();
        assertThatThrownBy(
                () ->
                    policy.call(
                        attempt -> {
                          calls.incrementAndGet();
                          throw failure;
                        }))
            .isInstanceOf(UnknownOutcomeException.class);
        assertThat(calls).as("calls at depth %d", depth).hasValue(1);
      }
    }

    /** A failure whose cause chain loops back on itself, as a getCause override can make it. */
    private static final class Looping extends RuntimeException {
      private static final long serialVersionUID = 1L;
      Looping next;

      Looping(String message) {
        super(message);
      }

      @Override
      public synchronized Throwable getCause() {
        return next;
      }
    }

    @Test
    void aCauseCycleEndsTheWalkAndIsNotMistakenForATimeout() {
      Looping a = new Looping("a");
      Looping b = new Looping("b");
      Looping c = new Looping("c");
      a.next = b;
      b.next = c;
      c.next = a;
      RetryPolicy policy = RetryPolicy.builder().build();

      assertThat(policy.isUnknownOutcome(a)).isFalse();
      assertThat(policy.isUnknownOutcome(new IllegalStateException(a))).isFalse();
    }
  }

  @Nested
  final class Item03FactoryThatThrows {
    @Test
    void theWorkersStartedBeforeTheFactoryThrewAreStopped() throws InterruptedException {
      List<Thread> started = new ArrayList<>();
      ThreadFactory third =
          task -> {
            if (started.size() == 2) {
              throw new IllegalStateException("no more threads");
            }
            Thread thread = threads.newThread(task);
            started.add(thread);
            return thread;
          };

      assertThatThrownBy(
              () ->
                  BoundedExecutor.builder("leaky")
                      .workers(4)
                      .queueCapacity(1)
                      .threadFactory(third)
                      .build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("no more threads");

      for (Thread thread : started) {
        thread.join(); // would wait forever before the fix
      }
      assertThat(started).hasSize(2).noneMatch(Thread::isAlive);
    }
  }

  @Nested
  final class Item04CancelledWhileWaitingForRoom {
    @Test
    void aSubtaskWaitingForAdmissionIsCancelledNotFailed() {
      BoundedExecutor executor = executor(1, 1, Ticker.system());
      executor.execute(Issue11Test.this::awaitRelease); // the worker
      executor.execute(() -> {}); // the queue slot: full now
      AtomicReference<Thread> waiter = new AtomicReference<>();

      TaskScopeFailedException failed;
      Subtask<Object> waiting;
      try (TaskScope scope = TaskScope.builder().threadFactory(threads).open()) {
        waiting =
            scope.fork(
                () -> {
                  waiter.set(Thread.currentThread());
                  executor.execute(() -> {}, Deadline.none()); // waits for room
                  return null;
                });
        scope.fork(
            () -> {
              while (waiter.get() == null) {
                Thread.onSpinWait();
              }
              awaitState(waiter.get(), Thread.State.WAITING);
              throw new IllegalStateException("the real failure");
            });
        failed = (TaskScopeFailedException) catchThrowable(scope::join);
      }

      assertThat(failed).hasCauseInstanceOf(IllegalStateException.class);
      assertThat(failed.failures()).isEqualTo(1);
      assertThat(failed.getSuppressed()).isEmpty();
      assertThat(waiting.state()).isEqualTo(Subtask.State.CANCELLED);
    }
  }

  @Nested
  final class Item05ExpiredDeadline {
    @Test
    void anExpiredDeadlineRefusesEvenWithRoomAndTheTaskNeverRuns() {
      Manual ticker = new Manual();
      BoundedExecutor executor = executor(2, 2, ticker);
      Deadline expired = Deadline.after(Duration.ZERO, ticker);
      AtomicInteger ran = new AtomicInteger();

      assertThatThrownBy(() -> executor.execute(ran::incrementAndGet, expired))
          .isInstanceOf(AdmissionDeadlineExceededException.class)
          .hasMessageContaining("deadline had already passed");
      assertThatThrownBy(() -> executor.submit(() -> ran.incrementAndGet(), expired))
          .isInstanceOf(AdmissionDeadlineExceededException.class);
      executor.close();

      assertThat(ran).hasValue(0);
      assertThat(executor.rejected()).isEqualTo(2);
      assertThat(executor.completed()).isZero();
    }
  }

  @Nested
  final class Item06ManualTickerWaits {
    private final Manual ticker = new Manual();

    /** Runs {@code wait} on a new thread, advances the ticker once it waits, and returns. */
    private void advanceWhileWaiting(Runnable wait, Duration by) throws InterruptedException {
      Thread waiter = threads.newThread(wait);
      waiter.start();
      awaitState(waiter, Thread.State.TIMED_WAITING);
      ticker.advance(by);
      waiter.join(); // before the fix: an hour of real time
    }

    @Test
    void awaitTerminationReturnsWhenTheTickerPassesItsTimeout() throws InterruptedException {
      BoundedExecutor executor = executor(1, 1, ticker);
      executor.execute(Issue11Test.this::awaitRelease);
      executor.shutdown();
      AtomicReference<Boolean> terminated = new AtomicReference<>();

      advanceWhileWaiting(
          () -> {
            try {
              terminated.set(executor.awaitTermination(1, TimeUnit.HOURS));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          },
          Duration.ofHours(2));

      assertThat(terminated.get()).isFalse();
    }

    @Test
    void shutdownWithADrainTimeStopsWhenTheTickerPassesIt() throws InterruptedException {
      BoundedExecutor executor = executor(1, 1, ticker);
      executor.execute(Issue11Test.this::awaitRelease);
      executor.execute(() -> {});
      awaitActive(executor, 1);
      AtomicReference<ShutdownReport> report = new AtomicReference<>();

      advanceWhileWaiting(
          () -> report.set(executor.shutdown(Duration.ofHours(1))), Duration.ofHours(2));

      assertThat(report.get().notRun()).hasSize(1);
      assertThat(report.get().stillRunning()).isEqualTo(1);
    }

    @Test
    void admissionWaitEndsWhenTheTickerPassesTheDeadline() throws InterruptedException {
      BoundedExecutor executor = executor(1, 1, ticker);
      executor.execute(Issue11Test.this::awaitRelease);
      executor.execute(() -> {});
      Deadline deadline = Deadline.after(Duration.ofHours(1), ticker);
      AtomicReference<Throwable> refused = new AtomicReference<>();

      advanceWhileWaiting(
          () -> refused.set(catchThrowable(() -> executor.execute(() -> {}, deadline))),
          Duration.ofHours(2));

      assertThat(refused.get())
          .isInstanceOf(ExecutorFullException.class)
          .hasMessageContaining("full until the deadline");
    }

    @Test
    void aScopeJoinEndsWhenTheTickerIsAdvancedByAnotherThread() throws InterruptedException {
      Thread owner = Thread.currentThread();
      Thread advancer =
          threads.newThread(
              () -> {
                awaitState(owner, Thread.State.TIMED_WAITING);
                ticker.advance(Duration.ofHours(2));
              });
      Throwable outcome;
      try (TaskScope scope =
          TaskScope.builder()
              .threadFactory(threads)
              .deadline(Deadline.after(Duration.ofHours(1), ticker))
              .open()) {
        scope.fork(
            () -> {
              awaitRelease();
              return null;
            });
        advancer.start();
        outcome = catchThrowable(scope::join);
      }
      advancer.join();

      assertThat(outcome).isInstanceOf(DeadlineExceededException.class);
    }
  }

  @Nested
  final class Item09KeptFailures {
    @Test
    void theMostRecentSixteenAreKeptAndTheOlderCounted() {
      RetryPolicy policy =
          RetryPolicy.builder()
              .maxAttempts(40)
              .noBackoff()
              .retryOn(IllegalStateException.class)
              .build();

      RetriesExhaustedException exhausted =
          (RetriesExhaustedException)
              catchThrowable(
                  () ->
                      policy.call(
                          attempt -> {
                            throw new IllegalStateException("failure " + attempt.number());
                          }));

      assertThat(exhausted.getCause()).hasMessage("failure 40");
      assertThat(exhausted.getSuppressed())
          .extracting(Throwable::getMessage)
          .containsExactly(
              "failure 24",
              "failure 25",
              "failure 26",
              "failure 27",
              "failure 28",
              "failure 29",
              "failure 30",
              "failure 31",
              "failure 32",
              "failure 33",
              "failure 34",
              "failure 35",
              "failure 36",
              "failure 37",
              "failure 38",
              "failure 39");
      assertThat(exhausted.omittedFailures()).isEqualTo(23);
      assertThat(exhausted)
          .hasMessageStartingWith(
              "40 attempts failed, giving up (the 23 oldest earlier failures are not attached)");
    }

    @Test
    void fewerThanSixteenAreAllKeptAndNothingIsOmitted() {
      RetryPolicy policy =
          RetryPolicy.builder()
              .maxAttempts(3)
              .noBackoff()
              .retryOn(IllegalStateException.class)
              .build();

      RetriesExhaustedException exhausted =
          (RetriesExhaustedException)
              catchThrowable(
                  () ->
                      policy.call(
                          attempt -> {
                            throw new IllegalStateException("failure " + attempt.number());
                          }));

      assertThat(exhausted.getSuppressed())
          .extracting(Throwable::getMessage)
          .containsExactly("failure 1", "failure 2");
      assertThat(exhausted.omittedFailures()).isZero();
      assertThat(exhausted).hasMessageStartingWith("3 attempts failed, giving up; last failure");
    }
  }

  @Nested
  final class Item10FloorRefill {
    @Test
    void readingTheBudgetOftenDoesNotSlowTheFloor() {
      Manual ticker = new Manual();
      RetryBudget budget =
          RetryBudget.builder()
              .ratio(0)
              .minRetriesPerSecond(10)
              .maxTokens(100)
              .ticker(ticker)
              .build();
      while (budget.tryAcquireRetry()) {
        // spend the first second's tokens
      }
      assertThat(budget.availableTokens()).isZero();

      long step = 150;
      long steps = Duration.ofSeconds(1).toNanos() / step;
      for (long i = 0; i < steps; i++) {
        ticker.advance(Duration.ofNanos(step));
        budget.availableTokens(); // a gauge read every 150 ns
      }
      ticker.advance(Duration.ofNanos(Duration.ofSeconds(1).toNanos() - steps * step));

      assertThat(budget.availableTokens()).isEqualTo(10.0);
    }
  }

  @Nested
  final class Item12MinOfSaturatedDeadlines {
    @Test
    void theEarlierStartWinsWhateverTheArgumentOrder() {
      Manual ticker = new Manual();
      Deadline first = Deadline.after(Duration.ofSeconds(Long.MAX_VALUE), ticker);
      ticker.advance(Duration.ofSeconds(1));
      Deadline second = Deadline.after(Duration.ofSeconds(Long.MAX_VALUE), ticker);

      assertThat(first.min(second)).isSameAs(first);
      assertThat(second.min(first)).isSameAs(first);
    }
  }

  @Nested
  final class Item13SaturationPoint {
    @Test
    void aDurationThatFitsKeepsItsExactLength() {
      Manual ticker = new Manual();
      long exact = 9_223_372_036_000_000_000L;

      assertThat(Deadline.after(Duration.ofSeconds(9_223_372_036L), ticker).remainingNanos())
          .isEqualTo(exact);
      assertThat(
              Deadline.after(Duration.ofSeconds(9_223_372_036L, 854_775_807L), ticker)
                  .remainingNanos())
          .isEqualTo(Long.MAX_VALUE);
      assertThat(
              Deadline.after(Duration.ofSeconds(9_223_372_036L, 854_775_808L), ticker)
                  .remainingNanos())
          .isEqualTo(Long.MAX_VALUE);
    }
  }
}
