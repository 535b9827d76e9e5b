package dev.bounded.bench;

import dev.bounded.runtime.Subtask;
import dev.bounded.runtime.TaskScope;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Fork and join of N trivial tasks: {@code TaskScope} against the same work on a plain {@link
 * ExecutorService} with {@code invokeAll}, both taking threads from the same {@link ThreadFactory}.
 *
 * <ul>
 *   <li>{@code taskScope}: open, fork N, join, close (every thread it started has ended).
 *   <li>{@code ownedCachedPool}: the same guarantee by hand: a cached pool per operation, {@code
 *       invokeAll}, {@code shutdown}, {@code awaitTermination}. The like-for-like baseline: a pool
 *       that outlives the request is exactly what a scope exists to avoid.
 *   <li>{@code ownedCachedPoolJoined}: the same, and then joins every thread the pool made: the
 *       scope's full guarantee ({@code close()} returns when its threads have ended, while {@code
 *       awaitTermination} returns when the workers have left their loop, before the threads end).
 *   <li>{@code rawThreads}: the floor for context: N threads from the factory, started and joined,
 *       results through an array; no pool, no scope, no failure handling.
 *   <li>{@code sharedCachedPool}: {@code invokeAll} on a long-lived cached pool, for context: no
 *       thread is created per operation, and nothing ends with the request.
 * </ul>
 *
 * <p>Run: {@code java -jar bench.jar TaskScopeBenchmark}. {@link ScopeThreadCount} counts the
 * threads each variant starts per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class TaskScopeBenchmark {
  @Param({"1", "10", "100", "1000"})
  public int tasks;

  /** Threads the factory made: read by {@link ScopeThreadCount}, one increment per thread. */
  private final AtomicLong threadsMade = new AtomicLong();

  private final ThreadFactory factory =
      runnable -> {
        threadsMade.incrementAndGet();
        Thread thread = new Thread(runnable, "bench");
        thread.setDaemon(true);
        return thread;
      };

  private final Callable<Integer> trivial = () -> 1;
  private List<Callable<Integer>> batch;
  private ExecutorService shared;

  @Setup(Level.Trial)
  @SuppressWarnings("UnboundedExecutor") // the comparison: the JDK's pool as users write it
  public void setUp() {
    batch = Collections.nCopies(tasks, trivial);
    shared = Executors.newCachedThreadPool(factory);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    shared.shutdown();
    shared.awaitTermination(1, TimeUnit.MINUTES);
  }

  @Benchmark
  public int taskScope() {
    List<Subtask<Integer>> subtasks = new ArrayList<>(tasks);
    try (TaskScope scope = TaskScope.builder().threadFactory(factory).open()) {
      for (int i = 0; i < tasks; i++) {
        subtasks.add(scope.fork(trivial));
      }
      scope.join();
    }
    int sum = 0;
    for (Subtask<Integer> subtask : subtasks) {
      sum += subtask.get();
    }
    return sum;
  }

  @Benchmark
  public int ownedCachedPool() throws InterruptedException, ExecutionException {
    ExecutorService executor = Executors.newCachedThreadPool(factory);
    try {
      return sum(executor.invokeAll(batch));
    } finally {
      executor.shutdown();
      executor.awaitTermination(1, TimeUnit.MINUTES);
    }
  }

  @Benchmark
  public int ownedCachedPoolJoined() throws InterruptedException, ExecutionException {
    List<Thread> made = new ArrayList<>();
    ExecutorService executor =
        Executors.newCachedThreadPool(
            runnable -> {
              Thread thread = factory.newThread(runnable);
              synchronized (made) {
                made.add(thread);
              }
              return thread;
            });
    try {
      return sum(executor.invokeAll(batch));
    } finally {
      executor.shutdown();
      executor.awaitTermination(1, TimeUnit.MINUTES);
      synchronized (made) {
        for (Thread thread : made) {
          thread.join();
        }
      }
    }
  }

  @Benchmark
  public int rawThreads() throws InterruptedException {
    int[] results = new int[tasks];
    Thread[] threads = new Thread[tasks];
    for (int i = 0; i < tasks; i++) {
      int slot = i;
      threads[i] =
          factory.newThread(
              () -> {
                try {
                  results[slot] = trivial.call();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      threads[i].start();
    }
    int sum = 0;
    for (int i = 0; i < tasks; i++) {
      threads[i].join();
      sum += results[i];
    }
    return sum;
  }

  @Benchmark
  public int sharedCachedPool() throws InterruptedException, ExecutionException {
    return sum(shared.invokeAll(batch));
  }

  /** The number of threads the shared factory has made so far. */
  long threadsMade() {
    return threadsMade.get();
  }

  private static int sum(List<Future<Integer>> futures)
      throws InterruptedException, ExecutionException {
    int sum = 0;
    for (Future<Integer> future : futures) {
      sum += future.get();
    }
    return sum;
  }
}
