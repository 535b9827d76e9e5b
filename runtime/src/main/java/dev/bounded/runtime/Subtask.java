package dev.bounded.runtime;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;

/**
 * A task forked in a {@link TaskScope}: its state, and its result or failure once the scope has
 * been joined.
 *
 * <pre>{@code
 * try (TaskScope scope = TaskScope.open(deadline)) {
 *   Subtask<Stock> stock = scope.fork(() -> inventory.stock(sku));
 *   Subtask<Price> price = scope.fork(() -> pricing.price(sku));
 *   scope.join();                                   // throws if either failed
 *   return new Offer(stock.get(), price.get());
 * }
 * }</pre>
 *
 * <p>{@link #state()} may be read at any time. {@link #get()} and {@link #exception()} may be
 * called only after the owner's {@link TaskScope#join()} (or {@link TaskScope#close()}) has
 * returned or thrown: until then the outcome is not settled, and reading it early would invite the
 * unstructured polling that scopes exist to prevent. Thread-safe: once settled, any thread may read
 * the outcome.
 *
 * @param <T> the result type
 */
public final class Subtask<T> {

  /** The state of a subtask. */
  public enum State {
    /** Forked and not finished: running, or about to start. */
    RUNNING,
    /** The task returned a result: {@link #get()} gives it. */
    SUCCEEDED,
    /**
     * The task threw: {@link #exception()} gives the failure, which the scope reports from {@link
     * TaskScope#join()}.
     */
    FAILED,
    /**
     * The task did not complete and this is not a failure: it threw {@link CancellationException},
     * or it was interrupted because the scope was cancelled (and ended with {@link
     * InterruptedException} or another interruption signal), or it never started because the scope
     * was already cancelled.
     */
    CANCELLED
  }

  final Callable<? extends T> task;
  private final TaskScope scope;

  private volatile State state = State.RUNNING;
  // Written once, before the volatile write of state that publishes them.
  private T result;
  private Throwable exception;

  Subtask(TaskScope scope, Callable<? extends T> task) {
    this.scope = scope;
    this.task = task;
  }

  /**
   * Returns the state of this subtask. May be called at any time, from any thread.
   *
   * @return the state; {@link State#RUNNING} until the task has finished
   */
  public State state() {
    return state;
  }

  /**
   * Returns the task's result.
   *
   * @return the value the task returned (may be null)
   * @throws IllegalStateException if the scope has not been joined yet, or the subtask did not
   *     succeed (the message gives its state; the cause is its failure, if any)
   */
  public T get() {
    checkSettled("get()");
    State s = state;
    if (s != State.SUCCEEDED) {
      throw new IllegalStateException(
          "subtask of task scope '" + scope.name() + "' has no result: it is " + s, exception);
    }
    return result;
  }

  /**
   * Returns what the task threw: its failure, or the exception it was cancelled with.
   *
   * @return the failure when {@link State#FAILED}; for {@link State#CANCELLED}, the {@link
   *     CancellationException} or interruption it ended with, or a {@link CancellationException} if
   *     it never started
   * @throws IllegalStateException if the scope has not been joined yet, or the subtask succeeded
   */
  public Throwable exception() {
    checkSettled("exception()");
    if (state == State.SUCCEEDED) {
      throw new IllegalStateException(
          "subtask of task scope '" + scope.name() + "' succeeded: it has no exception");
    }
    return exception;
  }

  @Override
  public String toString() {
    return "Subtask[scope=" + scope.name() + ", state=" + state + "]";
  }

  private void checkSettled(String what) {
    if (!scope.isSettled()) {
      throw new IllegalStateException(
          "call join() on task scope '" + scope.name() + "' before " + what + " of its subtask");
    }
  }

  void succeed(T value) {
    this.result = value;
    this.state = State.SUCCEEDED;
  }

  void fail(Throwable failure) {
    this.exception = failure;
    this.state = State.FAILED;
  }

  void cancel(Throwable cause) {
    this.exception = cause;
    this.state = State.CANCELLED;
  }
}
