package dev.bounded.runtime;

import dev.bounded.runtime.internal.Failures;
import dev.bounded.runtime.internal.Nanos;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.random.RandomGenerator;

/**
 * Adaptive client-side throttling, as in the SRE book's "Handling Overload": a client that sees its
 * dependency refuse much of its traffic starts rejecting requests itself, before sending them, so
 * the dependency spends nothing on requests it would refuse anyway.
 *
 * <p>Over a sliding window of {@link Ticker} time (by default two minutes) the throttle counts
 * {@code requests}, every request the application asked to send, and {@code accepts}, those the
 * dependency accepted. It rejects a new request locally with probability
 *
 * <pre>max(0, (requests - K * accepts) / (requests + 1))</pre>
 *
 * <p>With K = 2 (the default) nothing is rejected until the dependency refuses half of what is
 * sent; a higher K throttles later, a K near 1 sooner. As the dependency recovers, accepts rise and
 * the probability falls back to 0.
 *
 * <pre>{@code
 * static final AdaptiveThrottle INVENTORY_THROTTLE = AdaptiveThrottle.builder("inventory").build();
 *
 * Stock stock = INVENTORY_THROTTLE.call(() -> inventory.stock(sku)); // ThrottledException if shed
 *
 * // or before each attempt of a policy, or at an executor's admission:
 * RetryPolicy policy = RetryPolicy.builder().throttle(INVENTORY_THROTTLE).build();
 * BoundedExecutor pool = BoundedExecutor.builder("inventory")
 *     .workers(4).queueCapacity(16).throttle(INVENTORY_THROTTLE).build();
 * }</pre>
 *
 * <p>What counts as accepted: a call that returned normally, or failed with anything but an {@link
 * OverloadedException} (as the failure or one of its causes). Map the dependency's "overloaded"
 * answers (HTTP 429/503, gRPC {@code RESOURCE_EXHAUSTED}) to {@link OverloadedException} for the
 * throttle to see them. Used by hand, call {@link #tryAcquire()} before sending and {@link
 * #recordAccepted()} when the dependency accepted the request.
 *
 * <p>The window is kept in 32 buckets, each 1/32 of it, so it slides in steps: a request counts for
 * between 31/32 and all of the window. Thread-safe and lock-free on the request path; a lock is
 * taken once per bucket step to move the window. Under concurrency a request that lands exactly on
 * a step may be counted one bucket late. Accepting costs no allocation.
 */
public final class AdaptiveThrottle {
  private static final int BUCKETS = 32;
  private static final int MASK = BUCKETS - 1;

  /** The counts of the closed buckets still in the window, and which bucket is open. Immutable. */
  private static final class Window {
    final long bucket;
    final long closedRequests;
    final long closedAccepts;

    Window(long bucket, long closedRequests, long closedAccepts) {
      this.bucket = bucket;
      this.closedRequests = closedRequests;
      this.closedAccepts = closedAccepts;
    }
  }

  private final String name;
  private final Ticker ticker;
  private final RandomGenerator random;
  private final double k;
  private final long windowNanos;
  private final long bucketNanos;
  private final long origin;

  private final AtomicLongArray requests = new AtomicLongArray(BUCKETS);
  private final AtomicLongArray accepts = new AtomicLongArray(BUCKETS);
  private final AtomicLong rejected = new AtomicLong();
  private final Object slide = new Object();
  private volatile Window window = new Window(0, 0, 0);

  private AdaptiveThrottle(Builder b) {
    this.name = b.name;
    this.ticker = b.ticker;
    this.random = b.random;
    this.k = b.k;
    this.windowNanos = b.windowNanos;
    this.bucketNanos = Math.max(1, b.windowNanos / BUCKETS);
    this.origin = b.ticker.read();
  }

  /**
   * Returns a builder for a throttle named {@code name}, with the defaults: a two-minute window, K
   * = 2, the system ticker and thread-local randomness.
   *
   * @param name names the throttle in messages and metrics; usually the dependency it guards
   * @return a new builder
   * @throws IllegalArgumentException if {@code name} is blank
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Counts a request and decides whether to send it.
   *
   * @return {@code true} to send it (then call {@link #recordAccepted()} if the dependency accepts
   *     it); {@code false} if it is rejected locally and must not be sent
   */
  public boolean tryAcquire() {
    Window w = current();
    int slot = (int) (w.bucket & MASK);
    long req = w.closedRequests + requests.getAndIncrement(slot);
    long acc = w.closedAccepts + accepts.get(slot);
    double p = probability(req, acc);
    if (p <= 0) {
      return true; // fast path: the dependency accepts enough, no random draw
    }
    RandomGenerator source = random != null ? random : ThreadLocalRandom.current();
    if (source.nextDouble() < p) {
      rejected.incrementAndGet();
      return false;
    }
    return true;
  }

  /**
   * Records that the dependency accepted a request sent after {@link #tryAcquire()}.
   *
   * <p>It does not read the ticker: the accept is counted in the bucket of the throttle's latest
   * reading (the request's own {@code tryAcquire}, or a later one), which saves a clock read per
   * request on the accept path.
   */
  public void recordAccepted() {
    accepts.incrementAndGet((int) (window.bucket & MASK));
  }

  /**
   * Runs {@code call} through the throttle: rejects it locally, or runs it and records whether the
   * dependency accepted it (anything but an {@link OverloadedException} in the failure's cause
   * chain counts as accepted).
   *
   * @param call the request
   * @param <T> the result type
   * @return the call's result
   * @throws ThrottledException if the request was rejected locally; {@code call} was not run
   * @throws Exception whatever {@code call} throws, unchanged
   */
  public <T> T call(Callable<T> call) throws Exception {
    Objects.requireNonNull(call, "call");
    if (!tryAcquire()) {
      throw rejection("request");
    }
    T result;
    try {
      result = call.call();
    } catch (Throwable failure) {
      record(failure);
      throw failure;
    }
    recordAccepted();
    return result;
  }

