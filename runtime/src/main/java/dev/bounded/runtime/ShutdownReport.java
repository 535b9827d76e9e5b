package dev.bounded.runtime;

import java.time.Duration;
import java.util.List;

/**
 * What a graceful {@link BoundedExecutor#shutdown(Duration)} achieved: the tasks that never ran,
 * how many were still running when the drain time was up, and whether every worker had exited.
 *
 * <pre>{@code
 * ShutdownReport report = executor.shutdown(Duration.ofSeconds(5));
 * if (!report.notRun().isEmpty()) {
 *   log.warn("{} tasks never ran", report.notRun().size()); // re-queue, cancel or record them
 * }
 * }</pre>
 *
 * <p>The tasks in {@link #notRun()} are the objects that were accepted: for {@code submit} they are
 * the {@link java.util.concurrent.Future}s it returned, still incomplete; cancel them if someone
 * may wait on them. Immutable and thread-safe.
 */
public final class ShutdownReport {
  private final List<Runnable> notRun;
  private final int stillRunning;
  private final boolean terminated;

  ShutdownReport(List<Runnable> notRun, int stillRunning, boolean terminated) {
    this.notRun = List.copyOf(notRun);
    this.stillRunning = stillRunning;
    this.terminated = terminated;
  }

  /**
   * Returns the accepted tasks that never started: they were still queued when the drain time was
   * up, and were removed from the queue.
   *
   * @return the tasks in queue order; empty if everything ran
   */
  public List<Runnable> notRun() {
    return notRun;
  }

  /**
   * Returns how many tasks were still running when the drain time was up; their threads were
   * interrupted.
   *
   * @return zero if the queue drained in time
   */
  public int stillRunning() {
    return stillRunning;
  }

  /**
   * Tells whether every worker had exited when the shutdown returned.
   *
   * @return {@code true} if the executor is terminated; otherwise {@link
   *     BoundedExecutor#awaitTermination} waits for the interrupted tasks
   */
  public boolean terminated() {
    return terminated;
  }

  @Override
  public String toString() {
    return "ShutdownReport[notRun="
        + notRun.size()
        + ", stillRunning="
        + stillRunning
        + ", terminated="
        + terminated
        + "]";
  }
}
