package dev.bounded.runtime;

import java.time.Duration;

/**
 * What an operation knows about the attempt it is running: its number and the deadline that all
 * attempts and backoff share. Valid only during the {@link RetryableCall#call} it is passed to.
 */
public final class Attempt {
  private final Deadline deadline;
  private final int maxAttempts;
  private int number;

  Attempt(Deadline deadline, int maxAttempts) {
    this.deadline = deadline;
    this.maxAttempts = maxAttempts;
  }

  void start(int attemptNumber) {
    this.number = attemptNumber;
  }

  /**
   * Returns this attempt's number.
   *
   * @return 1 for the first call, 2 for the first retry, and so on
   */
  public int number() {
    return number;
  }

  /**
   * Tells whether no further attempt will follow this one, whatever its outcome.
   *
   * @return {@code true} on the last allowed attempt
   */
  public boolean isLast() {
    return number >= maxAttempts;
  }

  /**
   * Returns the deadline shared by every attempt and backoff of this call.
   *
   * @return the call's deadline
   */
  public Deadline deadline() {
    return deadline;
  }

  /**
   * Returns the time the deadline has left: the bound for any wait inside the attempt.
   *
   * @return the time left, never negative
   */
  public Duration remaining() {
    return deadline.remaining();
  }

  /**
   * Returns the time the deadline has left in nanoseconds, for {@code java.util.concurrent}'s timed
   * waits.
   *
   * @return nanoseconds left, never negative
   */
  public long remainingNanos() {
    return deadline.remainingNanos();
  }

  @Override
  public String toString() {
    return "Attempt[" + number + " of " + maxAttempts + ", " + deadline + "]";
  }
}
