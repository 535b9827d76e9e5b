package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;

/**
 * A simplified form of the Java Language Specification's "can complete normally" (JLS 14.22),
 * enough to tell whether a catch clause ends by leaving or can fall through and go round again.
 * Conservative: when unsure, a statement can complete normally.
 */
public final class Flow {
  private Flow() {}

  /**
   * Tells whether control can reach the end of {@code stmt}.
   *
   * @param stmt a statement
   * @return {@code false} only if every path leaves abruptly (throw, return, break, continue)
   */
  public static boolean canCompleteNormally(Stmt stmt) {
    if (stmt == null) {
      return true;
    }
    if (stmt instanceof Stmt.Block block) {
      for (Stmt s : block.statements()) {
        if (!canCompleteNormally(s)) {
          return false;
        }
      }
      return true;
    }
    if (stmt instanceof Stmt.Return
        || stmt instanceof Stmt.Throw
        || stmt instanceof Stmt.Break
        || stmt instanceof Stmt.Continue) {
      return false;
    }
    if (stmt instanceof Stmt.If s) {
      return s.otherwise() == null
          || canCompleteNormally(s.then())
          || canCompleteNormally(s.otherwise());
    }
    if (stmt instanceof Stmt.Loop loop) {
      boolean infinite =
          loop.kind() != Stmt.LoopKind.FOR_EACH
              && (loop.condition() == null || isTrue(loop.condition()));
      return !infinite || hasBreakOut(loop);
    }
    if (stmt instanceof Stmt.Try t) {
      if (t.finallyBlock() != null && !canCompleteNormally(t.finallyBlock())) {
        return false;
      }
      if (canCompleteNormally(t.body())) {
        return true;
      }
      for (Stmt.Catch c : t.catches()) {
        if (canCompleteNormally(c.body())) {
          return true;
        }
      }
      return false;
    }
    if (stmt instanceof Stmt.Other other
        && other.description().equals("synchronized")
        && other.children().size() == 2
        && other.children().get(1) instanceof Stmt.Block body) {
      return canCompleteNormally(body);
    }
    return true;
  }

  /**
   * Tells whether a branch leaves on every path by a throw, a return or a break (not only by a
   * {@code continue}, which goes round again).
   *
   * @param branch a statement
   * @return {@code true} if no path completes normally and one throws, returns or breaks
   */
  public static boolean leaves(Stmt branch) {
    if (canCompleteNormally(branch)) {
      return false;
    }
    for (Node n : Nodes.sameFrame(branch)) {
      if (n instanceof Stmt.Throw || n instanceof Stmt.Return || n instanceof Stmt.Break) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tells whether an expression is the literal {@code true}.
   *
   * @param expr an expression
   * @return {@code true} for the literal
   */
  public static boolean isTrue(Expr expr) {
    return expr instanceof Expr.Literal literal && Boolean.TRUE.equals(literal.value());
  }

  /** Whether a break inside {@code loop} (not inside a nested loop or switch) leaves it. */
  private static boolean hasBreakOut(Stmt.Loop loop) {
    return hasBreakOut(loop.body(), loop.label(), true);
  }

  private static boolean hasBreakOut(Node node, String label, boolean direct) {
    if (node instanceof Stmt.Break b) {
      return b.label() == null ? direct : b.label().equals(label);
    }
    if (node instanceof Expr.Lambda) {
      return false;
    }
    boolean childDirect = direct && !(node instanceof Stmt.Loop) && !(node instanceof Stmt.Switch);
    for (Node child : node.children()) {
      if (hasBreakOut(child, label, childDirect)) {
        return true;
      }
    }
    return false;
  }
}
