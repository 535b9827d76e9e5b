package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import dev.bounded.checks.analysis.Attempts;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.UnitIndex;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The compiler frontend's {@link UnitIndex}: which methods of one compilation unit retry, keyed by
 * declaring class, name and number of parameters. Built on the first question and only for methods
 * the fast path finds worth analysing; one per compilation unit.
 */
final class JavacUnitIndex implements UnitIndex {
  private final CompilationUnitTree unit;
  private final VisitorState state;
  private final Supplier<String> source;
  private Set<String> classes;
  private Map<String, RetryingMethod> retrying;

  JavacUnitIndex(CompilationUnitTree unit, VisitorState state, Supplier<String> source) {
    this.unit = unit;
    this.state = state;
    this.source = source;
  }

  CompilationUnitTree unit() {
    return unit;
  }

  @Override
  public RetryingMethod retryingMethod(Expr.Call call) {
    if (!call.method().resolved()) {
      return null;
    }
    if (classes == null) {
      classes = declaredClasses();
    }
    String owner = call.method().owner().name();
    if (!classes.contains(owner)) {
      return null; /* Fast path: not a method of this compilation unit. */
    }
    if (retrying == null) {
      retrying = index();
    }
    return retrying.get(key(owner, call.name(), call.args().size()));
  }

  private static String key(String owner, String name, int arity) {
    return owner + "#" + name + "/" + arity;
  }

  private Set<String> declaredClasses() {
    Set<String> names = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitClass(ClassTree tree, Void unused) {
        Symbol.ClassSymbol symbol = ASTHelpers.getSymbol(tree);
        if (symbol != null) {
          names.add(symbol.getQualifiedName().toString());
        }
        return super.visitClass(tree, null);
      }
    }.scan(unit, null);
    return names;
  }

  private Map<String, RetryingMethod> index() {
    Map<String, RetryingMethod> found = new HashMap<>();
    JavacTypes types = new JavacTypes(state);
    JavacModelBuilder builder = new JavacModelBuilder(state, types);
    new TreeScanner<Void, ClassTree>() {
      @Override
      public Void visitClass(ClassTree tree, ClassTree enclosing) {
        return super.visitClass(tree, tree);
      }

      @Override
      public Void visitMethod(MethodTree tree, ClassTree enclosing) {
        Symbol.MethodSymbol symbol = ASTHelpers.getSymbol(tree);
        if (tree.getBody() != null
            && symbol != null
            && enclosing != null
            && AnalysisCache.isRelevant(tree)) {
          MethodAnalysis analysis =
              MethodAnalysis.of(
                  builder.method(tree), new JavacSourceContext(source, enclosing, builder, types));
          RetryingMethod method = Attempts.retryingMethod(analysis);
          if (method != null) {
            String owner = symbol.owner.getQualifiedName().toString();
            found.merge(
                key(owner, tree.getName().toString(), tree.getParameters().size()),
                method,
                (a, b) -> a.attempts() >= b.attempts() ? a : b);
          }
        }
        return super.visitMethod(tree, enclosing);
      }
    }.scan(unit, null);
    return found;
  }
}
