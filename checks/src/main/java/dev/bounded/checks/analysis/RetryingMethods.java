package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.Stmt;
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
 * that holds a retry loop ({@code fetch()} calls {@code request()}, which holds the loop): a
 * caller's retry loop around it multiplies those attempts all the same. Only {@value #DEPTH} call
 * below is looked at: on ZooKeeper, looking two calls below cost the rule seven times as much (89
 * against 12 ms) and found nothing more in the labelled corpus.
 */
public final class RetryingMethods {
  /** How many calls below the method called a retry loop is looked for. */
  static final int DEPTH = 1;

  /**
   * A method that retries on its own.
   *
   * @param method the method's model
   * @param attempts the most attempts one call of it makes, or 0 when the cap is unknown
   * @param through the methods called on the way to the retry loop, outermost first, ending with
   *     the one that holds it; empty when {@code method} holds it
   * @param walksOnly whether every retry loop of the method is a failover walk (a for-each that
   *     tries each node once), which repeats no call to any one of them
   */
  public record Retrying(
      MethodModel method, int attempts, List<String> through, boolean walksOnly) {
    /** Copies the list. */
    public Retrying {
      through = List.copyOf(through);
    }
  }

  /** A method known not to retry within the depth; also the mark of one being worked out. */
  private static final Verdict NONE = new Verdict(null, -1, -1, List.of(), false);

  /** What is known of a method: the depth of its nearest retry loop (0: its own). */
  private record Verdict(
      MethodModel method, int attempts, int depth, List<String> through, boolean walksOnly) {}

  private final IdentityHashMap<MethodModel, Verdict[]> byMethod = new IdentityHashMap<>();

  private RetryingMethods() {}

  /**
   * Tells whether a call invokes a method that retries on its own.
   *
   * @param analysis the analysis of the calling method
   * @param call a call in it
   * @return the retrying callee, or {@code null} if the callee does not retry (within {@value
   *     #DEPTH} call below it), its source is not seen, or it is the calling method itself
   *     (recursion is not a second layer)
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  public static Retrying of(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null || callee == analysis.method()) {
      return null; /* Fast path: source not seen, or recursion. */
    }
    Verdict verdict = verdict(analysis.context().unit(), callee, DEPTH);
    return verdict.depth() < 0 || verdict.method() == analysis.method()
        ? null // none, or the loop is the caller's own, reached again through the callee
        : new Retrying(
            verdict.method(), verdict.attempts(), verdict.through(), verdict.walksOnly());
  }

  /**
   * The verdict on a method, looking at most {@code depth} calls below it; kept in the index of its
   * own unit.
   */
  private static Verdict verdict(UnitIndex asking, MethodModel method, int depth) {
    SourceContext context = asking.contextOf(method);
    RetryingMethods known = context.unit().memo(RetryingMethods.class, u -> new RetryingMethods());
    Verdict[] verdicts = known.byMethod.computeIfAbsent(method, m -> new Verdict[DEPTH + 1]);
    if (verdicts[depth] == null) {
      verdicts[depth] = NONE; // a call cycle back here finds no retry
      verdicts[depth] = depth == 0 ? ownLoop(method, context) : known.below(method, context, depth);
    }
    return verdicts[depth];
  }

  /** The method's own retry loop (depth 0), or none. */
  private static Verdict ownLoop(MethodModel method, SourceContext context) {
    boolean mayRetry = false;
    for (Node n : Nodes.sameFrame(method.body())) {
      // A retry loop is a loop, or a call of the method itself from a catch clause.
      mayRetry |= n instanceof Stmt.Loop || n instanceof Stmt.Try;
    }
    if (!mayRetry) {
      return NONE;
    }
    MethodAnalysis analysis = MethodAnalysis.of(method, context);
    int most = -1;
    boolean walksOnly = true;
    for (LoopInfo loop : analysis.retryLoops()) {
      int cap = Attempts.of(analysis, loop);
      most = most < 0 ? cap : (cap == 0 || most == 0 ? 0 : Math.max(most, cap));
      walksOnly &= isWalk(loop);
    }
    return most < 0 ? NONE : new Verdict(method, most, 0, List.of(), walksOnly);
  }

  /**
   * Whether a retry loop is a failover walk: a for-each over nodes (or the same loop written with
   * an index) that tries each once and leaves on the first success.
   *
   * @param loop a retry loop
   * @return {@code true} for a walk
   */
  public static boolean isWalk(LoopInfo loop) {
    return (loop.kind() == LoopInfo.Kind.FOR_EACH || loop.kind() == LoopInfo.Kind.FOR)
        && loop.evidence().contains(LoopInfo.Evidence.FAILOVER);
  }

  /** The method's own retry loop, else the nearest one within {@code depth} calls below it. */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private Verdict below(MethodModel method, SourceContext context, int depth) {
    Verdict own = verdict(context.unit(), method, 0);
    if (own.depth() >= 0) {
      return own;
    }
    Verdict nearest = NONE;
    String via = null;
    for (Node n : Nodes.sameFrame(method.body())) { // a lambda's body may run later, elsewhere
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      MethodModel callee = context.unit().declarationInProject(call);
      if (callee == null || callee == method) {
        continue;
      }
      Verdict found = verdict(context.unit(), callee, depth - 1);
      if (found.depth() >= 0 && (nearest.depth() < 0 || found.depth() + 1 < nearest.depth())) {
        nearest =
            new Verdict(
                found.method(),
                found.attempts(),
                found.depth() + 1,
                found.through(),
                found.walksOnly());
        via = call.name() + "()";
      }
    }
    if (nearest.depth() < 0) {
      return NONE;
    }
    List<String> through = new ArrayList<>();
    through.add(via);
    through.addAll(nearest.through());
    return new Verdict(
        nearest.method(), nearest.attempts(), nearest.depth(), through, nearest.walksOnly());
  }
}
