package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.Set;

/**
 * Futures known to be complete where they are read: inside a callback of the future itself, or of
 * {@code CompletableFuture.allOf(..)} over them. {@code CompletableFuture.get()} on a complete
 * future returns at once and never checks the interrupt flag, so it cannot throw {@code
 * InterruptedException} there.
 */
final class CompletedFutures {
  /** Calls that run a callback once the stage they are called on has completed. */
  private static final Set<String> ON_COMPLETION =
      Set.of(
          "whenComplete",
          "whenCompleteAsync",
          "handle",
          "handleAsync",
          "thenRun",
          "thenRunAsync",
          "thenAccept",
          "thenAcceptAsync",
          "thenApply",
          "thenApplyAsync",
          "thenCompose",
          "thenComposeAsync");

  private CompletedFutures() {}

  /**
   * Whether {@code call} is {@code future.get()} on a future that is complete when the call runs:
   * {@code f.whenComplete((r, e) -> f.get())}, or {@code allOf(futures..).whenComplete((v, e) ->
   * futures.forEach(f -> f.get()))} where {@code f} walks what {@code allOf} was given (a for-each
   * or {@code forEach} over the same collection or map, or a future named among its arguments).
   * {@code allOf} takes {@code CompletableFuture}s, whose {@code get()} on a complete future does
   * not look at the interrupt flag.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean isKnownComplete(MethodAnalysis analysis, Expr.Call call) {
    if (!call.name().equals("get")
        || !call.args().isEmpty()
        || !(call.receiver() instanceof Expr.Name future)
        || future.qualifier() != null) {
      return false;
    }
    Expr walked = null; // what the future was taken from, when it is a loop's element
    for (Node child = call, p = analysis.parent(call);
        p != null;
        child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Loop loop
          && loop.variable() != null
          && loop.variable().name().equals(future.name())
          && child == loop.body()) {
        walked = loop.iterable();
      }
      if (!(p instanceof Expr.Lambda lambda)
          || !(analysis.parent(lambda) instanceof Expr.Call registering)) {
        continue;
      }
      if (registering.name().equals("forEach")
          && !lambda.params().isEmpty()
          && lambda.params().get(lambda.params().size() - 1).equals(future.name())) {
        walked = registering.receiver();
      } else if (lambda.params().contains(future.name())) {
        return false; // a parameter of another lambda: not the future named outside
      }
      if (!ON_COMPLETION.contains(registering.name())) {
        continue;
      }
      Expr stage = registering.receiver();
      if (stage instanceof Expr.Name own
          && own.name().equals(future.name())
          && walked == null
          && (!future.type().isKnown()
              || future.type().isSubtypeOf("java.util.concurrent.CompletableFuture"))) {
        return true; // the future's own callback; other futures' get() may check the flag first
      }
      if (stage instanceof Expr.Call all && isAllOf(all)) {
        for (Expr arg : all.args()) {
          if (walked == null
              ? arg instanceof Expr.Name named && named.name().equals(future.name())
              : sameSource(arg, walked)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean isAllOf(Expr.Call call) {
    return call.name().equals("allOf")
        && (call.isCallTo("java.util.concurrent.CompletableFuture", "allOf")
            || (call.receiver() instanceof Expr.Name type
                && type.name().equals("CompletableFuture")));
  }

  /**
   * Whether {@code given} (an argument of {@code allOf}: {@code map.values().toArray(..)}, {@code
   * list.toArray(..)}) and {@code walked} (what a loop walks: {@code map}, {@code map.values()},
   * {@code list}) come from the same variable.
   */
  private static boolean sameSource(Expr given, Expr walked) {
    String a = sourceName(given);
    return a != null && a.equals(sourceName(walked));
  }

  /** The variable under {@code .toArray(..)}, {@code .values()} and {@code .stream()} calls. */
  private static String sourceName(Expr expr) {
    Expr e = expr;
    while (e instanceof Expr.Call c
        && c.receiver() != null
        && (c.name().equals("toArray") || c.name().equals("values") || c.name().equals("stream"))) {
      e = c.receiver();
    }
    return e instanceof Expr.Name name && name.qualifier() == null ? name.name() : null;
  }
}
