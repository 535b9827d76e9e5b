package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How many attempts a retry makes, when the code says so with a constant: {@code for (int i = 0; i
 * < 3; i++)}, {@code if (++attempts > 5) throw e}, a field {@code MAX_RETRIES = 3}, a retry
 * library's {@code maxAttempts(3)}. Used to state the worst case of nested retries.
 */
public final class Attempts {
  /** Builder calls that set a total number of attempts. */
  private static final Set<String> MAX_ATTEMPTS =
      Set.of("maxAttempts", "withMaxAttempts", "setMaxAttempts");

  /** Builder calls that set a number of retries after the first attempt. */
  private static final Set<String> MAX_RETRIES =
      Set.of("withMaxRetries", "maxRetries", "setMaxRetries", "retries", "numRetries");

  private Attempts() {}

  /**
   * Returns the most attempts a retry loop makes.
   *
   * @param analysis the method's analysis
   * @param loop a retry loop of that method
   * @return the cap, or 0 when it is not a constant the code states
   */
  public static int of(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() == LoopInfo.Kind.FOR
        && loop.init().size() == 1
        && loop.init().get(0) instanceof Stmt.LocalVar counter
        && loop.condition() instanceof Expr.Binary condition
        && condition.left() instanceof Expr.Name name
        && name.isVariable(counter.name())) {
      int start = constant(analysis, counter.init(), 0);
      int end = constant(analysis, condition.right(), 0);
      if (start >= 0 && end > 0) {
        int cap =
            switch (condition.operator()) {
              case "<" -> end - start;
              case "<=" -> end - start + 1;
              default -> 0;
            };
        if (cap > 0) {
          return cap;
        }
      }
    }
    Set<String> counters = new HashSet<>();
    List<Node> level = analysis.loopLevel(loop);
    for (Node n : level) {
      if (n instanceof Expr.Unary unary
          && unary.operator().equals("++")
          && unary.operand() instanceof Expr.Name name) {
        counters.add(name.name());
      } else if (n instanceof Expr.Assign assign
          && assign.operator().equals("+=")
          && assign.target() instanceof Expr.Name name) {
        counters.add(name.name());
      }
    }
    for (Node n : level) {
      if (n instanceof Expr.Binary binary && mentionsAny(binary.left(), counters)) {
        int cap = constant(analysis, binary.right(), 0);
        if (cap > 0) {
          return cap;
        }
      }
    }
    return 0;
  }

  /**
   * Returns the attempts a retry library's policy makes, from the builder chain that made it:
   * {@code maxAttempts(3)} makes 3, {@code withMaxRetries(2)} makes 3.
   *
   * @param analysis the method's analysis
   * @param policy an expression giving the policy (a chain, or a local or field holding one)
   * @return the attempts, or 0 when unknown
   */
  public static int ofPolicy(MethodAnalysis analysis, Expr policy) {
    return ofPolicy(analysis, policy, 0);
  }

  private static int ofPolicy(MethodAnalysis analysis, Expr policy, int depth) {
    if (depth > 3) {
      return 0;
    }
    for (Expr origin : analysis.origins(policy)) {
      for (Expr e = origin; e instanceof Expr.Call call; e = call.receiver()) {
        if (call.name().equals("with") && call.args().size() == 1) {
          int n = ofPolicy(analysis, call.args().get(0), depth + 1); // Failsafe.with(policy)
          if (n > 0) {
            return n;
          }
        }
        if (call.args().size() == 1) {
          int n = constant(analysis, call.args().get(0), 0);
          if (n > 0 && MAX_ATTEMPTS.contains(call.name())) {
            return n;
          }
          if (n >= 0 && MAX_RETRIES.contains(call.name())) {
            return n + 1;
          }
        }
      }
    }
    return 0;
  }

  /** An int constant: a literal, a local's only value, or a field's value in the same class. */
  static int constant(MethodAnalysis analysis, Expr expr, int depth) {
    if (expr instanceof Expr.Literal literal && literal.value() instanceof Integer value) {
      return value;
    }
    if (expr instanceof Expr.Literal literal && literal.value() instanceof Long value) {
      return value > Integer.MAX_VALUE ? -1 : value.intValue();
    }
    if (expr instanceof Expr.Name && depth < 3) {
      List<Expr> origins = analysis.origins(expr);
      if (origins.size() == 1 && origins.get(0) != expr) {
        return constant(analysis, origins.get(0), depth + 1);
      }
    }
    return -1;
  }

  private static boolean mentionsAny(Expr expr, Set<String> names) {
    for (Node n : Nodes.preOrder(expr)) {
      if (n instanceof Expr.Name name && names.contains(name.name())) {
        return true;
      }
    }
    return false;
  }
}
