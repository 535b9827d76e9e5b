package dev.bounded.runtime;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket shared by every caller of a dependency that caps the extra load retries may add:
 * at most {@code ratio} retries per successful call, plus a small floor of retries per second so
 * that a quiet service can still retry.
 *
 * <p>Without a budget, three attempts at each of five layers turn one request into up to 3^5 = 243
 * calls exactly when the dependency is least able to take them. With one, a dependency that is
 * failing everything sees at most the floor's retries per second from this client.
 *
 * <pre>{@code
 * RetryBudget budget = RetryBudget.builder().ratio(0.1).minRetriesPerSecond(10).build();
 * RetryPolicy policy = RetryPolicy.builder().retryOn(IOException.class).budget(budget).build();
 * }</pre>
 *
 * <p>Each successful call deposits {@code ratio} tokens; each retry withdraws one; the floor
 * refills {@code minRetriesPerSecond} tokens per second of {@link Ticker} time; the balance never
 * exceeds {@code maxTokens}. A first attempt never needs a token and never waits. When no whole
 * token is left, the retry is refused and the failure surfaces at once as a {@link
 * RetryBudgetExhaustedException}. Thread-safe and lock-free.
 */
public final class RetryBudget {
  /**
   * Tokens are kept in billionths. Fractional deposits add up exactly, and the floor, which earns
   * {@code minRetriesPerSecond} tokens per second, earns exactly {@code minRetriesPerSecond}
   * billionths per nanosecond: a whole number, so a refill never leaves a fraction behind however
   * often the budget is read.
   */
  private static final long ONE_TOKEN = 1_000_000_000L;

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final Ticker ticker;
  private final double ratio;
  private final int minRetriesPerSecond;
  private final int maxTokens;
  private final long depositUnits;
  private final long capacityUnits;
  private final AtomicLong balanceUnits;
  private final AtomicLong lastRefillNanos;

  private RetryBudget(Builder builder) {
    this.ticker = builder.ticker;
    this.ratio = builder.ratio;
    this.minRetriesPerSecond = builder.minRetriesPerSecond;
    this.maxTokens = builder.maxTokens;
    this.depositUnits = Math.round(ratio * ONE_TOKEN);
    this.capacityUnits = (long) maxTokens * ONE_TOKEN;
    long initial = Math.min(capacityUnits, (long) minRetriesPerSecond * ONE_TOKEN);
    this.balanceUnits = new AtomicLong(initial);
    this.lastRefillNanos = new AtomicLong(ticker.read());
  }

  /**
   * Returns a builder with the defaults: ratio 0.1, a floor of 10 retries per second, at most 100
   * tokens banked, the system ticker.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Records a successful call, depositing {@code ratio} tokens.
   *
   * <p>{@link RetryPolicy} calls this itself; call it directly only for calls made outside a policy
   * that should still earn retries.
   */
  public void recordSuccess() {
    if (depositUnits == 0) {
      return;
    }
    long balance;
    long next;
    do {
      balance = balanceUnits.get();
      next = Math.min(capacityUnits, balance + depositUnits);
      if (next == balance) {
        return;
      }
    } while (!balanceUnits.compareAndSet(balance, next));
  }

  /**
   * Withdraws one token for a retry, if a whole token is available. Never blocks.
   *
   * @return {@code true} if the retry may go ahead; {@code false} if it is refused
   */
  public boolean tryAcquireRetry() {
    refill();
    long balance;
    do {
      balance = balanceUnits.get();
      if (balance < ONE_TOKEN) {
        return false;
      }
    } while (!balanceUnits.compareAndSet(balance, balance - ONE_TOKEN));
    return true;
  }

  /**
   * Returns the tokens available now, including the floor's refill so far: a gauge to export.
   *
   * @return the balance in tokens, possibly fractional
   */
  public double availableTokens() {
    refill();
    return (double) balanceUnits.get() / ONE_TOKEN;
  }

  private void refill() {
    if (minRetriesPerSecond == 0) {
      return;
    }
    long now = ticker.read();
    long last = lastRefillNanos.get();
    long elapsed = now - last;
    if (elapsed <= 0) {
      return;
    }
    // One token is 10^9 units, so the floor earns exactly minRetriesPerSecond units per
    // nanosecond: nothing is rounded away. Past fillNanos the bucket is full whatever the balance
    // was, which also keeps the product below overflow (maxTokens * 1e9 < 2^63).
    long fillNanos = (long) maxTokens * NANOS_PER_SECOND / minRetriesPerSecond;
    long earned = elapsed >= fillNanos ? capacityUnits : elapsed * minRetriesPerSecond;
    if (!lastRefillNanos.compareAndSet(last, now)) {
      return; // another thread refilled for this time (and its own share of it)
    }
    long balance;
    long next;
    do {
      balance = balanceUnits.get();
      next = Math.min(capacityUnits, balance + earned);
    } while (!balanceUnits.compareAndSet(balance, next));
  }

  @Override
  public String toString() {
    return "RetryBudget[ratio="
        + ratio
        + ", minRetriesPerSecond="
        + minRetriesPerSecond
        + ", maxTokens="
        + maxTokens
        + ", available="
        + availableTokens()
        + "]";
  }

  /** Configures a {@link RetryBudget}. Not thread-safe; {@link #build()} copies the settings. */
  public static final class Builder {
    private Ticker ticker = Ticker.system();
    private double ratio = 0.1;
    private int minRetriesPerSecond = 10;
    private int maxTokens = 100;

    private Builder() {}

    /**
     * Sets how many retries each successful call earns: 0.1 lets retries add at most 10% load.
     *
     * @param ratio from 0 (only the floor) to 1000
     * @return this builder
     * @throws IllegalArgumentException if {@code ratio} is negative, above 1000 or not a number
     */
    public Builder ratio(double ratio) {
      if (!(ratio >= 0 && ratio <= 1000)) {
        throw new IllegalArgumentException("ratio must be in [0, 1000], was " + ratio);
      }
      this.ratio = ratio;
      return this;
    }

    /**
     * Sets the floor: retries allowed per second even when nothing succeeds.
     *
     * @param minRetriesPerSecond at least 0
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder minRetriesPerSecond(int minRetriesPerSecond) {
      if (minRetriesPerSecond < 0) {
        throw new IllegalArgumentException(
            "minRetriesPerSecond must be >= 0, was " + minRetriesPerSecond);
      }
      this.minRetriesPerSecond = minRetriesPerSecond;
      return this;
    }

    /**
     * Sets how many tokens may be banked: the largest burst of retries after a healthy period.
     *
     * @param maxTokens at least 1
     * @return this builder
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxTokens(int maxTokens) {
      if (maxTokens < 1) {
        throw new IllegalArgumentException("maxTokens must be >= 1, was " + maxTokens);
      }
      this.maxTokens = maxTokens;
      return this;
    }

    /**
     * Sets the ticker the floor's refill reads; tests pass a manual one.
     *
     * @param ticker the source of time
     * @return this builder
     */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Builds the budget. It starts with one second of the floor's tokens (at most {@code
     * maxTokens}).
     *
     * @return a new, independent budget
     */
    public RetryBudget build() {
      return new RetryBudget(this);
    }
  }
}
