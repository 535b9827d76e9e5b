package dev.bounded.runtime.internal;

import dev.bounded.runtime.UnknownOutcomeException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/** Classification helpers for failures, shared by the runtime's policies. */
public final class Failures {
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
   * Tells whether {@code failure} or any of its causes satisfies {@code test}. The whole chain is
   * walked, however long; a chain that loops back on itself (a cause cycle, which {@link
   * Throwable#initCause} cannot make but a subclass overriding {@link Throwable#getCause()} can) is
   * walked once, the loop detected by identity (Floyd's tortoise and hare: no allocation, no depth
   * limit).
   *
   * @param failure the failure, or {@code null}
   * @param test the property sought
   * @return {@code true} if some throwable of the chain has it
   */
  public static boolean anyInCauseChain(Throwable failure, Predicate<? super Throwable> test) {
    Throwable slow = failure;
    Throwable fast = failure;
    while (fast != null) {
      if (test.test(fast)) {
        return true;
      }
      fast = fast.getCause();
      if (fast == null) {
        return false;
      }
      if (test.test(fast)) {
        return true;
      }
      fast = fast.getCause();
      slow = slow.getCause();
      if (fast == slow) {
        return false; // a cycle: every throwable on it has been tested
      }
    }
    return false;
  }

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
