package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Traversals of the model. */
public final class Nodes {
  private Nodes() {}

  /**
   * Returns {@code root} and every node below it, in source order, without entering the subtrees
   * for which {@code enter} says no (those roots are still returned).
   *
   * @param root where to start
   * @param enter whether to descend into a node's children
   * @return the nodes, pre-order
   */
  public static List<Node> preOrder(Node root, Predicate<Node> enter) {
    List<Node> out = new ArrayList<>();
    Deque<Node> stack = new ArrayDeque<>();
    stack.push(root);
    while (!stack.isEmpty()) {
      Node node = stack.pop();
      out.add(node);
      if (enter.test(node)) {
        List<? extends Node> children = node.children();
        for (int i = children.size() - 1; i >= 0; i--) {
          stack.push(children.get(i));
        }
      }
    }
    return out;
  }

  /**
   * Returns {@code root} and everything below it, entering every node.
   *
   * @param root where to start
   * @return the nodes, pre-order
   */
  public static List<Node> preOrder(Node root) {
    return preOrder(root, n -> true);
  }

  /**
   * Returns the nodes below {@code root} that run where {@code root} runs: lambda bodies are not
   * entered (they run later, elsewhere).
   *
   * @param root where to start
   * @return the nodes, pre-order
   */
  public static List<Node> sameFrame(Node root) {
    return preOrder(root, n -> n == root || !(n instanceof Expr.Lambda));
  }

  /**
   * Tells whether {@code expr} mentions the local variable or parameter {@code variable}.
   *
   * @param expr an expression (or statement)
   * @param variable a variable name
   * @return {@code true} if a {@link Expr.Name} below refers to it
   */
  public static boolean mentions(Node expr, String variable) {
    for (Node n : preOrder(expr)) {
      if (n instanceof Expr.Name name && name.isVariable(variable)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tells whether code reads a variable or field of that name, in the same frame (not inside
   * lambdas): any unqualified or qualified {@link Expr.Name} so called.
   *
   * @param root where to look
   * @param name the name
   * @return {@code true} if a name below is it
   */
  public static boolean readsName(Node root, String name) {
    for (Node n : sameFrame(root)) {
      if (n instanceof Expr.Name read && read.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns every call below {@code root} in the same frame (not inside lambdas).
   *
   * @param root where to look
   * @return the calls, in source order
   */
  public static List<Expr.Call> calls(Node root) {
    List<Expr.Call> calls = new ArrayList<>();
    for (Node n : sameFrame(root)) {
      if (n instanceof Expr.Call call) {
        calls.add(call);
      }
    }
    return calls;
  }

  /**
   * Tells whether a call is a static call on a type of this simple or qualified name, or a call
   * whose declaring type has that qualified name: {@code Thread.sleep}, {@code Executors.x}.
   *
   * @param call a call
   * @param qualifiedType the type's qualified name
   * @return {@code true} if the call is made on that type
   */
  public static boolean isStaticCallOn(Expr.Call call, String qualifiedType) {
    if (call.method().resolved()) {
      return call.method().isStatic() && call.method().owner().name().equals(qualifiedType);
    }
    if (call.receiver() instanceof Expr.Name name && name.kind() == Expr.NameKind.TYPE) {
      String simple = qualifiedType.substring(qualifiedType.lastIndexOf('.') + 1);
      return name.type().name().equals(qualifiedType)
          || (!name.type().isKnown() && name.name().equals(simple));
    }
    return false;
  }

  /**
   * Returns the literal string value of an expression, or {@code null}.
   *
   * @param expr an expression
   * @return the string if {@code expr} is a string literal
   */
  public static String stringLiteral(Expr expr) {
    return expr instanceof Expr.Literal literal && literal.value() instanceof String s ? s : null;
  }

  /**
   * Returns the names the nodes give a value to: locals they declare and names they assign, with
   * any operator ({@code x = ..}, {@code x -= ..}, {@code this.x = ..}).
   *
   * @param nodes nodes, such as a loop's level
   * @return the names set there
   */
  public static Set<String> namesSet(Iterable<Node> nodes) {
    Set<String> names = new HashSet<>();
    for (Node n : nodes) {
      if (n instanceof Stmt.LocalVar local) {
        names.add(local.name());
      } else if (n instanceof Expr.Assign assign && assign.target() instanceof Expr.Name target) {
        names.add(target.name());
      }
    }
    return names;
  }
}
