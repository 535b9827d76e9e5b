package dev.bounded.runtime;

import dev.bounded.runtime.internal.Nanos;
import java.time.Duration;
import java.util.Objects;

/**
 * A point in monotonic time by which a piece of work must be done: one per request, spent by queue
 * waits, attempts and backoff together.
 *
 * <p>Create it once, where the request enters, and pass it down; every wait asks the deadline how
 * much time is left instead of starting a fresh timeout:
 *
 * <pre>{@code
 * Deadline deadline = Deadline.after(Duration.ofSeconds(2));
 * Response first = future.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
 * Response second = policy.call(deadline, attempt -> client.send(request, attempt.remaining()));
 * }</pre>
 *
 * <p>Time is read from a {@link Ticker} (by default {@link System#nanoTime()}), never from the wall
 * clock, so a deadline is immune to clock adjustments. Arithmetic saturates: {@code
 * Deadline.after(Duration.ofSeconds(Long.MAX_VALUE))} is simply very far away. Instances are
 * immutable and thread-safe.
 */
public final class Deadline {
  private static final Duration FOREVER = Duration.ofNanos(Long.MAX_VALUE);
  private static final Deadline NONE = new Deadline(Ticker.system(), 0L, Long.MAX_VALUE, true);

  private final Ticker ticker;
  private final long startNanos;
  private final long budgetNanos;
  private final boolean unbounded;

  private Deadline(Ticker ticker, long startNanos, long budgetNanos, boolean unbounded) {
    this.ticker = ticker;
    this.startNanos = startNanos;
    this.budgetNanos = budgetNanos;
    this.unbounded = unbounded;
  }

  /**
   * Returns a deadline {@code timeout} from now on the system ticker.
   *
   * @param timeout how long from now; zero or negative gives a deadline that has already expired
   * @return the new deadline
   * @throws NullPointerException if {@code timeout} is null
   */
  public static Deadline after(Duration timeout) {
    return after(timeout, Ticker.system());
  }

  /**
   * Returns a deadline {@code timeout} from now, as read by {@code ticker}.
   *
   * @param timeout how long from now; zero or negative gives a deadline that has already expired
   * @param ticker the source of time that this deadline reads from now on
   * @return the new deadline
   * @throws NullPointerException if an argument is null
   */
  public static Deadline after(Duration timeout, Ticker ticker) {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(ticker, "ticker");
    long budget = Math.max(0L, Nanos.saturated(timeout));
    // Read before allocating: with the read between `new` and the constructor, as an argument
    // would put it, C2 cannot scalar-replace the deadline (40 bytes per call; bench/README.md).
    long now = ticker.read();
    return new Deadline(ticker, now, budget, false);
  }

  /**
   * Returns the deadline that never expires: for callers that bound work by attempts only.
   *
   * <p>Its {@link #remaining()} is about 292 years; {@link #min(Deadline)} with it returns the
   * other deadline.
   *
   * @return the unbounded deadline
   */
  public static Deadline none() {
    return NONE;
  }

  /**
   * Returns the time left, never negative.
   *
   * @return the time left; {@link Duration#ZERO} once expired
   */
  public Duration remaining() {
    if (unbounded) {
      return FOREVER;
    }
    return Duration.ofNanos(remainingNanos());
  }

  /**
   * Returns the time left in nanoseconds, never negative: the form to pass to {@code
   * Future.get(long, TimeUnit)} and the other timed waits of {@code java.util.concurrent}.
   *
   * @return nanoseconds left; zero once expired
   */
  public long remainingNanos() {
    // Small enough (under 35 bytes of bytecode) for C2 to inline even where the call is cold, as
    // after a failed attempt: a call that is not inlined would make a fresh deadline escape.
    return unbounded ? Long.MAX_VALUE : Nanos.remaining(budgetNanos, ticker.read() - startNanos);
  }

  /**
   * Tells whether no time is left.
   *
   * @return {@code true} once the deadline has passed
   */
  public boolean isExpired() {
    return !unbounded && ticker.read() - startNanos >= budgetNanos;
  }

  /**
   * Tells whether this is {@link #none()}, the deadline that never expires.
   *
   * @return {@code true} for the unbounded deadline
   */
  public boolean isUnbounded() {
    return unbounded;
  }

  /**
   * Returns the earlier of this deadline and {@code other}: a callee's own limit never extends the
   * caller's.
   *
   * @param other another deadline on the same ticker (or {@link #none()})
   * @return whichever expires first; this one if both expire at the same instant
   * @throws IllegalArgumentException if the deadlines read different tickers, so cannot be compared
   */
  public Deadline min(Deadline other) {
    Objects.requireNonNull(other, "other");
    if (other.unbounded) {
      return this;
    }
    if (unbounded) {
      return other;
    }
    if (ticker != other.ticker) {
      throw new IllegalArgumentException(
          "cannot compare deadlines on different tickers: " + ticker + " and " + other.ticker);
    }
    // This one ends first (or with it) iff startNanos + budgetNanos <= other.startNanos +
    // other.budgetNanos, that is iff (startNanos - other.startNanos) <= other.budgetNanos -
    // budgetNanos. Both budgets are in [0, Long.MAX_VALUE], so the right side cannot overflow, and
    // the start difference is exact for readings less than 292 years apart: no saturation, so
    // saturated budgets still compare by their starts.
    long startDifference = startNanos - other.startNanos;
    return startDifference <= other.budgetNanos - budgetNanos ? this : other;
  }

  /**
   * Throws if the deadline has passed: a guard before starting work that cannot finish in time.
   *
   * @param what names the work, for the message (for example {@code "attempt 2"})
   * @throws DeadlineExceededException if no time is left
   */
  public void checkNotExpired(String what) {
    if (isExpired()) {
      throw new DeadlineExceededException("deadline exceeded before " + what);
    }
  }

  /**
   * Returns the ticker this deadline reads.
   *
   * @return the ticker
   */
  public Ticker ticker() {
    return ticker;
  }

  @Override
  public String toString() {
    return unbounded ? "Deadline[none]" : "Deadline[remaining=" + remaining() + "]";
  }
}
