package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.Set;

/**
 * Retries by asynchronous recursion, for {@link PerAttemptTimeoutRule}: a method that starts an
 * attempt and, in a failure handler of the attempt's future or publisher, calls itself for the next
 * attempt and hands its result on ({@code return attemptAsync(.., attempt + 1)} in {@code
 * responseMono.onErrorResume(e -> ..)}, {@code connect(next).thenAccept(future::complete)} in
 * {@code .exceptionally(e -> ..)}). The method's own frame is then each attempt's work.
 *
 * <p>Not such a retry: a self-call in a nested task ({@code exceptionally(e -> { scheduler
 * .schedule(() -> reconnect(), ..) })}, a background reconnect whose result nobody awaits), a
 * self-call whose result is dropped, and a self-call in {@code whenComplete}/{@code handle} outside
 * a test of the failure.
 */
final class AsyncRetries {
  /** Handlers that run when an attempt fails: Reactor's and CompletableFuture's. */
  private static final Set<String> ON_FAILURE =
      Set.of(
          "onErrorResume",
          "exceptionally",
          "exceptionallyAsync",
          "exceptionallyCompose",
          "exceptionallyComposeAsync");

  /** Handlers that run on success and failure alike: the failure is their last parameter. */
  private static final Set<String> ON_COMPLETION =
      Set.of("whenComplete", "whenCompleteAsync", "handle", "handleAsync");

  private AsyncRetries() {}

  /**
   * Whether the method retries by calling itself from a failure handler of its attempt and handing
   * the next attempt's result on.
   *
   * @param analysis the method's analysis
   * @return {@code true} for such a retry
   */
  static boolean retriesOnFailure(MethodAnalysis analysis) {
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Call call
          && analysis.isSelfCall(call)
          && isNextAttempt(analysis, call)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNextAttempt(MethodAnalysis analysis, Expr.Call self) {
    Expr.Lambda handler = analysis.enclosingLambda(self);
    if (handler == null
        || !(analysis.parent(handler) instanceof Expr.Call on)
        || !on.args().contains(handler)) {
      return false; // at the method's own level, or in a task nested in the handler
    }
    Node parent = analysis.parent(self);
    if (parent instanceof Stmt.ExprStmt statement && statement != handler.body()) {
      return false; // the next attempt's result is dropped: nobody waits on it
    }
    if (ON_FAILURE.contains(on.name())) {
      return true;
    }
    if (!ON_COMPLETION.contains(on.name()) || handler.params().isEmpty()) {
      return false;
    }
    String failure = handler.params().get(handler.params().size() - 1);
    for (Node p = analysis.parent(self); p != null && p != handler; p = analysis.parent(p)) {
      if (p instanceof Stmt.If test && Nodes.mentions(test.condition(), failure)) {
        return true;
      }
    }
    return false;
  }
}
