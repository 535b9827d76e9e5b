package dev.bounded.scanner.lsp;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Runs the latest task of each key once its key has been quiet for a delay: a burst of edits to a
 * document is analysed once, after the last. Time is the {@link Scheduler}'s; the task itself runs
 * on the worker. Thread-safe.
 */
final class Debouncer {
  private final Duration delay;
  private final Scheduler scheduler;
  private final Executor worker;
  private final Map<String, Pending> pending = new HashMap<>();

  /** One scheduled run, to tell a stale firing from the current one. */
  private static final class Pending {
    Scheduler.Cancellable handle;
  }

  Debouncer(Duration delay, Scheduler scheduler, Executor worker) {
    this.delay = delay;
    this.scheduler = scheduler;
    this.worker = worker;
  }

  /** Schedules {@code task} for {@code key}, calling off the one scheduled before. */
  void submit(String key, Runnable task) {
    Pending next = new Pending();
    synchronized (pending) {
      Pending previous = pending.put(key, next);
      if (previous != null && previous.handle != null) {
        previous.handle.cancel();
      }
      next.handle =
          scheduler.schedule(
              () -> {
                synchronized (pending) {
                  if (pending.get(key) != next) {
                    return; // called off, or replaced, after the timer fired
                  }
                  pending.remove(key);
                }
                worker.execute(task);
              },
              delay);
    }
  }

  /** Calls off the task scheduled for {@code key}, if any. */
  void cancel(String key) {
    synchronized (pending) {
      Pending p = pending.remove(key);
      if (p != null && p.handle != null) {
        p.handle.cancel();
      }
    }
  }

  /** Calls off every scheduled task. */
  void cancelAll() {
    synchronized (pending) {
      for (Pending p : pending.values()) {
        if (p.handle != null) {
          p.handle.cancel();
        }
      }
      pending.clear();
    }
  }
}
