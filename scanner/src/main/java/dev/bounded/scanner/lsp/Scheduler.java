package dev.bounded.scanner.lsp;

import java.time.Duration;

/**
 * Runs a task after a delay: the clock of the language server's debouncing, injectable so that
 * tests decide when time passes instead of waiting for it. Implementations are thread-safe.
 */
public interface Scheduler extends AutoCloseable {
  /** A scheduled task that may still be called off. */
  @FunctionalInterface
  interface Cancellable {
    /** Calls the task off if it has not started; does nothing otherwise. */
    void cancel();
  }

  /**
   * Schedules a task.
   *
   * @param task what to run (quickly: it hands work on, it does not do it)
   * @param delay how long from now
   * @return a handle to call it off
   */
  Cancellable schedule(Runnable task, Duration delay);

  /** Stops the scheduler: tasks not yet run are dropped, and its thread, if any, ends. */
  @Override
  void close();

  /**
   * Returns a scheduler on one daemon thread of its own, named {@code bounded-lsp-timer}.
   *
   * @return the scheduler; {@link #close()} ends its thread
   */
  static Scheduler threaded() {
    return new ThreadedScheduler();
  }
}
