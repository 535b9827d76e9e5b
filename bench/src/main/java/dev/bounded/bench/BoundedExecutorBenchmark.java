package dev.bounded.bench;

import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.Deadline;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Task throughput of {@code BoundedExecutor} against a {@link ThreadPoolExecutor} on an {@link
 * ArrayBlockingQueue} of the same capacity and the same number of prestarted workers.
 *
 * <p>One producer submits {@value #BATCH} trivial tasks and waits until all have run. The queue is
 * small, so the producer keeps hitting a full queue and must wait: {@code BoundedExecutor} through
 * {@code execute(task, Deadline.none())}, the pool through the usual blocking {@code
 * RejectedExecutionHandler} that {@code put}s the task into its queue.
 *
 * <p>Run: {@code java -jar bench.jar BoundedExecutorBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class BoundedExecutorBenchmark {
  static final int BATCH = 10_000;

  @Param({"1", "2"})
  public int workers;

  @Param({"128"})
  public int capacity;

  private BoundedExecutor bounded;
  private ThreadPoolExecutor pool;

  private static final ThreadFactory FACTORY =
      runnable -> {
        Thread thread = new Thread(runnable, "bench-worker");
        thread.setDaemon(true);
        return thread;
      };

  @Setup(Level.Trial)
  public void setUp() {
    bounded =
        BoundedExecutor.builder("bench")
            .workers(workers)
            .queueCapacity(capacity)
            .threadFactory(FACTORY)
            .build();
    pool =
        new ThreadPoolExecutor(
            workers,
            workers,
            0L,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(capacity),
            FACTORY,
            (task, executor) -> {
              BlockingQueue<Runnable> queue = executor.getQueue();
              try {
                queue.put(task); // backpressure: wait for room
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RejectedExecutionException("interrupted", e);
              }
            });
    pool.prestartAllCoreThreads();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    bounded.shutdown();
    pool.shutdown();
    bounded.awaitTermination(1, TimeUnit.MINUTES);
    pool.awaitTermination(1, TimeUnit.MINUTES);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void boundedExecutor() throws InterruptedException {
    CountDownLatch done = new CountDownLatch(BATCH);
    Runnable task = done::countDown;
    Deadline none = Deadline.none();
    for (int i = 0; i < BATCH; i++) {
      bounded.execute(task, none);
    }
    done.await();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void threadPoolExecutor() throws InterruptedException {
    CountDownLatch done = new CountDownLatch(BATCH);
    Runnable task = done::countDown;
    for (int i = 0; i < BATCH; i++) {
      pool.execute(task);
    }
    done.await();
  }
}
