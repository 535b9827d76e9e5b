package dev.bounded.testing;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for a flaky dependency: fails with the given failures in order, then returns a value
 * on every later call, and counts the calls.
 *
 * <pre>{@code
 * ScriptedDependency<String> inventory =
 *     ScriptedDependency.failing(new ConnectException("refused"), new ConnectException("refused"))
 *         .thenReturning("42 in stock");
 * String stock = policy.call(attempt -> inventory.call());
 * assertThat(inventory.calls()).isEqualTo(3);
 * }</pre>
 *
 * <p>Thread-safe: concurrent callers each consume the next scripted failure exactly once.
 *
 * @param <T> the result type
 */
public final class ScriptedDependency<T> implements Callable<T> {
  private final List<Throwable> failures;
  private final T result;
  private final AtomicInteger calls = new AtomicInteger();

  private ScriptedDependency(List<Throwable> failures, T result) {
    this.failures = failures;
    this.result = result;
  }

  /**
   * Starts a script whose first calls fail with {@code failures}, one each, in order.
   *
   * @param failures checked or unchecked exceptions, or errors, to throw as they are
   * @return a script to finish with {@link Script#thenReturning}
   */
  public static Script failing(Throwable... failures) {
    return new Script(List.of(failures));
  }

  /**
   * Returns a dependency that never fails.
   *
   * @param result what every call returns
   * @param <T> the result type
   * @return the dependency
   */
  public static <T> ScriptedDependency<T> returning(T result) {
    return new ScriptedDependency<>(List.of(), result);
  }

  /**
   * Makes one call: throws the next scripted failure, or returns the result once they are spent.
   *
   * @return the result
   * @throws Exception the next scripted failure (an {@link Error} is thrown as it is too)
   */
  @Override
  public T call() throws Exception {
    int index = calls.getAndIncrement();
    if (index < failures.size()) {
      Throwable failure = failures.get(index);
      if (failure instanceof Exception exception) {
        throw exception;
      }
      throw (Error) failure;
    }
    return result;
  }

  /**
   * Returns how many calls were made.
   *
   * @return the call count
   */
  public int calls() {
    return calls.get();
  }

  /**
   * Returns how many scripted failures have not been thrown yet.
   *
   * @return the failures left
   */
  public int failuresLeft() {
    return Math.max(0, failures.size() - calls.get());
  }

  /** The failures of a {@link ScriptedDependency}, waiting for its result. */
  public static final class Script {
    private final List<Throwable> failures;

    private Script(List<Throwable> failures) {
      for (Throwable failure : failures) {
        Objects.requireNonNull(failure, "failure");
        if (!(failure instanceof Exception) && !(failure instanceof Error)) {
          throw new IllegalArgumentException(
              "a call can throw only an Exception or an Error, not " + failure);
        }
      }
      this.failures = failures;
    }

    /**
     * Finishes the script: after the failures, every call returns {@code result}.
     *
     * @param result the result, may be null
     * @param <T> the result type
     * @return the dependency
     */
    public <T> ScriptedDependency<T> thenReturning(T result) {
      return new ScriptedDependency<>(failures, result);
    }
  }
}
