package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.Node;
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
import com.github.javaparser.ast.stmt.WhileStmt;
import dev.bounded.checks.analysis.CallNames;

/**
 * Fast path, as the compiler frontend's: whether a method body holds anything a rule could report
 * on. It does if it catches {@code InterruptedException} (anywhere), or if a loop (or a {@code
 * forEach} lambda) holds a catch clause, a sleep, or a submission to an executor. Nested classes
 * are analysed as their own methods.
 */
final class Relevance {
  private Relevance() {}

  static boolean isRelevant(Node body) {
    return scan(body, 0);
  }

  private static boolean scan(Node node, int loopDepth) {
    if (node instanceof TypeDeclaration<?>
        || node instanceof LocalClassDeclarationStmt
        || node instanceof LocalRecordDeclarationStmt) {
      return false;
    }
    if (node instanceof CatchClause c) {
      String type = c.getParameter().getType().asString();
      if (loopDepth > 0 || type.contains("InterruptedException")) {
        return true;
      }
    }
    if (node instanceof MethodCallExpr call) {
      String name = call.getNameAsString();
      if (loopDepth > 0
          && (CallNames.SLEEPS.contains(name)
              || CallNames.SUBMISSIONS.contains(name)
              || CallNames.ASYNC_STARTS.contains(name))) {
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
      if (node instanceof ObjectCreationExpr o
          && o.getAnonymousClassBody().isPresent()
          && child instanceof com.github.javaparser.ast.body.BodyDeclaration<?>) {
        continue; // an anonymous class body: its methods are analysed on their own
      }
      if (scan(child, depth)) {
        return true;
      }
    }
    return false;
  }
}
