package dev.bounded.scanner.lsp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose time passes only when the test says: {@link #advance} runs, on the test's
 * thread, the tasks that fall due. Thread-safe.
 */
final class ManualScheduler implements Scheduler {
  private final List<Task> tasks = new ArrayList<>();
  private final Semaphore scheduled = new Semaphore(0);
  private long now;
  private int cancelled;

  private static final class Task {
    final Runnable runnable;
    final long due;
    boolean done;

    Task(Runnable runnable, long due) {
      this.runnable = runnable;
      this.due = due;
    }
  }

  @Override
  public synchronized Cancellable schedule(Runnable task, Duration delay) {
    Task t = new Task(task, now + delay.toNanos());
    tasks.add(t);
    scheduled.release();
    return () -> {
      synchronized (this) {
        if (!t.done && tasks.remove(t)) {
          cancelled++;
        }
      }
    };
  }

  /** Waits (up to a generous timeout, never expected) until {@code n} more tasks were scheduled. */
  void awaitScheduled(int n) throws InterruptedException {
    if (!scheduled.tryAcquire(n, 30, TimeUnit.SECONDS)) {
      throw new AssertionError("fewer than " + n + " tasks were scheduled");
    }
  }

  /** Moves time on and runs the tasks that fall due, in order. */
  void advance(Duration d) {
    List<Task> due = new ArrayList<>();
    synchronized (this) {
      now += d.toNanos();
      for (Task t : new ArrayList<>(tasks)) {
        if (t.due <= now) {
          t.done = true;
          tasks.remove(t);
          due.add(t);
        }
      }
    }
    due.forEach(t -> t.runnable.run());
  }

  synchronized int pending() {
    return tasks.size();
  }

  synchronized int cancelled() {
    return cancelled;
  }

  @Override
  public synchronized void close() {
    tasks.clear();
  }
}