  /**
   * Returns the probability with which a request would be rejected now: a gauge to export.
   *
   * @return a value in {@code [0, 1)}
   */
  public double rejectionProbability() {
    Window w = current();
    int slot = (int) (w.bucket & MASK);
    return probability(w.closedRequests + requests.get(slot), w.closedAccepts + accepts.get(slot));
  }

  /**
   * Returns the requests counted in the window now, the locally rejected ones included.
   *
   * @return the request count of the window
   */
  public long requests() {
    Window w = current();
    return w.closedRequests + requests.get((int) (w.bucket & MASK));
  }

  /**
   * Returns the requests the dependency accepted in the window now.
   *
   * @return the accept count of the window
   */
  public long accepts() {
    Window w = current();
    return w.closedAccepts + accepts.get((int) (w.bucket & MASK));
  }

  /**
   * Returns how many requests this throttle has rejected locally since it was built: a counter to
   * export.
   *
   * @return the total of local rejections
   */
  public long rejected() {
    return rejected.get();
  }

  /**
   * Returns the throttle's name.
   *
   * @return the name given to the builder
   */
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return "AdaptiveThrottle["
        + name
        + ", window="
        + Duration.ofNanos(windowNanos)
        + ", k="
        + k
        + ", requests="
        + requests()
        + ", accepts="
        + accepts()
        + ", rejectionProbability="
        + rejectionProbability()
        + "]";
  }

  /** Records the outcome of a request that was sent: accepted unless it failed with overload. */
  void record(Throwable failure) {
    if (failure == null || !isOverload(failure)) {
      recordAccepted();
    }
  }

  ThrottledException rejection(String what) {
    return new ThrottledException(
        what
            + " rejected locally by adaptive throttle '"
            + name
            + "': the dependency accepted "
            + accepts()
            + " of the last "
            + requests()
            + " requests",
        name,
        rejectionProbability());
  }

  static boolean isOverload(Throwable failure) {
    return Failures.anyInCauseChain(failure, t -> t instanceof OverloadedException);
  }

  private double probability(long req, long acc) {
    double p = (req - k * acc) / (req + 1);
    return p > 0 ? p : 0;
  }

  /** The window for now, slid forward first if the ticker has entered a later bucket. */
  private Window current() {
    Window w = window;
    long elapsed = ticker.read() - origin;
    long bucket = elapsed <= 0 ? 0 : elapsed / bucketNanos;
    if (bucket <= w.bucket) {
      return w; // fast path: still in the open bucket (or a reading from just before a step)
    }
    synchronized (slide) {
      w = window;
      if (bucket <= w.bucket) {
        return w;
      }
      // Empty the buckets that the window leaves behind and reuses, then sum the closed ones.
      long steps = Math.min(bucket - w.bucket, BUCKETS);
      for (long i = 1; i <= steps; i++) {
        int slot = (int) ((w.bucket + i) & MASK);
        requests.set(slot, 0);
        accepts.set(slot, 0);
      }
      long closedRequests = 0;
      long closedAccepts = 0;
      int open = (int) (bucket & MASK);
      for (int slot = 0; slot < BUCKETS; slot++) {
        if (slot != open) {
          closedRequests += requests.get(slot);
          closedAccepts += accepts.get(slot);
        }
      }
      w = new Window(bucket, closedRequests, closedAccepts);
      window = w;
      return w;
    }
  }

  /** Configures an {@link AdaptiveThrottle}. Not thread-safe; {@link #build()} copies it. */
  public static final class Builder {
    private final String name;
    private long windowNanos = Duration.ofMinutes(2).toNanos();
    private double k = 2.0;
    private Ticker ticker = Ticker.system();
    private RandomGenerator random;

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException(
            "a throttle's name must not be blank, was '" + name + "'");
      }
      this.name = name;
    }

    /**
     * Sets the sliding window over which requests and accepts are counted. By default two minutes.
     *
     * @param window at least 32 ns (the window has 32 buckets)
     * @return this builder
     * @throws IllegalArgumentException if shorter than 32 ns
     */
    public Builder window(Duration window) {
      long nanos = Nanos.saturated(Objects.requireNonNull(window, "window"));
      if (nanos < BUCKETS) {
        throw new IllegalArgumentException("window must be at least 32ns, was " + window);
      }
      this.windowNanos = nanos;
      return this;
    }

    /**
     * Sets K, the multiplier of accepts: requests are rejected once they exceed K times the
     * accepts. By default 2.
     *
     * @param k at least 1 (1 throttles as soon as anything is refused)
     * @return this builder
     * @throws IllegalArgumentException if below 1 or not a number
     */
    public Builder k(double k) {
      if (!(k >= 1) || Double.isInfinite(k)) {
        throw new IllegalArgumentException("k must be a finite number >= 1, was " + k);
      }
      this.k = k;
      return this;
    }

    /**
     * Sets the ticker the window slides on; tests pass a manual one.
     *
     * @param ticker the source of time
     * @return this builder
     */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Sets the source of the rejection draws; tests pass a fixed one. By default {@link
     * ThreadLocalRandom}.
     *
     * @param random the generator; it must be thread-safe if the throttle is shared
     * @return this builder
     */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * Builds the throttle, with empty counts.
     *
     * @return a new, independent throttle
     */
    public AdaptiveThrottle build() {
      return new AdaptiveThrottle(this);
    }
  }
}
