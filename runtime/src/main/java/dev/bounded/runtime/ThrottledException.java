package dev.bounded.runtime;

import java.util.concurrent.RejectedExecutionException;

/**
 * An {@link AdaptiveThrottle} rejected a request locally, without sending it: the dependency has
 * been refusing too much of this client's traffic lately. Thrown by {@link AdaptiveThrottle#call},
 * by a {@link RetryPolicy} before an attempt, and by a {@link BoundedExecutor} at admission.
 *
 * <p>A {@link RejectedExecutionException}, so an executor's existing handlers of refused tasks see
 * it. No {@link RetryPolicy} retries it, owner or not: a retry would be throttled again or add the
 * load the throttle is shedding.
 */
public final class ThrottledException extends RejectedExecutionException {
  private static final long serialVersionUID = 1L;

  private final String throttleName;
  private final double rejectionProbability;

  /**
   * Creates the exception.
   *
   * @param message what was rejected
   * @param throttleName the name of the throttle that rejected it
   * @param rejectionProbability the throttle's rejection probability at the time
   */
  public ThrottledException(String message, String throttleName, double rejectionProbability) {
    super(message);
    this.throttleName = throttleName;
    this.rejectionProbability = rejectionProbability;
  }

  /**
   * Returns the name of the throttle that rejected the request.
   *
   * @return the throttle's name
   */
  public String throttleName() {
    return throttleName;
  }

  /**
   * Returns the probability with which the throttle was rejecting requests when it rejected this
   * one.
   *
   * @return a value in {@code (0, 1)}
   */
  public double rejectionProbability() {
    return rejectionProbability;
  }
}
