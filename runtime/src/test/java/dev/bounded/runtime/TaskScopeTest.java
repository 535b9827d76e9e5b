package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Public-API scenarios of {@link TaskScope}. Every ordering is forced by latches and the scope's
 * own events, never by sleeping; {@code @Timeout} only turns a bug that would hang into a failure.
 */
@Timeout(30)
final class TaskScopeTest {
  private final RecordingThreadFactory threads = new RecordingThreadFactory("child");
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void noThreadOutlivesItsScope() {
    Thread.interrupted(); // a test that leaves the flag set would leak it into the next one
    threads.assertNoneAlive();
  }

  private TaskScope.Builder scope() {
    return TaskScope.builder().name("test").threadFactory(threads);
  }

  /** Blocks until interrupted, recording its finally; the interruption propagates. */
  private String waitForever(String who, CountDownLatch started) throws InterruptedException {
    try {
      started.countDown();
      new CountDownLatch(1).await();
      return "never";
    } finally {
      events.add(who + " finally");
    }
  }

  @Nested
  final class Failure {
    @Test
    void aFailureCancelsTheSiblingsAndJoinReturnsAfterTheirFinally() {
      CountDownLatch waiterStarted = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        Subtask<String> waiter = scope.fork(() -> waitForever("waiter", waiterStarted));
        Subtask<String> failing =
            scope.fork(
                () -> {
                  waiterStarted.await();
                  throw new IllegalStateException("inventory down");
                });

        Throwable thrown = catchThrowable(scope::join);
        events.add("join returned");

        assertThat(thrown)
            .isInstanceOf(TaskScopeFailedException.class)
            .hasMessageContaining("task scope 'test': 1 of 2 subtasks failed")
            .cause()
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("inventory down");
        assertThat(events).containsExactly("waiter finally", "join returned");
        assertThat(waiter.state()).isEqualTo(Subtask.State.CANCELLED);
        assertThat(waiter.exception()).isInstanceOf(InterruptedException.class);
        assertThat(failing.state()).isEqualTo(Subtask.State.FAILED);
        assertThat(failing.exception()).isSameAs(thrown.getCause());
        assertThat(scope.isCancelled()).isTrue();
      }
    }

