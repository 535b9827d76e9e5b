package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Public-API scenarios of {@link BoundedExecutor}. Orderings are forced by latches and thread
 * states, never by sleeping; {@code @Timeout} only turns a hang into a failure.
 */
@Timeout(30)
final class BoundedExecutorTest {
  private final List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());
  private final RecordingThreadFactory threads =
      new RecordingThreadFactory("inventory", (t, e) -> uncaught.add(e));
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());
  private final FakeClock clock = new FakeClock();
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch blockerStarted = new CountDownLatch(1);
  private BoundedExecutor executor;

  @AfterEach
  void noWorkerSurvives() throws InterruptedException {
    Thread.interrupted();
    release.countDown();
    if (executor != null) {
      executor.shutdownNow();
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
    }
    threads.assertNoneAlive();
  }

  private BoundedExecutor.Builder inventory(int workers, int capacity) {
    return BoundedExecutor.builder("inventory")
        .workers(workers)
        .queueCapacity(capacity)
        .threadFactory(threads)
        .ticker(clock);
  }

  /** Occupies one worker until {@link #release}, recording an interruption. */
  private void block() {
    blockerStarted.countDown();
    try {
      release.await();
      events.add("blocker released");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      events.add("blocker interrupted");
    }
  }

  private Runnable recording(String name) {
    return () -> events.add(name);
  }

  /** One worker, busy; a queue of {@code capacity} filled with tasks q1..qN. */
  private BoundedExecutor fullExecutor(int capacity) throws InterruptedException {
    executor = inventory(1, capacity).build();
    executor.execute(BoundedExecutorTest.this::block);
    blockerStarted.await();
    for (int i = 1; i <= capacity; i++) {
      executor.execute(recording("q" + i));
    }
    return executor;
  }

  private static void awaitBlocked(Thread thread) {
    while (thread.getState() != Thread.State.WAITING
        && thread.getState() != Thread.State.TIMED_WAITING) {
      Thread.onSpinWait(); // an observed state, not a clock
    }
  }

  @Nested
  final class Admission {
    @Test
    void aFullExecutorRejectsAtOnceNamingItsSizes() throws InterruptedException {
      fullExecutor(2);

      Throwable thrown = catchThrowable(() -> executor.execute(recording("late")));

      assertThat(thrown)
          .isInstanceOf(ExecutorFullException.class)
          .isInstanceOf(RejectedExecutionException.class)
          .hasMessage(
              "executor 'inventory' is full: queue depth 2 of capacity 2, 1 of 1 workers running a"
                  + " task; task refused");
      ExecutorFullException full = (ExecutorFullException) thrown;
      assertThat(full.executorName()).isEqualTo("inventory");
      assertThat(full.queueCapacity()).isEqualTo(2);
      assertThat(full.queueDepth()).isEqualTo(2);
      assertThat(executor.rejected()).isEqualTo(1);
      assertThat(executor.queued()).isEqualTo(2);
      assertThat(executor.active()).isEqualTo(1);
    }

    @Test
    void submitFromExecutorServiceAlsoRejectsAtOnce() throws InterruptedException {
      fullExecutor(1);
      assertThatThrownBy(() -> executor.submit(() -> "late"))
          .isInstanceOf(ExecutorFullException.class);
      assertThat(executor.rejected()).isEqualTo(1);
    }

    @Test
    void anExpiredDeadlineRejectsAtOnce() throws InterruptedException {
      fullExecutor(1);
      Deadline expired = Deadline.after(Duration.ZERO, clock);

      assertThatThrownBy(() -> executor.execute(recording("late"), expired))
          .isInstanceOf(AdmissionDeadlineExceededException.class)
          .hasMessage(
              "the caller's deadline had already passed; executor 'inventory' refused the task"
                  + " without queueing it");
      assertThatThrownBy(() -> executor.submit(() -> "late", expired))
          .isInstanceOf(AdmissionDeadlineExceededException.class);
      assertThat(executor.rejected()).isEqualTo(2);
    }

    @Test
    void aSubmitterWithTimeLeftWaitsForRoom() throws Exception {
      fullExecutor(1);
      AtomicReference<Future<String>> accepted = new AtomicReference<>();
      Thread submitter =
          new Thread(() -> accepted.set(executor.submit(() -> "waited", Deadline.none())));
      submitter.start();
      awaitBlocked(submitter);
      assertThat(accepted).hasValue(null);

      release.countDown(); // the worker frees up, takes q1, and there is room
      submitter.join();

      assertThat(accepted.get().get()).isEqualTo("waited");
      assertThat(executor.rejected()).isZero();
    }

    @Test
    void anInterruptedSubmitterGivesUpAndKeepsItsFlag() throws InterruptedException {
      fullExecutor(1);
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      AtomicReference<Boolean> flag = new AtomicReference<>();
      Thread submitter =
          new Thread(
              () -> {
                thrown.set(
                    catchThrowable(() -> executor.execute(recording("late"), Deadline.none())));
                flag.set(Thread.currentThread().isInterrupted());
              });
      submitter.start();
      awaitBlocked(submitter);
      submitter.interrupt();
      submitter.join();

      assertThat(thrown.get())
          .isInstanceOf(AdmissionInterruptedException.class)
          .isInstanceOf(RejectedExecutionException.class)
          .hasMessage(
              "interrupted while waiting for room in executor 'inventory' (queue depth 1 of capacity 1,"
                  + " 1 of 1 workers running a task)")
          .hasCauseInstanceOf(InterruptedException.class);
      assertThat(flag).hasValue(true);
      assertThat(executor.rejected()).isEqualTo(1);
    }

    @Test
    void shutdownRefusesWaitingAndLaterSubmitters() throws InterruptedException {
      fullExecutor(1);
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread submitter =
          new Thread(
              () ->
                  thrown.set(
                      catchThrowable(() -> executor.execute(recording("late"), Deadline.none()))));
      submitter.start();
      awaitBlocked(submitter);

      executor.shutdown();
      submitter.join();

      assertThat(thrown.get())
          .isInstanceOf(ExecutorShutdownException.class)
          .hasMessage("executor 'inventory' is shut down; task refused");
      assertThatThrownBy(() -> executor.execute(recording("later")))
          .isInstanceOf(ExecutorShutdownException.class);
      assertThat(executor.rejected()).isEqualTo(2);
    }
  }

  @Nested
  final class Running {
    @Test
    void workersAreNamedAndRunEveryTask() throws Exception {
      executor = BoundedExecutor.builder("payments").workers(2).queueCapacity(4).build();
      Future<String> name = executor.submit(() -> Thread.currentThread().getName());

      assertThat(name.get()).matches("payments-[12]");
      assertThat(executor.name()).isEqualTo("payments");
      assertThat(executor.workers()).isEqualTo(2);
      assertThat(executor.queueCapacity()).isEqualTo(4);
      executor.close();
      assertThat(executor.isTerminated()).isTrue();
      assertThat(executor.completed()).isEqualTo(1);
    }

    @Test
    void aFailingTaskIsReportedAndTheWorkerGoesOn() throws Exception {
      executor = inventory(1, 4).build();
      executor.execute(
          () -> {
            throw new IllegalStateException("task failed");
          });
      Future<String> next = executor.submit(() -> Thread.currentThread().getName());

      assertThat(next.get()).isEqualTo("inventory-1");
      assertThat(uncaught).singleElement().satisfies(e -> assertThat(e).hasMessage("task failed"));
      executor.close();
      assertThat(executor.completed()).isEqualTo(2);
      assertThat(threads.threads()).hasSize(1);
    }

    @Test
    void closeRunsEveryQueuedTaskBeforeReturning() throws InterruptedException {
      fullExecutor(3);
      release.countDown();

      executor.close();

      assertThat(events).containsExactly("blocker released", "q1", "q2", "q3");
      assertThat(executor.completed()).isEqualTo(4);
      assertThat(executor.queued()).isZero();
      assertThat(executor.active()).isZero();
      threads.assertNoneAlive();
    }

    @Test
    void buildRequiresBothSizes() {
      assertThatThrownBy(() -> BoundedExecutor.builder("x").queueCapacity(1).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("executor 'x': set workers(n)");
      assertThatThrownBy(() -> BoundedExecutor.builder("x").workers(1).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("executor 'x': set queueCapacity(n)");
      assertThatThrownBy(() -> BoundedExecutor.builder("x").workers(0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("workers must be at least 1, was 0");
      assertThatThrownBy(() -> BoundedExecutor.builder("x").queueCapacity(-3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("queueCapacity must be at least 1, was -3");
      assertThatThrownBy(() -> BoundedExecutor.builder(""))
          .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aThreadFactoryThatReturnsNullFailsTheBuildWithoutLeaking() throws InterruptedException {
      List<Thread> made = new ArrayList<>();
      assertThatThrownBy(
              () ->
                  BoundedExecutor.builder("half")
                      .workers(3)
                      .queueCapacity(1)
                      .threadFactory(
                          r -> {
                            if (made.size() == 2) {
                              return null;
                            }
                            Thread t = threads.newThread(r);
                            made.add(t);
                            return t;
                          })
                      .build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("of executor 'half' returned null");
      for (Thread t : made) {
        t.join(); // the workers that did start see the aborted start and exit
      }
    }
  }

  @Nested
  final class Shutdown {
    @Test
    void shutdownNowReturnsTheQueuedTasksAndInterruptsTheRunningOne() throws Exception {
      fullExecutor(3);

      List<Runnable> notRun = executor.shutdownNow();

      assertThat(notRun).hasSize(3);
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
      assertThat(events).containsExactly("blocker interrupted");
      notRun.forEach(Runnable::run);
      assertThat(events).containsExactly("blocker interrupted", "q1", "q2", "q3");
    }

    @Test
    void aZeroDrainStopsAtOnceAndReportsWhatDidNotRun() throws Exception {
      fullExecutor(2);

      ShutdownReport report = executor.shutdown(Duration.ZERO);

      assertThat(report.notRun()).hasSize(2);
      assertThat(report.stillRunning()).isEqualTo(1);
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
      assertThat(events).containsExactly("blocker interrupted");
      // terminated is a race by nature: the interrupted task may end before shutdown returns.
      assertThat(report.toString())
          .startsWith("ShutdownReport[notRun=2, stillRunning=1, terminated=");
    }

    @Test
    void aDrainThatCompletesRunsEverythingAndTerminates() throws InterruptedException {
      executor = inventory(2, 8).ticker(Ticker.system()).build();
      for (int i = 1; i <= 8; i++) {
        executor.execute(recording("t" + i));
      }

      ShutdownReport report = executor.shutdown(Duration.ofDays(1));

      assertThat(report.notRun()).isEmpty();
      assertThat(report.stillRunning()).isZero();
      assertThat(report.terminated()).isTrue();
      assertThat(events).hasSize(8);
    }

    @Test
    void theDrainTimePassingStopsTheRest() throws InterruptedException {
      // One worker, running the blocker; one task queued behind it. Before, the worker ran a first
      // task whose completion woke the drain, and the test counted on the worker taking the
      // blocker before the drain looked: a race the drain sometimes won (two tasks not run).
      executor = inventory(1, 4).build();
      executor.execute(BoundedExecutorTest.this::block);
      executor.execute(recording("never"));
      blockerStarted.await(); // the blocker runs before the drain starts, however slow the worker
      Thread timeKeeper =
          new Thread(
              () -> {
                while (!executor.isShutdown()) {
                  Thread.onSpinWait();
                }
                clock.advance(Duration.ofSeconds(2)); // past the drain time: the drain's next
                // slice of waiting reads the ticker again and stops
              });
      timeKeeper.start();

      ShutdownReport report = executor.shutdown(Duration.ofSeconds(1));
      timeKeeper.join();

      assertThat(report.notRun()).hasSize(1);
      assertThat(report.stillRunning()).isEqualTo(1);
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
      assertThat(events).containsExactly("blocker interrupted");
    }

    @Test
    void anInterruptedDrainStopsAtOnceAndKeepsTheFlag() throws InterruptedException {
      fullExecutor(2);
      Thread.currentThread().interrupt();

      ShutdownReport report = executor.shutdown(Duration.ofDays(1));

      assertThat(Thread.interrupted()).isTrue();
      assertThat(report.notRun()).hasSize(2);
      assertThat(report.stillRunning()).isEqualTo(1);
    }

    @Test
    void awaitTerminationTimesOutOnTheExecutorsTicker() throws InterruptedException {
      fullExecutor(1);
      executor.shutdown();

      assertThat(executor.awaitTermination(0, TimeUnit.SECONDS)).isFalse();
      assertThat(executor.isShutdown()).isTrue();
      assertThat(executor.isTerminated()).isFalse();
      release.countDown();
      assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();
      assertThat(events).containsExactly("blocker released", "q1");
    }

    @Test
    void countersAndToStringDescribeTheExecutor() throws InterruptedException {
      fullExecutor(2);
      assertThat(catchThrowable(() -> executor.execute(recording("late"))))
          .isInstanceOf(ExecutorFullException.class);
      assertThat(executor)
          .hasToString(
              "BoundedExecutor[inventory, workers=1, queued=2, queueCapacity=2, active=1,"
                  + " completed=0, rejected=1, running]");
    }
  }
}
