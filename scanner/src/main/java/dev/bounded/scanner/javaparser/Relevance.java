package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.LocalClassDeclarationStmt;
import com.github.javaparser.ast.stmt.LocalRecordDeclarationStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import dev.bounded.checks.analysis.CallNames;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Fast path on javaparser trees: whether code may hold anything a rule could report on. It is a
 * superset of the compiler frontend's ({@code AnalysisCache.Relevance}), so that the two frontends
 * analyse the same methods whatever that one's finer tests (the parity test then compares the
 * rules, not the fast paths): any catch clause; a loop or a {@code forEach} lambda holding a sleep,
 * a submission or a call of a method of the class (an attempt helper that may catch its own
 * failure); an executor created; a call that configures backoff, runs a retry library, or may wait
 * without a timeout; a lambda handed to a method of the class; a call of the method itself; a sleep
 * for a local or an own method's result; a delay grown ({@code *=}, {@code <<=}, {@code <<}, {@code
 * pow}, a product with a value named as a multiplier); an {@code &&} comparing with a cap on
 * attempts (a give-up test that may be off by default). Nested classes are analysed on their own.
 */
final class Relevance {
  private Relevance() {}

  /**
   * Tells whether a method body, or a class's initialisers, may hold a finding.
   *
   * @param code a method body, a field initialiser or an initialiser block
   * @return {@code true} if the rules should see it
   */
  static boolean isRelevant(Node code) {
    String self =
        code.getParentNode().orElse(null) instanceof MethodDeclaration method
            ? method.getNameAsString()
            : null;
    if (code.getParentNode().orElse(null) instanceof MethodDeclaration method
        && method.getParameters().stream().anyMatch(p -> isFailureType(p.getTypeAsString()))
        && code.findFirst(
                MethodCallExpr.class,
                c ->
                    c.getArguments().stream()
                        .anyMatch(a -> a instanceof ThisExpr t && t.getTypeName().isEmpty()))
            .isPresent()) {
      return true; // a callback handing itself to the operation again: send(.., this)
    }
    return scan(code, 0, self);
  }

  /** A value named as a backoff's multiplier ({@code backOffMultiplier}). */
  private static boolean isMultiplier(Expression operand) {
    String name =
        operand instanceof NameExpr id
            ? id.getNameAsString()
            : operand instanceof FieldAccessExpr field ? field.getNameAsString() : null;
    return name != null && name.toLowerCase(Locale.ROOT).contains("multiplier");
  }

  /** {@code failures >= maxReconnectAttempts}: an ordering with a name of an attempt cap. */
  private static boolean comparesWithCap(Expression operand) {
    Expression tested = operand;
    while (tested instanceof EnclosedExpr enclosed) {
      tested = enclosed.getInner();
    }
    if (!(tested instanceof BinaryExpr compared)) {
      return false;
    }
    return switch (compared.getOperator()) {
      case LESS, LESS_EQUALS, GREATER, GREATER_EQUALS ->
          isCapName(compared.getLeft()) || isCapName(compared.getRight());
      default -> false;
    };
  }

  private static boolean isCapName(Expression operand) {
    String name =
        operand instanceof NameExpr id
            ? id.getNameAsString()
            : operand instanceof FieldAccessExpr field ? field.getNameAsString() : null;
    return name != null && CallNames.isAttemptCapName(name);
  }

  private static boolean isFailureType(String written) {
    String simple = written.substring(written.lastIndexOf('.') + 1);
    return simple.endsWith("Exception") || simple.endsWith("Error") || simple.equals("Throwable");
  }