    @Test
    void twoFailuresAreBothReportedTheSecondAsSuppressed() {
      CountDownLatch secondStarted = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        scope.fork(
            () -> {
              secondStarted.await();
              throw new IllegalArgumentException("first");
            });
        scope.fork(
            () -> {
              try {
                waitForever("second", secondStarted);
                return "never";
              } catch (InterruptedException e) {
                // Cancelled by the first failure, this subtask fails in its own way while stopping.
                throw new IllegalStateException("second, while cancelled");
              }
            });

        TaskScopeFailedException thrown = (TaskScopeFailedException) catchThrowable(scope::join);

        assertThat(thrown).hasMessageContaining("2 of 2 subtasks failed");
        assertThat(thrown.failures()).isEqualTo(2);
        assertThat(thrown.getCause()).hasMessage("first");
        assertThat(thrown.getSuppressed())
            .singleElement()
            .satisfies(s -> assertThat(s).hasMessage("second, while cancelled"));
      }
    }

    @Test
    void keepsAtMostSixteenSuppressedButCountsEveryFailure() {
      int others = 19;
      CountDownLatch othersStarted = new CountDownLatch(others);
      try (TaskScope scope = scope().open()) {
        scope.fork(
            () -> {
              othersStarted.await();
              throw new IllegalArgumentException("first");
            });
        for (int i = 0; i < others; i++) {
          int n = i;
          scope.fork(
              () -> {
                othersStarted.countDown();
                try {
                  new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                  throw new IllegalStateException("later " + n);
                }
                return "never";
              });
        }

        TaskScopeFailedException thrown = (TaskScopeFailedException) catchThrowable(scope::join);

        assertThat(thrown.failures()).isEqualTo(20);
        assertThat(thrown.getSuppressed()).hasSize(16);
      }
    }

    @Test
    void anErrorInASubtaskIsReported() {
      try (TaskScope scope = scope().open()) {
        scope.fork(
            () -> {
              throw new AssertionError("invariant broken");
            });

        assertThatThrownBy(scope::join)
            .isInstanceOf(TaskScopeFailedException.class)
            .cause()
            .isInstanceOf(AssertionError.class)
            .hasMessage("invariant broken");
      }
    }

    @Test
    void aForkAfterTheScopeWasCancelledIsNotStarted() {
      try (TaskScope scope = scope().open()) {
        scope.fork(
            () -> {
              throw new IllegalStateException("boom");
            });
        while (!scope.isCancelled()) {
          Thread.onSpinWait(); // an event, not a clock: the failure has been recorded
        }

        Subtask<String> late = scope.fork(() -> "ran");

        assertThat(late.state()).isEqualTo(Subtask.State.CANCELLED);
        assertThatThrownBy(scope::join).isInstanceOf(TaskScopeFailedException.class);
        assertThat(late.exception()).isInstanceOf(CancellationException.class);
        assertThat(threads.threads()).hasSize(1);
      }
    }

    @Test
    void cancellationReachesTheSubtasksOfANestedScope() {
      CountDownLatch grandchildStarted = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        Subtask<String> child =
            scope.fork(
                () -> {
                  try (TaskScope inner = TaskScope.builder().threadFactory(threads).open()) {
                    inner.fork(() -> waitForever("grandchild", grandchildStarted));
                    inner.join();
                    return "never";
                  }
                });
        scope.fork(
            () -> {
              grandchildStarted.await();
              throw new IllegalStateException("boom");
            });

        assertThatThrownBy(scope::join).hasRootCauseMessage("boom");
        assertThat(events).containsExactly("grandchild finally");
        assertThat(child.state()).isEqualTo(Subtask.State.CANCELLED);
        assertThat(child.exception()).isInstanceOf(TaskScopeInterruptedException.class);
      }
    }
  }

  @Nested
  final class Cancellation {
    @Test
    void aSubtaskThatCancelsItselfDoesNotFailTheScope() {
      CountDownLatch cancelledItself = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        Subtask<String> quitter =
            scope.fork(
                () -> {
                  try {
                    throw new CancellationException("no longer needed");
                  } finally {
                    cancelledItself.countDown();
                  }
                });
        Subtask<String> worker =
            scope.fork(
                () -> {
                  cancelledItself.await();
                  return "42 in stock";
                });

        scope.join();

        assertThat(scope.isCancelled()).isFalse();
        assertThat(quitter.state()).isEqualTo(Subtask.State.CANCELLED);
        assertThat(quitter.exception()).hasMessage("no longer needed");
        assertThat(worker.state()).isEqualTo(Subtask.State.SUCCEEDED);
        assertThat(worker.get()).isEqualTo("42 in stock");
      }
    }

    @Test
    void anInterruptedOwnerCancelsEverySubtaskWaitsAndKeepsItsFlag() {
      Thread owner = Thread.currentThread();
      CountDownLatch firstStarted = new CountDownLatch(1);
      CountDownLatch secondStarted = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        Subtask<String> first = scope.fork(() -> waitForever("first", firstStarted));
        Subtask<String> second =
            scope.fork(
                () -> {
                  firstStarted.await();
                  owner.interrupt(); // the owner's caller cancels it while it joins
                  return waitForever("second", secondStarted);
                });

        Throwable thrown = catchThrowable(scope::join);
        events.add("join returned");

        assertThat(thrown)
            .isInstanceOf(TaskScopeInterruptedException.class)
            .hasMessageContaining("interrupted while joining")
            .hasCauseInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(events)
            .containsExactlyInAnyOrder("first finally", "second finally", "join returned")
            .endsWith("join returned");
        assertThat(first.state()).isEqualTo(Subtask.State.CANCELLED);
        assertThat(second.state()).isEqualTo(Subtask.State.CANCELLED);
      }
      assertThat(Thread.interrupted()).isTrue(); // close kept the flag too
    }

    @Test
    void anOwnerInterruptedBeforeJoiningCancelsAtOnce() {
      CountDownLatch started = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        Subtask<String> waiter = scope.fork(() -> waitForever("waiter", started));
        Thread.currentThread().interrupt();

        assertThatThrownBy(scope::join).isInstanceOf(TaskScopeInterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(waiter.state()).isEqualTo(Subtask.State.CANCELLED);
      }
    }
  }

  @Nested
  final class Deadlines {
    @Test
    void anExpiredDeadlineCancelsTheSubtasksAndJoinThrowsDeadlineExceeded()
        throws InterruptedException {
      FakeClock clock = new FakeClock();
      CountDownLatch started = new CountDownLatch(1);
      try (TaskScope scope = scope().deadline(Deadline.after(Duration.ZERO, clock)).open()) {
        Subtask<String> waiter = scope.fork(() -> waitForever("waiter", started));
        started.await(); // else it may be cancelled before it starts, and never run at all

        Throwable thrown = catchThrowable(scope::join);
        events.add("join returned");

        assertThat(thrown)
            .isExactlyInstanceOf(DeadlineExceededException.class)
            .hasMessage(
                "task scope 'test' did not finish within its deadline: cancelled 1 of 1 subtasks");
        assertThat(events).containsExactly("waiter finally", "join returned");
        assertThat(waiter.state()).isEqualTo(Subtask.State.CANCELLED);
      }
    }

    @Test
    void aSubtaskCancelledBeforeItStartsNeverRuns() {
      FakeClock clock = new FakeClock();
      CountDownLatch neverCounted = new CountDownLatch(1);
      Subtask<String> waiter;
      try (TaskScope scope = scope().deadline(Deadline.after(Duration.ZERO, clock)).open()) {
        waiter = scope.fork(() -> waitForever("waiter", neverCounted));
        assertThatThrownBy(scope::join).isExactlyInstanceOf(DeadlineExceededException.class);
      }
      // Either it ran and was interrupted, or it was cancelled before its first instruction.
      assertThat(waiter.state()).isEqualTo(Subtask.State.CANCELLED);
      assertThat(events).hasSize(neverCounted.getCount() == 0 ? 1 : 0);
    }

    @Test
    void theDeadlinePassingWhileJoiningCancelsTheRest() {
      FakeClock clock = new FakeClock();
      CountDownLatch started = new CountDownLatch(1);
      try (TaskScope scope =
          scope().deadline(Deadline.after(Duration.ofSeconds(1), clock)).open()) {
        Subtask<String> slow = scope.fork(() -> waitForever("slow", started));
        Subtask<String> fast =
            scope.fork(
                () -> {
                  started.await();
                  clock.advance(Duration.ofSeconds(2)); // time passes...
                  return "done"; // ...and finishing wakes the owner to re-read the deadline
                });

        assertThatThrownBy(scope::join)
            .isExactlyInstanceOf(DeadlineExceededException.class)
            .hasMessageContaining("cancelled 1 of 2 subtasks");
        assertThat(events).containsExactly("slow finally");
        assertThat(slow.state()).isEqualTo(Subtask.State.CANCELLED);
        assertThat(fast.get()).isEqualTo("done");
      }
    }

    @Test
    void subtasksThatFinishInTimeAreNotCancelled() {
      FakeClock clock = new FakeClock();
      try (TaskScope scope =
          scope().deadline(Deadline.after(Duration.ofSeconds(1), clock)).open()) {
        Subtask<Integer> answer = scope.fork(() -> 42);

        scope.join();

        assertThat(answer.get()).isEqualTo(42);
        assertThat(scope.deadline().isUnbounded()).isFalse();
      }
    }
  }

  @Nested
  final class Lifetime {
    @Test
    @SuppressWarnings("InterruptRetried") // the subtask ignores cancellation on purpose
    void closeWithoutJoinCancelsWaitsForEverySubtaskAndReportsTheMisuse() throws Exception {
      CountDownLatch started = new CountDownLatch(1);
      CountDownLatch sawInterrupt = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      TaskScope scope = scope().open();
      Subtask<String> stubborn =
          scope.fork(
              () -> {
                started.countDown();
                try {
                  while (true) {
                    try {
                      release.await();
                      return "finished late";
                    } catch (InterruptedException e) {
                      sawInterrupt.countDown(); // ignores cancellation until released
                    }
                  }
                } finally {
                  events.add("subtask finally");
                }
              });
      started.await();
      Thread releaser =
          new Thread(
              () -> {
                try {
                  sawInterrupt.await();
                  events.add("released");
                  release.countDown();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      releaser.start();

      Throwable thrown = catchThrowable(scope::close);
      events.add("close returned");
      releaser.join();

      assertThat(thrown)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "task scope 'test' closed without join(): 1 of 1 subtasks were still running and"
                  + " were cancelled");
      assertThat(events).containsExactly("released", "subtask finally", "close returned");
      assertThat(stubborn.get()).isEqualTo("finished late");
      threads.assertNoneAlive();
    }

    @Test
    void closeWithoutJoinAttachesFailuresThatWereNeverReported() {
      TaskScope scope = scope().open();
      scope.fork(
          () -> {
            throw new IllegalStateException("unseen");
          });
      while (!scope.isCancelled()) {
        Thread.onSpinWait();
      }

      assertThatThrownBy(scope::close)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("closed without join(): 0 of 1 subtasks were still running")
          .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1))
          .satisfies(e -> assertThat(e.getSuppressed()[0]).hasMessage("unseen"));
    }

    @Test
    void aScopeWithoutForksClosesQuietlyAndCloseIsIdempotent() {
      TaskScope scope = scope().open();
      scope.close();
      scope.close();
      assertThatThrownBy(() -> scope.fork(() -> "x"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("cannot fork in task scope 'test': it is already closed");
    }

    @Test
    void onlyTheOwnerMayForkJoinOrClose() {
      try (TaskScope scope = scope().open()) {
        Subtask<List<Throwable>> intruder =
            scope.fork(
                () ->
                    List.of(
                        catchThrowable(() -> scope.fork(() -> "x")),
                        catchThrowable(scope::join),
                        catchThrowable(scope::close)));
        scope.join();

        assertThat(intruder.get())
            .allSatisfy(
                e ->
                    assertThat(e)
                        .isInstanceOf(IllegalCallerException.class)
                        .hasMessageContaining("from thread 'child-1'")
                        .hasMessageContaining(
                            "task scope 'test' is owned by thread '"
                                + Thread.currentThread().getName()
                                + "'"));
      }
    }

    @Test
    void forkAfterJoinAndJoinTwiceAreRefused() {
      try (TaskScope scope = scope().open()) {
        scope.join();
        assertThatThrownBy(() -> scope.fork(() -> "x"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("already joined");
        assertThatThrownBy(scope::join)
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("task scope 'test' is already joined");
      }
    }

    @Test
    void resultsAreReadableOnlyAfterJoin() {
      CountDownLatch go = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        Subtask<String> answer =
            scope.fork(
                () -> {
                  go.await();
                  return "ok";
                });
        assertThat(answer.state()).isEqualTo(Subtask.State.RUNNING);
        assertThatThrownBy(answer::get)
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("call join() on task scope 'test' before get() of its subtask");
        go.countDown();

        scope.join();

        assertThat(answer.get()).isEqualTo("ok");
        assertThatThrownBy(answer::exception)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("succeeded");
      }
    }

    @Test
    void defaultThreadsAreNamedAfterTheScopeAndEndWithIt() {
      Subtask<Thread> self;
      try (TaskScope scope = TaskScope.builder().name("checkout").open()) {
        self = scope.fork(Thread::currentThread);
        scope.join();
      }
      assertThat(self.get().getName()).isEqualTo("checkout-1");
      assertThat(self.get().isDaemon()).isFalse();
      assertThat(self.get().isAlive()).isFalse();
    }

    @Test
    void aThreadWhoseSubtaskFinishedRunsTheNextForkWithAClearInterruptFlag() {
      try (TaskScope scope = scope().open()) {
        Subtask<Thread> first =
            scope.fork(
                () -> {
                  Thread.currentThread().interrupt(); // left set: must not reach the next subtask
                  return Thread.currentThread();
                });
        while (first.state() == Subtask.State.RUNNING) {
          Thread.onSpinWait(); // its thread is idle in the scope once this is settled
        }
        Subtask<Boolean> second = scope.fork(() -> Thread.currentThread().isInterrupted());
        Subtask<Thread> secondThread = scope.fork(Thread::currentThread);

        scope.join();

        assertThat(second.get()).isFalse();
        assertThat(threads.threads()).contains(first.get()).hasSizeBetween(1, 2);
        assertThat(secondThread.get().getName()).startsWith("child-");
      }
    }

    @Test
    void aParkedIdleThreadIsWokenForTheNextFork() {
      try (TaskScope scope = scope().open()) {
        Subtask<Thread> first = scope.fork(Thread::currentThread);
        while (first.state() == Subtask.State.RUNNING) {
          Thread.onSpinWait(); // an event: the subtask has settled
        }
        Thread worker = threads.threads().get(0);
        while (worker.getState() != Thread.State.WAITING) {
          Thread.onSpinWait(); // an event: past its spin, the idle thread has parked
        }

        Subtask<Thread> second = scope.fork(Thread::currentThread);
        scope.join();

        assertThat(second.get()).isSameAs(worker);
        assertThat(threads.threads()).containsExactly(worker);
      }
    }

    @Test
    void aThousandForksAllSettleWithTheirOwnResults() {
      List<Subtask<Integer>> subtasks = new ArrayList<>();
      try (TaskScope scope = scope().open()) {
        for (int i = 0; i < 1000; i++) {
          int value = i;
          subtasks.add(scope.fork(() -> value));
        }
        scope.join();
      }
      for (int i = 0; i < 1000; i++) {
        assertThat(subtasks.get(i).get()).isEqualTo(i);
      }
      assertThat(threads.threads()).hasSizeBetween(1, 1000);
    }

    @Test
    void concurrentFailuresAmongManyForksAreAllCountedAndTheRestSettle() {
      CountDownLatch go = new CountDownLatch(1);
      List<Subtask<String>> subtasks = new ArrayList<>();
      Throwable thrown;
      try (TaskScope scope = scope().open()) {
        for (int i = 0; i < 200; i++) {
          boolean fails = i % 40 == 7; // 5 of 200, spread out
          String name = "s" + i;
          subtasks.add(
              scope.fork(
                  () -> {
                    go.await(); // every subtask is running or handed over before any finishes
                    if (fails) {
                      throw new IllegalStateException(name);
                    }
                    return name;
                  }));
        }
        go.countDown();
        thrown = catchThrowable(scope::join);
      }
      long failed = subtasks.stream().filter(t -> t.state() == Subtask.State.FAILED).count();
      assertThat(subtasks).noneMatch(t -> t.state() == Subtask.State.RUNNING);
      assertThat(failed).isBetween(1L, 5L);
      assertThat(thrown).isInstanceOf(TaskScopeFailedException.class);
      TaskScopeFailedException failure = (TaskScopeFailedException) thrown;
      assertThat(failure.failures()).isEqualTo((int) failed);
      assertThat(failure.getSuppressed()).hasSize((int) failed - 1);
      assertThat(failure.getCause()).isInstanceOf(IllegalStateException.class);
      for (Subtask<String> subtask : subtasks) {
        if (subtask.state() == Subtask.State.SUCCEEDED) {
          assertThat(subtask.get()).startsWith("s");
        } else if (subtask.state() == Subtask.State.CANCELLED) {
          assertThat(subtask.exception())
              .isInstanceOfAny(CancellationException.class, InterruptedException.class);
        }
      }
    }

    @Test
    void aThreadFactoryThatReturnsNullIsRefused() {
      try (TaskScope scope = TaskScope.builder().name("nulls").threadFactory(r -> null).open()) {
        assertThatThrownBy(() -> scope.fork(() -> "x"))
            .isInstanceOf(RejectedExecutionException.class)
            .hasMessageContaining("of task scope 'nulls' returned null");
        scope.join();
      }
    }

    @Test
    void aBlankNameIsRefused() {
      assertThatThrownBy(() -> TaskScope.builder().name(" "))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a task scope's name must not be blank, was ' '");
    }

    @Test
    void aFailedJoinStillLeavesSiblingResultsReadable() {
      AtomicReference<String> seen = new AtomicReference<>();
      CountDownLatch succeeded = new CountDownLatch(1);
      try (TaskScope scope = scope().open()) {
        Subtask<String> ok =
            scope.fork(
                () -> {
                  succeeded.countDown();
                  return "ok";
                });
        scope.fork(
            () -> {
              succeeded.await();
              throw new IllegalStateException("boom");
            });
        assertThatThrownBy(scope::join).isInstanceOf(TaskScopeFailedException.class);
        seen.set(ok.get());
      }
      assertThat(seen).hasValue("ok");
    }
  }
}
