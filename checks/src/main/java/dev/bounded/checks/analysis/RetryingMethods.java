package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Which methods retry on their own, and how often: a fact across methods and across files, derived
 * from the frontend's {@link UnitIndex} ({@link UnitIndex#declarationInProject}) and kept in the
 * index of the unit that declares the method ({@link UnitIndex#memo}), so it is worked out once
 * however many units call the method.
 *
 * <p>A method retries when it holds a retry loop; its attempts are the largest cap its retry loops
 * state (0 when one of them states none). It also retries when it calls, outside a lambda, a method
 * that retries, up to {@value #DEPTH} calls below it ({@code listen()} calls {@code request()},
 * which calls {@code send()}, which holds the loop): a caller's retry loop around it multiplies
 * those attempts all the same.
 */
public final class RetryingMethods {
  /** How many calls below the method called a retry loop is looked for. */
  static final int DEPTH = 2;

  /**
   * A method that retries on its own.
   *
   * @param method the method's model
   * @param attempts the most attempts one call of it makes, or 0 when the cap is unknown
   * @param through the methods called on the way to the retry loop, outermost first, ending with
   *     the one that holds it; empty when {@code method} holds it
   */
  public record Retrying(MethodModel method, int attempts, List<String> through) {
    /** Copies the list. */
    public Retrying {
      through = List.copyOf(through);
    }
  }

  /** A method known not to retry within the depth; also the mark of one being worked out. */
  private static final Verdict NONE = new Verdict(null, -1, -1, List.of());

  /** What is known of a method: the depth of its nearest retry loop (0: its own). */
  private record Verdict(MethodModel method, int attempts, int depth, List<String> through) {}

  private final IdentityHashMap<MethodModel, Verdict> byMethod = new IdentityHashMap<>();

  private RetryingMethods() {}

  /**
   * Tells whether a call invokes a method that retries on its own.
   *
   * @param analysis the analysis of the calling method
   * @param call a call in it
   * @return the retrying callee, or {@code null} if the callee does not retry (within {@value
   *     #DEPTH} calls), its source is not seen, or it is the calling method itself (recursion is
   *     not a second layer)
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  public static Retrying of(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null || callee == analysis.method()) {
      return null; /* Fast path: source not seen, or recursion. */
    }
    Verdict verdict = verdict(analysis.context().unit(), callee);
    return verdict.depth() < 0 || verdict.method() == analysis.method()
        ? null // none, or the loop is the caller's own, reached again through the callee
        : new Retrying(verdict.method(), verdict.attempts(), verdict.through());
  }

  /** The verdict on a method, kept in the index of its own unit. */
  private static Verdict verdict(UnitIndex asking, MethodModel method) {
    SourceContext context = asking.contextOf(method);
    RetryingMethods known = context.unit().memo(RetryingMethods.class, u -> new RetryingMethods());
    Verdict verdict = known.byMethod.get(method);
    if (verdict == null) {
      known.byMethod.put(method, NONE); // a call cycle back here finds no retry
      verdict = known.work(method, context);
      known.byMethod.put(method, verdict);
    }
    return verdict;
  }

  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private Verdict work(MethodModel method, SourceContext context) {
    MethodAnalysis analysis = MethodAnalysis.of(method, context);
    int most = -1;
    for (LoopInfo loop : analysis.retryLoops()) {
      int cap = Attempts.of(analysis, loop);
      most = most < 0 ? cap : (cap == 0 || most == 0 ? 0 : Math.max(most, cap));
    }
    if (most >= 0) {
      return new Verdict(method, most, 0, List.of());
    }
    Verdict nearest = NONE;
    String via = null;
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call call) || analysis.enclosingLambda(call) != null) {
        continue; // a lambda's body may run later, or elsewhere
      }
      MethodModel callee = context.unit().declarationInProject(call);
      if (callee == null || callee == method) {
        continue;
      }
      Verdict below = verdict(context.unit(), callee);
      if (below.depth() >= 0
          && below.depth() + 1 <= DEPTH
          && (nearest.depth() < 0 || below.depth() + 1 < nearest.depth())) {
        nearest = new Verdict(below.method(), below.attempts(), below.depth() + 1, below.through());
        via = call.name() + "()";
      }
    }
    if (nearest.depth() < 0) {
      return NONE;
    }
    List<String> through = new ArrayList<>();
    through.add(via);
    through.addAll(nearest.through());
    return new Verdict(nearest.method(), nearest.attempts(), nearest.depth(), through);
  }
}
