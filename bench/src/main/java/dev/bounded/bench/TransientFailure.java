package dev.bounded.bench;

/**
 * The failure every benchmarked retry loop retries: unchecked, and created once without a stack
 * trace or suppression list, so that no variant pays for filling in a stack trace and none
 * allocates on the failure path because of the exception itself.
 */
public final class TransientFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The single instance, thrown by every failing attempt. */
  public static final TransientFailure INSTANCE = new TransientFailure();

  private TransientFailure() {
    super("transient failure (preallocated, stackless)", null, false, false);
  }
}
