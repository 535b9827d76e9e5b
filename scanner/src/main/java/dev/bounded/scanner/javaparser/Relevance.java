package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.LocalClassDeclarationStmt;
import com.github.javaparser.ast.stmt.LocalRecordDeclarationStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import dev.bounded.checks.analysis.CallNames;
import java.util.function.Predicate;

/**
 * Fast path, the compiler frontend's ({@code AnalysisCache.Relevance}) on javaparser trees: whether
 * code holds anything a rule could report on. It does if it catches an interrupt type (anywhere);
 * if a loop (or a {@code forEach} lambda) holds a catch clause, a sleep, or a submission to an
 * executor; if a catch clause calls the method itself (a retry by recursion); if a broad catch
 * guards a call that may wait interruptibly; or if it creates an executor. Nested classes are
 * analysed on their own.
 */
final class Relevance {
  private final String methodName;

  private Relevance(String methodName) {
    this.methodName = methodName;
  }

  /**
   * Tells whether a method body, or a class's initialisers, may hold a finding.
   *
   * @param code a method body, a field initialiser or an initialiser block
   * @param methodName the method's name ({@code <init>} for constructors), empty for initialisers
   * @return {@code true} if the rules should see it
   */
  static boolean isRelevant(Node code, String methodName) {
    return new Relevance(methodName).scan(code, 0);
  }

  private boolean scan(Node node, int loopDepth) {
    if (node instanceof TypeDeclaration<?>
        || node instanceof LocalClassDeclarationStmt
        || node instanceof LocalRecordDeclarationStmt) {
      return false;
    }
    if (node instanceof TryStmt t) {
      for (CatchClause clause : t.getCatchClauses()) {
        // By the names as written: cheap; the rules decide with types.
        Type type = clause.getParameter().getType();
        if (loopDepth > 0
            || mentions(type, CallNames.INTERRUPT_TYPES::contains)
            || (!methodName.isEmpty() && calls(clause.getBody(), methodName::equals))
            || (mentions(type, CallNames.BROAD_CATCHES::contains)
                && calls(t.getTryBlock(), CallNames.INTERRUPTIBLE_WAITS::contains))) {
          return true;
        }
      }
    }
    if (node instanceof ObjectCreationExpr o
        && mentions(o.getType(), CallNames.EXECUTOR_CLASSES::contains)) {
      return true;
    }
    if (node instanceof MethodCallExpr call) {
      String name = call.getNameAsString();
      if ((loopDepth > 0
              && (CallNames.SLEEPS.contains(name)
                  || CallNames.SUBMISSIONS.contains(name)
                  || CallNames.ASYNC_STARTS.contains(name)))
          || CallNames.EXECUTOR_FACTORIES.contains(name)) {
        return true;
      }
      if ((name.equals("forEach") || name.equals("forEachOrdered"))
          && call.getArguments().size() == 1
          && call.getArgument(0) instanceof LambdaExpr lambda) {
        if (call.getScope().isPresent() && scan(call.getScope().get(), loopDepth)) {
          return true;
        }
        return scan(lambda, loopDepth + 1);
      }
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
      if (scan(child, depth)) {
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
