package dev.bounded.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.ExecutionException;

/**
 * Counts, outside JMH, how many threads {@code TaskScopeBenchmark.taskScope} and {@code
 * ownedCachedPool} start per operation, with the wall time and the CPU time of the whole process
 * per operation, for N = 1, 10, 100 and 1,000 trivial tasks: thread starts are what a fork and join
 * of trivial tasks costs, and CPU time is less disturbed than wall time by other processes taking
 * turns on the cores.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.bounded.bench.ScopeThreadCount [ops]}
 * (default 300 operations per variant and N, after as many for warm-up).
 */
public final class ScopeThreadCount {

  private ScopeThreadCount() {}

  /** One variant of the benchmark, as a call that may throw. */
  private interface Op {
    int run(TaskScopeBenchmark b) throws InterruptedException, ExecutionException;
  }

  /**
   * Runs the count.
   *
   * @param args optionally the number of measured operations per variant
   * @throws Exception if a variant fails
   */
  public static void main(String[] args) throws Exception {
    int ops = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    System.out.println("N\tvariant\tthreads/op\twall us/op\tcpu us/op");
    for (int n : new int[] {1, 10, 100, 1000}) {
      TaskScopeBenchmark b = new TaskScopeBenchmark();
      b.tasks = n;
      b.setUp();
      try {
        measure(b, n, ops, "taskScope", TaskScopeBenchmark::taskScope);
        measure(b, n, ops, "ownedCachedPool", TaskScopeBenchmark::ownedCachedPool);
      } finally {
        b.tearDown();
      }
    }
  }

  private static void measure(TaskScopeBenchmark b, int n, int ops, String name, Op op)
      throws Exception {
    for (int i = 0; i < ops; i++) {
      check(op.run(b), n);
    }
    long threadsBefore = b.threadsMade();
    long cpuStart = processCpuNanos();
    long start = System.nanoTime();
    for (int i = 0; i < ops; i++) {
      check(op.run(b), n);
    }
    long nanos = System.nanoTime() - start;
    long cpuNanos = processCpuNanos() - cpuStart;
    double threads = (double) (b.threadsMade() - threadsBefore) / ops;
    System.out.printf(
        "%d\t%s\t%.2f\t%.1f\t%.1f%n", n, name, threads, nanos / 1e3 / ops, cpuNanos / 1e3 / ops);
  }

  /** The CPU time of this process so far, every thread included. */
  private static long processCpuNanos() {
    return ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class).getProcessCpuTime();
  }

  private static void check(int sum, int n) {
    if (sum != n) {
      throw new IllegalStateException("expected a sum of " + n + ", got " + sum);
    }
  }
}
