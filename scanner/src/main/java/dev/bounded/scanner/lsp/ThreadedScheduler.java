package dev.bounded.scanner.lsp;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The real clock: a {@link ScheduledThreadPoolExecutor} on one daemon thread. Thread-safe. */
final class ThreadedScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor timer;

  ThreadedScheduler() {
    timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "bounded-lsp-timer");
              t.setDaemon(true);
              return t;
            });
    timer.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Cancellable schedule(Runnable task, Duration delay) {
    ScheduledFuture<?> future = timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      if (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the debounce timer did not stop within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
