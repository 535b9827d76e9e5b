package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.UnitIndex;
import java.util.IdentityHashMap;

/**
 * Which methods of the unit retry on their own, and how often: a fact across methods, derived once
 * per unit from the frontend's {@link UnitIndex} and kept in it ({@link UnitIndex#memo}). A method
 * retries when it holds a retry loop; its attempts are the largest cap its retry loops state (0
 * when one of them states none).
 */
public final class RetryingMethods {
  /**
   * A method that retries on its own.
   *
   * @param method the method's model
   * @param attempts the most attempts one call of it makes, or 0 when the cap is unknown
   */
  public record Retrying(MethodModel method, int attempts) {}

  /** A method known not to retry. */
  private static final Retrying NONE = new Retrying(null, -1);

  private final UnitIndex unit;
  private final IdentityHashMap<MethodModel, Retrying> byMethod = new IdentityHashMap<>();

  private RetryingMethods(UnitIndex unit) {
    this.unit = unit;
  }

  /**
   * Tells whether a call invokes a method of the unit that retries on its own.
   *
   * @param analysis the analysis of the calling method
   * @param call a call in it
   * @return the retrying callee, or {@code null} if the callee does not retry, is not declared in
   *     the unit, or is the calling method itself (recursion is not a second layer)
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  public static Retrying of(MethodAnalysis analysis, Expr.Call call) {
    UnitIndex unit = analysis.context().unit();
    MethodModel callee = unit.declarationOf(call);
    if (callee == null || callee == analysis.method()) {
      return null; /* Fast path: not a method of this unit, or recursion. */
    }
    return unit.memo(RetryingMethods.class, RetryingMethods::new).lookup(callee);
  }

  private Retrying lookup(MethodModel method) {
    Retrying known = byMethod.get(method);
    if (known == null) {
      known = NONE;
      MethodAnalysis analysis = MethodAnalysis.of(method, unit.contextOf(method));
      int most = -1;
      for (LoopInfo loop : analysis.retryLoops()) {
        int cap = Attempts.of(analysis, loop);
        most = most < 0 ? cap : (cap == 0 || most == 0 ? 0 : Math.max(most, cap));
      }
      if (most >= 0) {
        known = new Retrying(method, most);
      }
      byMethod.put(method, known);
    }
    return known.method() == null ? null : known;
  }
}
