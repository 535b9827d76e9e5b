package dev.bounded.runtime;

import dev.bounded.runtime.internal.Failures;
import dev.bounded.runtime.internal.Nanos;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * How to retry an operation, and the way to run it: a total-attempt cap, classified failures,
 * capped exponential backoff with full jitter, an optional shared {@link RetryBudget}, and one
 * {@link Deadline} spent by attempts and backoff together.
 *
 * <pre>{@code
 * // Built once, shared by every request: immutable and thread-safe.
 * static final RetryPolicy INVENTORY = RetryPolicy.builder()
 *     .maxAttempts(3)                                            // 3 calls in total
 *     .backoff(Duration.ofMillis(50), Duration.ofSeconds(1))     // base, cap
 *     .retryOn(ConnectException.class, ServiceUnavailable.class) // the transient failures
 *     .budget(INVENTORY_BUDGET)
 *     .build();
 *
 * Deadline deadline = Deadline.after(Duration.ofSeconds(2));     // one per request
 * Stock stock = INVENTORY.callIdempotent(deadline, attempt ->
 *     inventory.stock(sku, attempt.remaining()));                // each wait bounded by what is left
 * }</pre>
 *
 * <h2>What a call does</h2>
 *
 * <ol>
 *   <li>If an {@link AdaptiveThrottle} is set and rejects the attempt locally, the call ends at
 *       once with {@link ThrottledException}; nothing is sent.
 *   <li>It calls the operation; a normal return ends the call with that result.
 *   <li>A failure ends the call at once, without a retry, when it is an {@link Error}, a {@link
 *       CancellationException}, an interruption ({@link InterruptedException}, or any failure while
 *       the thread's interrupt flag is set: {@link RetryInterruptedException}, flag restored); when
 *       an inner layer already decided on it (a {@link RetryException}, {@link
 *       DeadlineExceededException}, {@link ThrottledException}, or an {@link
 *       UnknownOutcomeException} thrown by a policy, found as the failure or one of its causes:
 *       rethrown as it is, so five nested layers of 3 attempts make 3 calls, not 3^5 = 243); when
 *       it is an overload signal ({@link OverloadedException} in its cause chain) and this policy
 *       is not the {@linkplain Builder#retryOwner() retry owner} (rethrown as it is; the owner
 *       retries it like a transient failure); when its outcome is unknown and the call is not
 *       {@linkplain #callIdempotent declared idempotent} ({@link UnknownOutcomeException}); or when
 *       the classifier does not call it transient (rethrown as it is). By default nothing is
 *       transient: list what is with {@link Builder#retryOn} or {@link Builder#retryIf}; {@link
 *       #callIdempotent} also retries unknown outcomes.
 *   <li>A transient failure on the last allowed attempt ends the call with {@link
 *       RetriesExhaustedException}.
 *   <li>Otherwise the next backoff is drawn uniformly from {@code [0, min(cap, base * 2^k)]} for
 *       the k-th retry (k = 0 first). If the deadline has passed, or the backoff would end at or
 *       past it, the call ends at once with {@link DeadlineExceededException}, without sleeping.
 *   <li>If a {@link RetryBudget} is set and refuses a token, the call ends at once with {@link
 *       RetryBudgetExhaustedException}.
 *   <li>It sleeps the backoff (not at all when it is zero) and starts the next attempt.
 * </ol>
 *
 * <p>Unknown outcomes: by default a {@link java.util.concurrent.TimeoutException}, {@link
 * java.net.SocketTimeoutException}, {@code java.net.http.HttpTimeoutException} (but not its
 * subclass {@code HttpConnectTimeoutException}: nothing was sent) or {@link
 * UnknownOutcomeException}, found as the failure or one of its causes. A write that timed out may
 * have committed; retrying it could apply it twice.
 */
public final class RetryPolicy {
  /**
   * Keep at most this many earlier failures as suppressed exceptions of the final one: the most
   * recent ones; older ones are counted in {@link RetriesExhaustedException#omittedFailures()}.
   */
  private static final int MAX_KEPT_FAILURES = 16;

  private static final RetryListener NO_LISTENER = new RetryListener() {};

  private final String name;
  private final boolean owner;
  private final int maxAttempts;
  private final long baseDelayNanos;
  private final long maxDelayNanos;
  private final Class<? extends Throwable>[] retryOn;
  private final Predicate<? super Throwable> retryIf;
  private final Class<? extends Throwable>[] unknownOutcomeOn;
  private final RetryBudget budget;
  private final AdaptiveThrottle throttle;
  private final RetryListener listener;
  private final Sleeper sleeper;
  private final RandomGenerator random;

  private RetryPolicy(Builder b) {
    this.name = b.name;
    this.owner = b.owner;
    this.maxAttempts = b.maxAttempts;
    this.baseDelayNanos = b.baseDelayNanos;
    this.maxDelayNanos = b.maxDelayNanos;
    this.retryOn = b.retryOn.clone();
    this.retryIf = b.retryIf;
    this.unknownOutcomeOn = b.unknownOutcomeOn.clone();
    this.budget = b.budget;
    this.throttle = b.throttle;
    this.listener = b.listener;
    this.sleeper = b.sleeper;
    this.random = b.random;
  }

  /**
   * Returns a builder with the defaults: 3 attempts, backoff base 100 ms capped at 10 s, nothing
   * classified transient, no budget, the system sleeper and thread-local randomness.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder that starts from this policy's settings.
   *
   * @return a new builder holding a copy of this policy's settings
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Runs {@code operation} under this policy with no deadline: attempts are bounded by {@link
   * Builder#maxAttempts} only. The operation is treated as not idempotent.
   *
   * @param operation the operation, called once per attempt
   * @param <T> the result type
   * @param <X> the checked exception the operation may throw
   * @return the result of the first attempt that returns normally
   * @throws X a non-retryable failure of the operation, as it was thrown
   * @throws RetryException when the call gives up on a retryable failure (see the subclasses)
   * @throws UnknownOutcomeException when an attempt's outcome is unknown
   */
  public <T, X extends Exception> T call(RetryableCall<T, X> operation) throws X {
    return execute(Deadline.none(), operation, false);
  }

  /**
   * Runs {@code operation} under this policy within {@code deadline}. The operation is treated as
   * not idempotent: a failure with an unknown outcome is not retried.
   *
   * @param deadline the deadline all attempts and backoff share
   * @param operation the operation, called once per attempt
   * @param <T> the result type
   * @param <X> the checked exception the operation may throw
   * @return the result of the first attempt that returns normally
   * @throws X a non-retryable failure of the operation, as it was thrown
   * @throws RetryException when the call gives up on a retryable failure (see the subclasses)
   * @throws DeadlineExceededException when no time is left for the next attempt or backoff
   * @throws UnknownOutcomeException when an attempt's outcome is unknown
   */
  public <T, X extends Exception> T call(Deadline deadline, RetryableCall<T, X> operation)
      throws X {
    return execute(deadline, operation, false);
  }

  /**
   * Runs an idempotent {@code operation} under this policy with no deadline: a failure with an
   * unknown outcome is retried like a transient one.
   *
   * @param operation an operation for which a second call has the effect of one
   * @param <T> the result type
   * @param <X> the checked exception the operation may throw
   * @return the result of the first attempt that returns normally
   * @throws X a non-retryable failure of the operation, as it was thrown
   * @throws RetryException when the call gives up on a retryable failure (see the subclasses)
   */
  public <T, X extends Exception> T callIdempotent(RetryableCall<T, X> operation) throws X {
    return execute(Deadline.none(), operation, true);
  }

  /**
   * Runs an idempotent {@code operation} under this policy within {@code deadline}: a failure with
   * an unknown outcome is retried like a transient one.
   *
   * @param deadline the deadline all attempts and backoff share
   * @param operation an operation for which a second call has the effect of one
   * @param <T> the result type
   * @param <X> the checked exception the operation may throw
   * @return the result of the first attempt that returns normally
   * @throws X a non-retryable failure of the operation, as it was thrown
   * @throws RetryException when the call gives up on a retryable failure (see the subclasses)
   * @throws DeadlineExceededException when no time is left for the next attempt or backoff
   */
  public <T, X extends Exception> T callIdempotent(Deadline deadline, RetryableCall<T, X> operation)
      throws X {
    return execute(deadline, operation, true);
  }

  /**
   * Returns the policy's name, which its messages and telemetry carry.
   *
   * @return the name given to {@link Builder#name}, or empty if none was
   */
  public Optional<String> name() {
    return Optional.ofNullable(name);
  }

  /**
   * Tells whether this policy is the retry owner: the one layer that retries {@link
   * OverloadedException}.
   *
   * @return {@code true} if built with {@link Builder#retryOwner()}
   */
  public boolean isRetryOwner() {
    return owner;
  }

  /**
   * Returns the total number of attempts, the first call included.
   *
   * @return at least 1
   */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Returns the backoff base: the ceiling of the first retry's delay.
   *
   * @return the base delay
   */
  public Duration baseDelay() {
    return Duration.ofNanos(baseDelayNanos);
  }

  /**
   * Returns the backoff cap: no delay exceeds it.
   *
   * @return the maximum delay
   */
  public Duration maxDelay() {
    return Duration.ofNanos(maxDelayNanos);
  }

  /**
   * Tells whether this policy would retry {@code failure} in a call that is not declared
   * idempotent, given attempts and time to spare.
   *
   * @param failure a failure of the operation
   * @return {@code true} if the classifier calls it transient and nothing forbids a retry (an inner
   *     policy's decision or an overload signal in its cause chain, unless this is the owner for
   *     overload)
   */
  public boolean isRetryable(Throwable failure) {
    Objects.requireNonNull(failure, "failure");
    if (neverRetried(failure) || isDecidedBelow(failure)) {
      return false;
    }
    if (AdaptiveThrottle.isOverload(failure)) {
      return owner;
    }
    return !isUnknownOutcome(failure) && isTransient(failure);
  }

  /**
   * Tells whether {@code failure} leaves the outcome of the attempt unknown under this policy.
   *
   * @param failure a failure of the operation
   * @return {@code true} if it, or any of its causes however deep, is classified as an unknown
   *     outcome
   */
  public boolean isUnknownOutcome(Throwable failure) {
    Objects.requireNonNull(failure, "failure");
    return Failures.anyInCauseChain(failure, t -> Failures.isUnknownOutcome(t, unknownOutcomeOn));
  }

  @Override
  public String toString() {
    return "RetryPolicy["
        + (name == null ? "" : name + ", ")
        + (owner ? "retryOwner, " : "")
        + "maxAttempts="
        + maxAttempts
        + ", backoff="
        + baseDelay()
        + ".."
        + maxDelay()
        + ", retryOn="
        + Arrays.toString(Arrays.stream(retryOn).map(Class::getName).toArray())
        + (retryIf == null ? "" : ", retryIf=" + retryIf)
        + (budget == null ? "" : ", budget=" + budget)
        + (throttle == null ? "" : ", throttle=" + throttle.name())
        + "]";
  }

  /**
   * Whether {@code failure} already went through a retry decision further down (an inner policy
   * gave up, a deadline passed, a throttle shed the request, an inner policy refused an unknown
   * outcome), as the failure or one of its causes: the layer below spent the retries, so no outer
   * policy retries it again (3 attempts at each of 5 layers would make 3^5 = 243 calls).
   */
  static boolean isDecidedBelow(Throwable failure) {
    return Failures.anyInCauseChain(
        failure,
        t ->
            t instanceof RetryException
                || t instanceof DeadlineExceededException
                || t instanceof ThrottledException
                || (t instanceof UnknownOutcomeException u && u.decidedByPolicy()));
  }

  private static boolean neverRetried(Throwable failure) {
    return failure instanceof Error
        || failure instanceof InterruptedException
        || failure instanceof CancellationException;
  }

  private boolean isTransient(Throwable failure) {
    for (Class<? extends Throwable> type : retryOn) {
      if (type.isInstance(failure)) {
        return true;
      }
    }
    return retryIf != null && retryIf.test(failure);
  }

  /**
   * The call loop, kept under C2's inlining limit for hot methods ({@code FreqInlineSize}, 325
   * bytes of bytecode) so that it is compiled into its caller: then a {@link Deadline} created at
   * the call site, and the {@link Attempt}, do not escape and cost no allocation when the operation
   * is inlined too. An argument of a call that is not inlined escapes, on every path of the
   * compiled method, and C2 (JDK 17) inlines no call at a site that was never reached, such as one
   * after a failure when attempts succeed: so the deadline is read at one site only, the top of the
   * loop, and nothing after a failure takes the deadline or the attempt (bench/README.md).
   */
  private <T, X extends Exception> T execute(
      Deadline deadline, RetryableCall<T, X> operation, boolean idempotent) throws X {
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(operation, "operation");
    RetryListener l = Objects.requireNonNull(listener.onCallStart(this, deadline), "listener");
    Attempt attempt = new Attempt(deadline, maxAttempts);
    Throwable last = null; // the failure of attempt n - 1
    Throwable[] earlier = null;
    int earlierCount = 0;
    long delayNanos = 0; // the backoff still to wait before attempt n
    boolean due = true; // false while the backoff before attempt n is ahead
    for (int n = 1; ; ) {
      long remainingNanos = deadline.remainingNanos();
      if (delayNanos >= remainingNanos) { // when due: the deadline has passed
        throw due
            ? expiredBefore(l, n, last)
            : noTimeForBackoff(l, n - 1, last, delayNanos, remainingNanos);
      }
      if (!due) {
        backOff(l, n - 1, last, delayNanos);
        due = true;
        // Read the deadline again after a wait, or after the listener (the caller's code) ran; with
        // neither, the reading just taken is the check before the attempt: one read per retry.
        boolean readAgain = delayNanos > 0 || l != NO_LISTENER;
        delayNanos = 0;
        if (readAgain) {
          continue;
        }
      }
      if (throttle != null && !throttle.tryAcquire()) {
        throw throttled(l, n, last);
      }
      attempt.start(n);
      T result;
      try {
        result = operation.call(attempt);
      } catch (Throwable failure) {
        this.<X>decide(l, failure, last, n, idempotent); // returns only if it is to be retried
        if (last != null && last != failure) {
          earlier = remember(earlier, earlierCount++, last);
        }
        last = failure;
        if (n >= maxAttempts) {
          throw exhausted(l, n, failure, earlier, earlierCount);
        }
        delayNanos = nextDelayNanos(n - 1);
        due = false;
        n++;
        continue;
      }
      succeeded(l, n);
      return result;
    }
  }

  /**
   * Returns if {@code failure} of attempt {@code n} is to be retried, given attempts and time to
   * spare; otherwise throws what the call ends with. The order of these tests is the contract
   * documented on the class.
   */
  private <X extends Exception> void decide(
      RetryListener l, Throwable failure, Throwable last, int n, boolean idempotent) throws X {
    if (failure instanceof Error) {
      throw this.<X>passedOn(l, RetryEnding.NON_RETRYABLE, failure, n);
    }
    if (failure instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
      throw interrupted(l, "during attempt " + n, failure, last, n);
    }
    if (failure instanceof CancellationException) {
      throw this.<X>passedOn(l, RetryEnding.NON_RETRYABLE, failure, n);
    }
    if (throttle != null) {
      throttle.record(failure);
    }
    if (isDecidedBelow(failure)) {
      throw this.<X>passedOn(l, RetryEnding.DECIDED_BELOW, failure, n);
    }
    if (AdaptiveThrottle.isOverload(failure)) {
      if (!owner) {
        throw this.<X>passedOn(l, RetryEnding.OVERLOADED, failure, n);
      }
    } else if (isUnknownOutcome(failure)) {
      if (!idempotent) {
        throw unknownOutcome(l, failure, n);
      }
    } else if (!isTransient(failure)) {
      throw this.<X>passedOn(l, RetryEnding.NON_RETRYABLE, failure, n);
    }
  }

  /**
   * Keeps {@code failure} as earlier failure number {@code count} (from 0) in the ring of the most
   * recent distinct ones, made on first use; older ones are only counted. Returns the ring.
   */
  private Throwable[] remember(Throwable[] earlier, int count, Throwable failure) {
    Throwable[] ring =
        earlier != null ? earlier : new Throwable[Math.min(maxAttempts - 1, MAX_KEPT_FAILURES)];
    ring[count % ring.length] = failure;
    return ring;
  }

  /**
   * Between attempt {@code n} and the next: takes a budget token, tells the listener, sleeps the
   * backoff, and ends the call if the thread was interrupted meanwhile.
   */
  private void backOff(RetryListener l, int n, Throwable failure, long delayNanos) {
    if (budget != null && !budget.tryAcquireRetry()) {
      l.onEnd(RetryEnding.BUDGET_EXHAUSTED, n, failure);
      throw new RetryBudgetExhaustedException(name, n, failure);
    }
    Duration delay = Duration.ofNanos(delayNanos);
    l.onRetryScheduled(n, failure, delay);
    if (delayNanos > 0) {
      try {
        sleeper.sleep(delay);
      } catch (InterruptedException e) {
        throw interrupted(l, "during the backoff after attempt " + n, e, failure, n);
      }
    }
    if (Thread.currentThread().isInterrupted()) {
      throw interrupted(l, "before attempt " + (n + 1), failure, failure, n);
    }
  }

  /** Records a successful attempt {@code n} with the throttle, the budget and the listener. */
  private void succeeded(RetryListener l, int n) {
    if (throttle != null) {
      throttle.recordAccepted();
    }
    if (budget != null) {
      budget.recordSuccess();
    }
    l.onEnd(RetryEnding.SUCCESS, n, null);
  }

  /** The throttle shed attempt {@code n}: nothing was sent. */
  private ThrottledException throttled(RetryListener l, int n, Throwable last) {
    ThrottledException shed = throttle.rejection(prefix() + "attempt " + n);
    if (last != null) {
      shed.initCause(last);
    }
    l.onEnd(RetryEnding.THROTTLED, n - 1, shed);
    return shed;
  }

  /** The deadline had passed when attempt {@code n} was due. */
  private DeadlineExceededException expiredBefore(RetryListener l, int n, Throwable last) {
    return deadlineExceeded(
        l, n == 1 ? "before the first attempt" : "after attempt " + (n - 1), last, n - 1);
  }

  /** After attempt {@code n}, no time is left, or the next backoff would end at or past it. */
  private DeadlineExceededException noTimeForBackoff(
      RetryListener l, int n, Throwable failure, long delayNanos, long remainingNanos) {
    return deadlineExceeded(
        l,
        remainingNanos == 0
            ? "after attempt " + n
            : "after attempt "
                + n
                + ": the next backoff of "
                + Nanos.format(delayNanos)
                + " would end past it ("
                + Nanos.format(remainingNanos)
                + " left)",
        failure,
        n);
  }

  /** The start of this policy's messages: its name, when it has one. */
  private String prefix() {
    return name == null ? "" : "retry policy '" + name + "': ";
  }

  /** The full-jitter delay before retry {@code k} (0 for the first retry). */
  private long nextDelayNanos(int k) {
    long ceiling = Nanos.cappedExponential(baseDelayNanos, maxDelayNanos, k);
    if (ceiling == 0) {
      return 0;
    }
    RandomGenerator source = random != null ? random : ThreadLocalRandom.current();
    // nextDouble() is in [0, 1), so this is uniform over the ceiling + 1 values 0..ceiling.
    long delay = (long) (source.nextDouble() * ((double) ceiling + 1.0));
    return Math.min(delay, ceiling);
  }

  private RetryInterruptedException interrupted(
      RetryListener listener, String when, Throwable cause, Throwable last, int attempts) {
    Thread.currentThread().interrupt();
    RetryInterruptedException e =
        new RetryInterruptedException(
            prefix() + "interrupted " + when + "; no further attempt started", cause, attempts);
    if (last != null && last != cause) {
      e.addSuppressed(last);
    }
    listener.onEnd(RetryEnding.INTERRUPTED, attempts, cause);
    return e;
  }

  private DeadlineExceededException deadlineExceeded(
      RetryListener listener, String when, Throwable last, int attempts) {
    listener.onEnd(RetryEnding.DEADLINE_EXCEEDED, attempts, last);
    return new DeadlineExceededException(prefix() + "deadline exceeded " + when, last);
  }

  /** Rethrows {@code failure} as it is, after telling the listener why it was not retried. */
  private <X extends Exception> RuntimeException passedOn(
      RetryListener listener, RetryEnding outcome, Throwable failure, int attempts) throws X {
    listener.onEnd(outcome, attempts, failure);
    throw Failures.<X>sneaky(failure);
  }

  private UnknownOutcomeException unknownOutcome(
      RetryListener listener, Throwable failure, int attempts) {
    listener.onEnd(RetryEnding.UNKNOWN_OUTCOME, attempts, failure);
    UnknownOutcomeException unknown =
        failure instanceof UnknownOutcomeException thrown
            ? thrown
            : new UnknownOutcomeException(
                prefix()
                    + "attempt "
                    + attempts
                    + " may have taken effect ("
                    + failure
                    + "); not retried because the call is not declared idempotent",
                failure);
    unknown.markDecidedByPolicy();
    return unknown;
  }

  private RetriesExhaustedException exhausted(
      RetryListener listener, int attempts, Throwable last, Throwable[] earlier, int earlierCount) {
    listener.onEnd(RetryEnding.EXHAUSTED, attempts, last);
    int kept = earlier == null ? 0 : Math.min(earlierCount, earlier.length);
    RetriesExhaustedException e =
        new RetriesExhaustedException(name, attempts, last, earlierCount - kept);
    for (int i = earlierCount - kept; i < earlierCount; i++) { // oldest kept first
      Throwable failure = earlier[i % earlier.length];
      if (failure != last) {
        e.addSuppressed(failure);
      }
    }
    return e;
  }

  /** Configures a {@link RetryPolicy}. Not thread-safe; {@link #build()} copies the settings. */
  public static final class Builder {
    @SuppressWarnings("unchecked")
    private static final Class<? extends Throwable>[] NO_TYPES =
        (Class<? extends Throwable>[]) new Class<?>[0];

    private String name;
    private boolean owner;
    private int maxAttempts = 3;
    private long baseDelayNanos = Duration.ofMillis(100).toNanos();
    private long maxDelayNanos = Duration.ofSeconds(10).toNanos();
    private Class<? extends Throwable>[] retryOn = NO_TYPES;
    private Predicate<? super Throwable> retryIf;
    private Class<? extends Throwable>[] unknownOutcomeOn = NO_TYPES;
    private RetryBudget budget;
    private AdaptiveThrottle throttle;
    private RetryListener listener = NO_LISTENER;
    private Sleeper sleeper = Sleeper.system();
    private RandomGenerator random;

    private Builder() {}

    private Builder(RetryPolicy p) {
      name = p.name;
      owner = p.owner;
      maxAttempts = p.maxAttempts;
      baseDelayNanos = p.baseDelayNanos;
      maxDelayNanos = p.maxDelayNanos;
      retryOn = p.retryOn.clone();
      retryIf = p.retryIf;
      unknownOutcomeOn = p.unknownOutcomeOn.clone();
      budget = p.budget;
      throttle = p.throttle;
      listener = p.listener;
      sleeper = p.sleeper;
      random = p.random;
    }

    /**
     * Names the policy, usually after the dependency or the layer it retries: the name starts the
     * messages of the exceptions it throws and labels its telemetry. Use few, fixed names (they
     * become metric tags). By default a policy has none.
     *
     * @param name a non-blank name
     * @return this builder
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public Builder name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("a policy's name must not be blank, was '" + name + "'");
      }
      this.name = name;
      return this;
    }

    /**
     * Makes this policy the retry owner of its call path: the one layer that retries {@link
     * OverloadedException} (with backoff and within its budget), which every other policy passes on
     * at once. Choose one layer per dependency, usually the outermost that can still wait (the
     * request's edge), never a library's internal layer. A failure that an inner policy already
     * decided on is never retried, owner or not.
     *
     * @return this builder
     */
    public Builder retryOwner() {
      this.owner = true;
      return this;
    }

    /**
     * Sets the total number of attempts, the first call included: 3 means at most 3 calls.
     *
     * @param maxAttempts at least 1 (1 disables retries)
     * @return this builder
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException(
            "maxAttempts counts every call, the first included, so must be >= 1, was "
                + maxAttempts);
      }
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * Sets capped exponential backoff with full jitter: the delay before the k-th retry (k = 0
     * first) is uniform in {@code [0, min(cap, base * 2^k)]}.
     *
     * @param base the ceiling of the first retry's delay, at least zero
     * @param cap the largest delay, at least {@code base}
     * @return this builder
     * @throws IllegalArgumentException if {@code base} is negative or {@code cap < base}
     */
    public Builder backoff(Duration base, Duration cap) {
      Objects.requireNonNull(base, "base");
      Objects.requireNonNull(cap, "cap");
      if (base.isNegative()) {
        throw new IllegalArgumentException("backoff base must not be negative, was " + base);
      }
      if (cap.compareTo(base) < 0) {
        throw new IllegalArgumentException(
            "backoff cap must be >= base, was cap " + cap + " < base " + base);
      }
      this.baseDelayNanos = Nanos.saturated(base);
      this.maxDelayNanos = Nanos.saturated(cap);
      return this;
    }

    /**
     * Retries at once, without backoff: for tests and for failures known to clear instantly.
     *
     * @return this builder
     */
    public Builder noBackoff() {
      this.baseDelayNanos = 0;
      this.maxDelayNanos = 0;
      return this;
    }

    /**
     * Classifies failures of these types (and their subtypes) as transient, so retried. Adds to
     * earlier calls.
     *
     * @param types the transient failure types
     * @return this builder
     * @throws IllegalArgumentException for a type that is never retried: an {@link Error}, {@link
     *     InterruptedException} or {@link CancellationException} type
     */
    @SafeVarargs
    public final Builder retryOn(Class<? extends Throwable>... types) {
      for (Class<? extends Throwable> type : types) {
        Objects.requireNonNull(type, "type");
        if (Error.class.isAssignableFrom(type)
            || InterruptedException.class.isAssignableFrom(type)
            || CancellationException.class.isAssignableFrom(type)) {
          throw new IllegalArgumentException(
              type.getName()
                  + " is never retried: errors are not transient and interruption or"
                  + " cancellation means stop");
        }
      }
      this.retryOn = appended(retryOn, types.length);
      for (int i = 0; i < types.length; i++) {
        retryOn[retryOn.length - types.length + i] = types[i];
      }
      return this;
    }

    /**
     * Classifies failures matching {@code predicate} as transient, in addition to {@link #retryOn}
     * types. Errors, interruption and cancellation are never retried whatever it says.
     *
     * @param predicate tells whether a failure is transient
     * @return this builder
     */
    public Builder retryIf(Predicate<? super Throwable> predicate) {
      Objects.requireNonNull(predicate, "predicate");
      Predicate<? super Throwable> previous = this.retryIf;
      this.retryIf = previous == null ? predicate : t -> previous.test(t) || predicate.test(t);
      return this;
    }

    /**
     * Classifies failures of these types as leaving the outcome unknown, in addition to the
     * defaults listed on {@link RetryPolicy}: retried only in calls declared idempotent.
     *
     * @param types the failure types after which an attempt may or may not have taken effect
     * @return this builder
     */
    @SafeVarargs
    public final Builder unknownOutcomeOn(Class<? extends Throwable>... types) {
      for (Class<? extends Throwable> type : types) {
        Objects.requireNonNull(type, "type");
      }
      this.unknownOutcomeOn = appended(unknownOutcomeOn, types.length);
      for (int i = 0; i < types.length; i++) {
        unknownOutcomeOn[unknownOutcomeOn.length - types.length + i] = types[i];
      }
      return this;
    }

    /**
     * Shares a retry budget: a retry goes ahead only if the budget grants a token.
     *
     * @param budget the budget shared by every caller of the same dependency
     * @return this builder
     */
    public Builder budget(RetryBudget budget) {
      this.budget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    /**
     * Puts an adaptive client-side throttle before every attempt: when it rejects locally, the call
     * ends at once with {@link ThrottledException} (ending {@link RetryEnding#THROTTLED}) and
     * nothing is sent. Each attempt that is sent is recorded as accepted unless it fails with an
     * {@link OverloadedException}.
     *
     * @param throttle the throttle shared by every caller of the same dependency
     * @return this builder
     */
    public Builder throttle(AdaptiveThrottle throttle) {
      this.throttle = Objects.requireNonNull(throttle, "throttle");
      return this;
    }

    /**
     * Sets the listener told of every retry and every outcome.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder listener(RetryListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Sets how backoff waits: tests pass one that advances a manual ticker instead.
     *
     * @param sleeper the sleeper
     * @return this builder
     */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /**
     * Sets the source of jitter; by default the calling thread's {@link ThreadLocalRandom}. Used
     * only through {@link RandomGenerator#nextDouble()}; it must be thread-safe if the policy is
     * shared.
     *
     * @param random the random source
     * @return this builder
     */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * Builds an immutable, thread-safe policy from a copy of these settings.
     *
     * @return the policy
     */
    public RetryPolicy build() {
      return new RetryPolicy(this);
    }

    /** A copy of {@code types} with {@code extra} empty slots at the end. */
    private static Class<? extends Throwable>[] appended(
        Class<? extends Throwable>[] types, int extra) {
      return Arrays.copyOf(types, types.length + extra);
    }
  }
}
