package dev.bounded.checks.model;

import java.util.List;

/**
 * A node of the model: a statement, an expression or a catch clause, with its source span. The
 * model keeps only what rules need; constructs it does not describe become {@link Stmt.Other} or
 * {@link Expr.Other} nodes that still expose their children.
 */
public sealed interface Node permits Stmt, Expr, Stmt.Catch {

  /**
   * Returns where the node is in the source.
   *
   * @return its span, or {@link Span#NONE}
   */
  Span span();

  /**
   * Returns the node's direct children, in source order.
   *
   * @return the children; empty for leaves
   */
  List<? extends Node> children();
}
