package dev.bounded.runtime.internal;

import dev.bounded.runtime.UnknownOutcomeException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeoutException;

/** Classification helpers for failures, shared by the runtime's policies. */
public final class Failures {
  /** How deep a cause chain is followed before giving up (guards against cause cycles). */
  public static final int MAX_CAUSE_DEPTH = 16;

  private static final String HTTP_TIMEOUT = "java.net.http.HttpTimeoutException";
  private static final String HTTP_CONNECT_TIMEOUT = "java.net.http.HttpConnectTimeoutException";

  /**
   * Whether a class is {@code java.net.http.HttpTimeoutException} or a subclass other than {@code
   * HttpConnectTimeoutException} (the connection was never made, so nothing was sent). Matched by
   * name, because {@code java.net.http} is a module the runtime does not require; computed once per
   * class.
   */
  private static final ClassValue<Boolean> HTTP_TIMEOUT_SENT =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          for (Class<?> c = type; c != null && c != Throwable.class; c = c.getSuperclass()) {
            String name = c.getName();
            if (name.equals(HTTP_CONNECT_TIMEOUT)) {
              return false;
            }
            if (name.equals(HTTP_TIMEOUT)) {
              return true;
            }
          }
          return false;
        }
      };

  private Failures() {}

  /**
   * Tells whether {@code failure} itself (not its causes) leaves an attempt's outcome unknown: a
   * timeout after the request may have been sent, or one of {@code extra}.
   *
   * @param failure the failure
   * @param extra further types configured as unknown outcomes
   * @return {@code true} if the attempt may or may not have taken effect
   */
  public static boolean isUnknownOutcome(Throwable failure, Class<?>[] extra) {
    if (failure instanceof TimeoutException
        || failure instanceof SocketTimeoutException
        || failure instanceof UnknownOutcomeException) {
      return true;
    }
    for (Class<?> type : extra) {
      if (type.isInstance(failure)) {
        return true;
      }
    }
    return HTTP_TIMEOUT_SENT.get(failure.getClass());
  }

  /**
   * Lets a checked exception that the caller's signature already declares pass through a generic
   * method unchanged.
   *
   * @param failure the failure to rethrow
   * @param <X> the declared exception type; its erasure is {@code Throwable}, so the cast below
   *     never fails for an {@link Error}
   * @return never returns; typed so callers can write {@code throw sneaky(e)}
   * @throws X always: the failure itself
   */
  @SuppressWarnings("unchecked")
  public static <X extends Throwable> RuntimeException sneaky(Throwable failure) throws X {
    throw (X) failure;
  }
}
