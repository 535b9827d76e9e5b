package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import dev.bounded.checks.analysis.MethodAnalysis;

/**
 * Builds each method's analysis once for all of Bounded's checkers. Error Prone offers a method to
 * every checker in turn, so a one-entry cache per thread is hit by all but the first.
 */
final class AnalysisCache {
  private static final ThreadLocal<Entry> LAST = new ThreadLocal<>();

  private record Entry(MethodTree method, MethodAnalysis analysis) {}

  private AnalysisCache() {}

  /**
   * Returns the method's analysis, or {@code null} when it has nothing any rule looks at.
   *
   * @param method a method with a body
   * @param state the visitor state at the method
   * @return the analysis, or {@code null}
   */
  static MethodAnalysis get(MethodTree method, VisitorState state) {
    Entry last = LAST.get();
    if (last != null && last.method() == method) {
      return last.analysis();
    }
    MethodAnalysis analysis =
        Boolean.TRUE.equals(RELEVANT.scan(method.getBody(), null)) ? build(method, state) : null;
    LAST.set(new Entry(method, analysis));
    return analysis;
  }

  private static MethodAnalysis build(MethodTree method, VisitorState state) {
    JavacTypes types = new JavacTypes(state);
    JavacModelBuilder builder = new JavacModelBuilder(state, types);
    ClassTree enclosing = state.findEnclosing(ClassTree.class);
    String source = state.getSourceCode().toString();
    return MethodAnalysis.of(
        builder.method(method), new JavacSourceContext(source, enclosing, builder, types));
  }

  /** Fast path: does the body hold a loop, a catch clause or a forEach lambda at all? */
  private static final TreeScanner<Boolean, Void> RELEVANT =
      new TreeScanner<>() {
        @Override
        public Boolean scan(Tree tree, Void unused) {
          if (tree == null) {
            return false;
          }
          switch (tree.getKind()) {
            case FOR_LOOP:
            case ENHANCED_FOR_LOOP:
            case WHILE_LOOP:
            case DO_WHILE_LOOP:
            case CATCH:
              return true;
            case CLASS:
              return false; // analysed as its own methods
            default:
              break;
          }
          if (tree instanceof MethodInvocationTree call
              && call.getArguments().size() == 1
              && call.getArguments().get(0) instanceof LambdaExpressionTree
              && call.getMethodSelect().toString().endsWith("forEach")) {
            return true;
          }
          return super.scan(tree, unused);
        }

        @Override
        public Boolean reduce(Boolean a, Boolean b) {
          return Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b);
        }
      };
}
