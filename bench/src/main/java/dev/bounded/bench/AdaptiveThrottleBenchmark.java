package dev.bounded.bench;

import dev.bounded.runtime.AdaptiveThrottle;
import dev.bounded.runtime.Ticker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-call cost of {@link AdaptiveThrottle} on one thread (goal: under 20 ns and 0 B/op on the
 * accept path, the path of a healthy dependency).
 *
 * <ul>
 *   <li>{@code acceptPath}: {@code tryAcquire()} then {@code recordAccepted()}, what a sent and
 *       accepted request costs, on the system ticker (one {@code System.nanoTime()} read: {@code
 *       recordAccepted} reads no clock);
 *   <li>{@code acceptPathFrozenTicker}: the same on a ticker that returns a constant, to separate
 *       the throttle's own work from the clock;
 *   <li>{@code nanoTime}: the clock read alone, the floor of {@code acceptPath};
 *   <li>{@code rejectPath}: a dependency that accepts nothing, so every call computes the
 *       probability and draws a random number (most calls are rejected).
 * </ul>
 *
 * <p>Run with {@code -prof gc} for bytes per operation; the command is in {@code bench/README.md}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AdaptiveThrottleBenchmark {

  /** One throttle per thread of each kind. */
  @State(Scope.Thread)
  public static class Throttles {
    AdaptiveThrottle healthy;
    AdaptiveThrottle frozen;
    AdaptiveThrottle refusing;

    /** Creates the state; JMH calls {@link #setUp()}. */
    public Throttles() {}

    /** Builds the throttles; the refusing one starts with a window of unaccepted requests. */
    @Setup
    public void setUp() {
      healthy = AdaptiveThrottle.builder("healthy").build();
      Ticker constant = () -> 42L;
      frozen = AdaptiveThrottle.builder("frozen").ticker(constant).build();
      refusing = AdaptiveThrottle.builder("refusing").window(Duration.ofHours(1)).build();
      for (int i = 0; i < 1_000; i++) {
        refusing.tryAcquire();
      }
    }
  }

  /**
   * A request sent and accepted, system ticker.
   *
   * @param t the throttles
   * @return whether the request was sent
   */
  @Benchmark
  public boolean acceptPath(Throttles t) {
    boolean send = t.healthy.tryAcquire();
    t.healthy.recordAccepted();
    return send;
  }

  /**
   * A request sent and accepted, constant ticker.
   *
   * @param t the throttles
   * @return whether the request was sent
   */
  @Benchmark
  public boolean acceptPathFrozenTicker(Throttles t) {
    boolean send = t.frozen.tryAcquire();
    t.frozen.recordAccepted();
    return send;
  }

  /**
   * One clock read: the part of {@link #acceptPath} that is the system ticker.
   *
   * @return the reading
   */
  @Benchmark
  public long nanoTime() {
    return System.nanoTime();
  }

  /**
   * A request to a dependency that accepts nothing: probability and a random draw every call.
   *
   * @param t the throttles
   * @return whether the request was sent
   */
  @Benchmark
  public boolean rejectPath(Throttles t) {
    return t.refusing.tryAcquire();
  }
}
