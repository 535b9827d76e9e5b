package dev.bounded.checks.model;

import java.util.List;
import java.util.function.Function;

/**
 * What a frontend knows of the code around one method: the other methods of its compilation unit
 * (the compiler frontend) or of the whole scanned tree (the scanner). Facts that cross methods —
 * which method sets a stop flag and then interrupts the worker, which helpers only a thread's body
 * calls, where a callee sets a timeout, which methods retry — are derived from it once and asked by
 * rules through the analysis; a rule never walks other methods itself.
 *
 * <p>Models are built lazily and at most once: {@link #methods()} returns the same instances on
 * every call, and {@link #declarationOf} returns one of them. Not thread-safe: an index belongs to
 * the thread that analyses its unit.
 */
public interface UnitIndex {

  /**
   * Returns every method and constructor with a body declared in the unit, nested and local classes
   * included, in source order.
   *
   * @return the methods
   */
  List<MethodModel> methods();

  /**
   * Returns the declaration in the unit of the method a call invokes.
   *
   * @param call a call
   * @return one of {@link #methods()}, or {@code null} if the method is declared elsewhere or the
   *     frontend cannot tell which method is invoked
   */
  MethodModel declarationOf(Expr.Call call);

  /**
   * Returns the declaration of the method a call invokes in any source the frontend sees: this
   * unit's first, then another compilation unit of the same compilation (the compiler frontend) or
   * another scanned file (the scanner). For facts that hold of the callee whatever its class, such
   * as whether it retries; facts about a class's own members (who sets its stop flag, which helpers
   * only its thread calls) stay with {@link #declarationOf}.
   *
   * @param call a call
   * @return a method model, or {@code null} if the method's source is not seen or the frontend
   *     cannot tell which method is invoked
   */
  default MethodModel declarationInProject(Expr.Call call) {
    return declarationOf(call);
  }

  /**
   * Returns what the frontend knows beyond a method of this index, for analysing it.
   *
   * @param method one of {@link #methods()}, or a model {@link #declarationInProject} returned
   * @return its source context (for a method of another unit, that unit's)
   */
  SourceContext contextOf(MethodModel method);

  /**
   * Returns a value derived from the index, computing it on first use: the analysis keeps its
   * cross-method facts here so they are computed once per unit.
   *
   * @param key identifies the value (a class literal of the analysis that owns it)
   * @param compute computes it from the index
   * @param <T> its type
   * @return the value
   */
  <T> T memo(Class<T> key, Function<UnitIndex, T> compute);

  /**
   * Returns an index that knows no other method: for frontends or tests without one.
   *
   * @return the empty index
   */
  static UnitIndex empty() {
    return new UnitIndex() {
      private final java.util.Map<Class<?>, Object> memos = new java.util.HashMap<>();

      @Override
      public List<MethodModel> methods() {
        return List.of();
      }

      @Override
      public MethodModel declarationOf(Expr.Call call) {
        return null;
      }

      @Override
      public SourceContext contextOf(MethodModel method) {
        throw new IllegalArgumentException("not a method of this index: " + method.name());
      }

      @Override
      public <T> T memo(Class<T> key, Function<UnitIndex, T> compute) {
        return key.cast(memos.computeIfAbsent(key, k -> compute.apply(this)));
      }
    };
  }
}
