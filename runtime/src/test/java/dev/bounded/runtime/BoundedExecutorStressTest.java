package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Many producers, fault-injected tasks and seeded random admission against one small executor, shut
 * down while the producers are still submitting. Bounded in count (4 x 5,000 submissions per run,
 * 12 runs: 4 ways of stopping x 3 seeds) and so in time: a few seconds here, so it runs with every
 * build.
 *
 * <p>Every submission is accounted for: accepted + rejected = submitted; every accepted task ran
 * exactly once or was handed back by the shutdown, and no rejected task ran or was handed back; the
 * executor's counters agree; no worker thread survives.
 */
@Timeout(60)
final class BoundedExecutorStressTest {
  private static final int PRODUCERS = 4;
  private static final int PER_PRODUCER = 5_000;
  private static final int TOTAL = PRODUCERS * PER_PRODUCER;

  /** One task: counts its runs, and fails now and then (an exception or an error). */
  private static final class Task implements Runnable {
    final int id;
    final AtomicIntegerArray runs;
    final int fault;

    Task(int id, AtomicIntegerArray runs, int fault) {
      this.id = id;
      this.runs = runs;
      this.fault = fault;
    }

    @Override
    public void run() {
      runs.incrementAndGet(id);
      if (fault == 1) {
        throw new IllegalStateException("injected fault in task " + id);
      }
      if (fault == 2) {
        throw new AssertionError("injected error in task " + id);
      }
    }
  }

  /** Every way of stopping, each with three seeds of the admission and fault mix: 12 runs. */
  static Stream<Arguments> runs() {
    return Stream.of("shutdownNow", "shutdown(drain=0)", "shutdown(drain=1d)", "close")
        .flatMap(how -> IntStream.of(42, 1042, 2042).mapToObj(seed -> Arguments.of(how, seed)));
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("runs")
  void everySubmissionIsAccountedFor(String howToStop, int seed) throws Exception {
    AtomicLong uncaught = new AtomicLong();
    RecordingThreadFactory threads =
        new RecordingThreadFactory("stress", (t, e) -> uncaught.incrementAndGet());
    BoundedExecutor executor =
        BoundedExecutor.builder("stress")
            .workers(3)
            .queueCapacity(16)
            .threadFactory(threads)
            .build();
    AtomicIntegerArray runs = new AtomicIntegerArray(TOTAL);
    AtomicIntegerArray accepted = new AtomicIntegerArray(TOTAL);
    AtomicIntegerArray rejected = new AtomicIntegerArray(TOTAL);
    AtomicIntegerArray faultOf = new AtomicIntegerArray(TOTAL);
    CountDownLatch halfway = new CountDownLatch(PRODUCERS);
    Deadline expired = Deadline.after(Duration.ZERO);

    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int producer = p;
      SplittableRandom random = new SplittableRandom(seed + producer); // seeded: same mix every run
      producers.add(
          new Thread(
              () -> {
                for (int i = 0; i < PER_PRODUCER; i++) {
                  if (i == PER_PRODUCER / 2) {
                    halfway.countDown();
                  }
                  int id = producer * PER_PRODUCER + i;
                  int roll = random.nextInt(100);
                  int fault = roll < 10 ? 1 : roll < 12 ? 2 : 0;
                  faultOf.set(id, fault);
                  Task task = new Task(id, runs, fault);
                  try {
                    int admission = random.nextInt(3);
                    if (admission == 0) {
                      executor.execute(task); // rejects at once when full
                    } else if (admission == 1) {
                      executor.execute(task, expired); // always refused: the deadline has passed
                    } else {
                      executor.execute(task, Deadline.none()); // waits for room
                    }
                    accepted.set(id, 1);
                  } catch (RejectedExecutionException e) {
                    rejected.set(id, 1);
                  }
                }
              },
              "producer-" + producer));
    }
    producers.forEach(Thread::start);
    halfway.await();

    List<Runnable> handedBack = stop(executor, howToStop);
    for (Thread producer : producers) {
      producer.join();
    }
    assertThat(executor.awaitTermination(1, TimeUnit.DAYS)).isTrue();

    int[] returned = new int[TOTAL];
    handedBack.forEach(r -> returned[((Task) r).id]++);
    long acceptedCount = 0;
    long rejectedCount = 0;
    long ranCount = 0;
    long ranFaulty = 0;
    for (int id = 0; id < TOTAL; id++) {
      boolean in = accepted.get(id) == 1;
      boolean out = rejected.get(id) == 1;
      assertThat(in ^ out).as("task %d accepted xor rejected", id).isTrue();
      if (in) {
        acceptedCount++;
        assertThat(runs.get(id) + returned[id])
            .as("task %d ran or returned, once", id)
            .isEqualTo(1);
      } else {
        rejectedCount++;
        assertThat(runs.get(id)).as("rejected task %d ran", id).isZero();
        assertThat(returned[id]).as("rejected task %d returned", id).isZero();
      }
      ranCount += runs.get(id);
      if (runs.get(id) == 1 && faultOf.get(id) != 0) {
        ranFaulty++;
      }
    }
    assertThat(acceptedCount + rejectedCount).isEqualTo(TOTAL);
    assertThat(rejectedCount).isPositive().isEqualTo(executor.rejected());
    assertThat(ranCount).isEqualTo(executor.completed());
    assertThat(executor.queued()).isZero();
    assertThat(executor.active()).isZero();
    assertThat(uncaught.get()).isPositive().isEqualTo(ranFaulty);
    threads.assertNoneAlive();
  }

  private static List<Runnable> stop(BoundedExecutor executor, String how) {
    Function<BoundedExecutor, List<Runnable>> stop =
        switch (how) {
          case "shutdownNow" -> BoundedExecutor::shutdownNow;
          case "shutdown(drain=0)" -> e -> e.shutdown(Duration.ZERO).notRun();
          case "shutdown(drain=1d)" -> e -> e.shutdown(Duration.ofDays(1)).notRun();
          default ->
              e -> {
                e.close();
                return List.of();
              };
        };
    return stop.apply(executor);
  }
}