  private static boolean scan(Node node, int loopDepth, String self) {
    if (node instanceof TypeDeclaration<?>
        || node instanceof LocalClassDeclarationStmt
        || node instanceof LocalRecordDeclarationStmt) {
      return false;
    }
    if (node instanceof TryStmt t) {
      if (!t.getCatchClauses().isEmpty()) {
        return true; // any catch clause: the compiler's finer tests are its own
      }
    }
    if (node instanceof ObjectCreationExpr o
        && (mentions(o.getType(), CallNames.OWNED_EXECUTOR_CLASSES::contains)
            || mentions(o.getType(), CallNames.FOREVER_POLICY_CLASSES::contains)
            || mentions(o.getType(), CallNames.EXECUTOR_CLASSES::contains)
            || mentions(o.getType(), CallNames.THREAD_PER_TASK_CLASSES::contains)
            || mentions(o.getType(), CallNames.BACKOFF_CONFIGURATION::contains))) {
      return true;
    }
    if ((node instanceof AssignExpr assign
            && (assign.getOperator() == AssignExpr.Operator.MULTIPLY
                || assign.getOperator() == AssignExpr.Operator.LEFT_SHIFT))
        || (node instanceof BinaryExpr binary
            && binary.getOperator() == BinaryExpr.Operator.LEFT_SHIFT)
        || (node instanceof BinaryExpr product
            && product.getOperator() == BinaryExpr.Operator.MULTIPLY
            && (isMultiplier(product.getLeft()) || isMultiplier(product.getRight())))
        || (node instanceof MethodCallExpr pow && pow.getNameAsString().equals("pow"))) {
      return true; // a delay grown per failure: a backoff
    }
    if (node instanceof BinaryExpr and
        && and.getOperator() == BinaryExpr.Operator.AND
        && (comparesWithCap(and.getLeft()) || comparesWithCap(and.getRight()))) {
      return true; // maxRetries > 0 && failures >= maxRetries: a give-up test, maybe off by default
    }
    if (node instanceof MethodCallExpr call) {
      String name = call.getNameAsString();
      if (name.equals(self)) {
        return true; // a recursion: it may hand its own timeout on
      }
      if (call.getScope().isPresent()
          && call.getArguments().stream().anyMatch(LambdaExpr.class::isInstance)
          && call.getScope().get().toString().toLowerCase(Locale.ROOT).contains("retr")) {
        return true; // an operation handed to a retry engine: retryTemplate.execute(() -> ..)
      }
      if (CallNames.isForeverPolicyCall(name) || CallNames.RETRY_ATTEMPT_SETTERS.contains(name)) {
        return true; // a retry policy that never gives up: retryForeverNoSleep()
      }
      if (loopDepth > 0 && call.getScope().map(ThisExpr.class::isInstance).orElse(true)) {
        return true; // an attempt helper of the class, which may catch its own failure
      }
      if (CallNames.SLEEPS.contains(name)
          && call.getArguments().isNonEmpty()
          && (call.getArgument(0) instanceof NameExpr
              || (call.getArgument(0) instanceof MethodCallExpr delay
                  && delay.getScope().map(ThisExpr.class::isInstance).orElse(true)))) {
        return true; // a wait for a delay another method of the class may grow per failure
      }
      if (call.getArguments().stream().anyMatch(LambdaExpr.class::isInstance)
          && CallNames.isRetryHelperName(name)) {
        return true; // an operation handed to a retrying helper: retry(attempt -> ..)
      }
      if (call.getArguments().stream().anyMatch(LambdaExpr.class::isInstance)
          && call.getScope().map(ThisExpr.class::isInstance).orElse(true)) {
        return true; // an operation handed to a helper of the class: execute(() -> ..)
      }
      if ((loopDepth > 0
              && (CallNames.SLEEPS.contains(name)
                  || CallNames.TIMED_WAITS.contains(name)
                  || CallNames.SUBMISSIONS.contains(name)
                  || CallNames.ASYNC_STARTS.contains(name)))
          || CallNames.isDelayedSchedule(name)
          || CallNames.PERIODIC_SCHEDULES.contains(name)
          || CallNames.isResubmission(name)
          || CallNames.COMPLETION_CALLBACKS.contains(name)
          || CallNames.FAILURE_CALLBACKS.contains(name)
          || CallNames.EXECUTOR_FACTORIES.contains(name)
          || CallNames.OWNED_EXECUTOR_FACTORIES.contains(name)
          || CallNames.BACKOFF_CONFIGURATION.contains(name)
          || CallNames.RETRY_CALLS.contains(name)
          || CallNames.UNTIMED_WAITS.containsKey(name)) {
        return true;
      }
      if ((name.equals("forEach") || name.equals("forEachOrdered"))
          && call.getArguments().size() == 1
          && call.getArgument(0) instanceof LambdaExpr lambda) {
        if (call.getScope().isPresent() && scan(call.getScope().get(), loopDepth, self)) {
          return true;
        }
        return scan(lambda, loopDepth + 1, self);
      }
    }
    if (node instanceof ForEachStmt walk
        && (CallNames.isNodeName(walk.getVariable().toString())
            || CallNames.isNodeName(walk.getIterable().toString()))
        && (walk.getBody().findFirst(BreakStmt.class).isPresent()
            || walk.getBody().findFirst(ReturnStmt.class).isPresent())) {
      return true; // a walk over nodes that may leave once one answers: a failover by result
    }
    int depth = loopDepth;
    if (node instanceof ForStmt
        || node instanceof ForEachStmt
        || node instanceof WhileStmt
        || node instanceof DoStmt) {
      depth++;
    }
    for (Node child : node.getChildNodes()) {
      if (node instanceof ObjectCreationExpr && child instanceof BodyDeclaration<?>) {
        continue; // an anonymous class body: its methods are analysed on their own
      }
      if (scan(child, depth, self)) {
        return true;
      }
    }
    return false;
  }

  /** Whether code calls a method whose name passes the test (lambdas and classes skipped). */
  private static boolean calls(Node code, Predicate<String> name) {
    if (code instanceof LambdaExpr
        || code instanceof TypeDeclaration<?>
        || code instanceof LocalClassDeclarationStmt
        || code instanceof LocalRecordDeclarationStmt) {
      return false;
    }
    if (code instanceof MethodCallExpr call && name.test(call.getNameAsString())) {
      return true;
    }
    for (Node child : code.getChildNodes()) {
      if (code instanceof ObjectCreationExpr && child instanceof BodyDeclaration<?>) {
        continue;
      }
      if (calls(child, name)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a type as written names a type whose simple name passes the test. */
  private static boolean mentions(Type type, Predicate<String> simpleName) {
    boolean[] found = {false};
    type.walk(ClassOrInterfaceType.class, t -> found[0] |= simpleName.test(t.getNameAsString()));
    return found[0];
  }
}
