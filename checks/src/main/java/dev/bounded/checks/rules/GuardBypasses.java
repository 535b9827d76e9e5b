package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;

/**
 * What an admission guard of {@link UnboundedExecutorRule} is tested through: a local that holds
 * the test ({@code boolean isNewRequest = requests.add(request); if (isNewRequest) ..}), and a
 * bypass beside it ({@code if (force || isNewRequest)}) that only dead code of the file sets.
 */
final class GuardBypasses {
  private GuardBypasses() {}

  /**
   * Where a guard is tested.
   *
   * @param analysis the analysis of the method being checked (for the unit)
   * @param method the method whose body holds the test
   */
  record Scope(MethodAnalysis analysis, MethodModel method) {}

  /**
   * The value of a local that is initialised once and never assigned again, or {@code null} (a
   * second declaration of the name, an assignment, or no initialiser).
   */
  static Expr soleValue(MethodModel method, Expr.Name local) {
    if (method.body() == null || local.qualifier() != null) {
      return null;
    }
    Expr value = null;
    int declarations = 0;
    for (Node n : Nodes.preOrder(method.body())) {
      if (n instanceof Stmt.LocalVar variable && variable.name().equals(local.name())) {
        declarations++;
        value = variable.init();
      } else if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && target.isVariable(local.name())) {
        return null;
      } else if (n instanceof Expr.Lambda lambda && lambda.params().contains(local.name())) {
        return null; // the name is also a lambda's parameter: which one is meant is unclear
      }
    }
    return declarations == 1 ? value : null;
  }

  /**
   * Whether a bypass of a guard is never set by live code: a {@code boolean} parameter of a private
   * method (not a constructor) that every call on the object itself passes as {@code false}, except
   * calls made in private methods that nothing in the file calls (dead code), also from an
   * anonymous class or lambda inside one. {@code submitConsumeRequest(request, false)} from the
   * API, and {@code submitConsumeRequest(request, true)} only from a {@code submitLater(..)}
   * nothing calls.
   */
  static boolean neverSet(Scope scope, Expr bypass) {
    MethodModel method = scope.method();
    if (!(bypass instanceof Expr.Name flag)
        || flag.kind() != Expr.NameKind.PARAMETER
        || flag.qualifier() != null
        || !method.isPrivate()
        || method.isConstructor()) {
      return false;
    }
    int index = -1;
    for (int i = 0; i < method.params().size(); i++) {
      if (method.params().get(i).name().equals(flag.name())) {
        index = i;
      }
    }
    if (index < 0) {
      return false;
    }
    MethodAnalysis analysis = scope.analysis();
    for (MethodModel caller : analysis.context().unit().methods()) {
      // Another class's method of the same name is not this one (a nested class's or an anonymous
      // class's may be).
      if (caller.body() == null || !UnboundedExecutorRule.isOf(caller, method.owner())) {
        continue;
      }
      for (Expr.Call call : Nodes.calls(caller.body())) {
        if (!call.name().equals(method.name())
            || call.args().size() != method.params().size()
            || !UnboundedExecutorRule.isOnItself(call)
            || isFalse(call.args().get(index))) {
          continue;
        }
        if (!inDeadCode(analysis, call)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean isFalse(Expr expr) {
    return expr instanceof Expr.Literal literal && Boolean.FALSE.equals(literal.value());
  }

  /**
   * Whether a call sits in a method that nothing in the file calls, also from an anonymous class or
   * a lambda inside one: some method whose source holds the call is dead.
   */
  private static boolean inDeadCode(MethodAnalysis analysis, Expr.Call call) {
    for (MethodModel method : analysis.context().unit().methods()) {
      if (method.span().contains(call.span()) && isDead(analysis, method)) {
        return true;
      }
    }
    return false;
  }

  /** A private method (not a constructor or initialiser) that nothing in its file calls. */
  private static boolean isDead(MethodAnalysis analysis, MethodModel method) {
    return method.isPrivate()
        && !method.isConstructor()
        && !method.name().equals(MethodModel.INITIALISERS)
        && !method.owner().isEmpty()
        && !UnboundedExecutorRule.calledInItsFile(analysis, method);
  }
}
