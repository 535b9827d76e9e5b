package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import java.lang.ref.WeakReference;
import java.util.List;

/**
 * Builds each method's analysis once for all of Bounded's checkers, and only for methods that some
 * rule could report. Error Prone offers a method to every checker in turn, so a one-entry cache per
 * thread is hit by all but the first.
 */
final class AnalysisCache {
  // Weakly held: a finished compilation (its trees and javac context) must not stay reachable
  // from a long-lived thread such as a build daemon's. A collected entry is only a cache miss.
  private static final ThreadLocal<WeakReference<Entry>> LAST = new ThreadLocal<>();
  private static final ThreadLocal<WeakReference<SourceEntry>> SOURCE = new ThreadLocal<>();
  private static final ThreadLocal<WeakReference<JavacUnitIndex>> UNIT = new ThreadLocal<>();

  private record Entry(MethodTree method, MethodAnalysis analysis) {}

  private record SourceEntry(CompilationUnitTree unit, String source) {}

  private AnalysisCache() {}

  /**
   * Returns the method's analysis, or {@code null} when no rule could report anything in it.
   *
   * @param method a method with a body
   * @param state the visitor state at the method
   * @return the analysis, or {@code null}
   */
  static MethodAnalysis get(MethodTree method, VisitorState state) {
    Entry last = get(LAST);
    if (last != null && last.method() == method) {
      return last.analysis();
    }
    MethodAnalysis analysis = isRelevant(method) ? build(method, state) : null;
    LAST.set(new WeakReference<>(new Entry(method, analysis)));
    return analysis;
  }

  /**
   * Fast path: whether some rule could report anything in the method.
   *
   * @param method a method with a body
   * @return {@code false} if the method can be skipped
   */
  static boolean isRelevant(MethodTree method) {
    Relevance relevance = new Relevance();
    for (VariableTree param : method.getParameters()) {
      relevance.noteVariable(param);
    }
    relevance.scan(method.getBody(), null);
    return relevance.isRelevant();
  }

  /**
   * Returns the analysis of a field's initialiser, seen as a method whose body declares the field
   * as a local, or {@code null} when it configures no retry library's backoff (the only rule that
   * looks at field initialisers).
   *
   * @param field a field with an initialiser
   * @param state the visitor state at the field
   * @return the analysis, or {@code null}
   */
  static MethodAnalysis forFieldInitializer(VariableTree field, VisitorState state) {
    boolean[] configures = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        configures[0] |= CallNames.BACKOFF_CONFIGURATION.contains(Relevance.methodName(tree));
        return super.visitMethodInvocation(tree, null);
      }

      @Override
      public Void visitNewClass(NewClassTree tree, Void unused) {
        configures[0] |=
            CallNames.BACKOFF_CONFIGURATION.contains(Relevance.simpleName(tree.getIdentifier()));
        return super.visitNewClass(tree, null);
      }
    }.scan(field.getInitializer(), null);
    if (!configures[0]) {
      return null; /* Fast path: nothing a rule looks for. */
    }
    JavacTypes types = new JavacTypes(state);
    JavacModelBuilder builder = new JavacModelBuilder(state, types);
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    Span span = builder.span(field);
    MethodModel model =
        new MethodModel(
            span,
            field.getName().toString(),
            List.of(),
            List.of(),
            true,
            new Stmt.Block(span, List.of(builder.stmt(field))));
    return MethodAnalysis.of(
        model,
        new JavacSourceContext(
            () -> source(unit, state),
            state.findEnclosing(ClassTree.class),
            builder,
            types,
            () -> unitIndex(state)));
  }

  /**
   * Returns the index of the compilation unit being analysed, one per unit and thread.
   *
   * @param state the visitor state
   * @return the unit's index, built on its first question
   */
  static JavacUnitIndex unitIndex(VisitorState state) {
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    JavacUnitIndex cached = get(UNIT);
    if (cached != null && cached.unit() == unit) {
      return cached;
    }
    JavacUnitIndex index = new JavacUnitIndex(unit, state, () -> source(unit, state));
    UNIT.set(new WeakReference<>(index));
    return index;
  }

  private static <T> T get(ThreadLocal<WeakReference<T>> local) {
    WeakReference<T> ref = local.get();
    return ref == null ? null : ref.get();
  }

  private static MethodAnalysis build(MethodTree method, VisitorState state) {
    JavacTypes types = new JavacTypes(state);
    JavacModelBuilder builder = new JavacModelBuilder(state, types);
    ClassTree enclosing = state.findEnclosing(ClassTree.class);
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    return MethodAnalysis.of(
        builder.method(method),
        new JavacSourceContext(
            () -> source(unit, state), enclosing, builder, types, () -> unitIndex(state)));
  }

  /** The file's text, copied once per compilation unit and only when a rule asks for it. */
  private static String source(CompilationUnitTree unit, VisitorState state) {
    SourceEntry cached = get(SOURCE);
    if (cached != null && cached.unit() == unit) {
      return cached.source();
    }
    String source = state.getSourceCode().toString();
    SOURCE.set(new WeakReference<>(new SourceEntry(unit, source)));
    return source;
  }

  /**
   * Fast path: whether the method holds anything a rule could report on. It does if it catches
   * {@code InterruptedException} (anywhere), or if a loop (or a {@code forEach} lambda) holds a
   * catch clause, a sleep, or a submission to an executor: the only places retry loops and
   * unbounded submissions can be. Outside loops: an executor created, a retry library's backoff
   * configured, or an untimed wait after a deadline or timeout came into scope.
   */
  private static final class Relevance extends TreeScanner<Void, Void> {
    private int loopDepth;
    private boolean relevant;
    private boolean timeoutInScope;

    /** A parameter or local that holds a deadline or timeout makes untimed waits reportable. */
    void noteVariable(VariableTree variable) {
      if (CallNames.isTimeoutName(variable.getName().toString())
          || (variable.getType() != null
              && CallNames.TIMEOUT_TYPES.contains(simpleName(variable.getType())))) {
        timeoutInScope = true;
      }
    }

    @Override
    public Void visitVariable(VariableTree tree, Void unused) {
      noteVariable(tree);
      return super.visitVariable(tree, null);
    }

    @Override
    public Void visitNewClass(NewClassTree tree, Void unused) {
      String type = simpleName(tree.getIdentifier());
      if (CallNames.EXECUTOR_CLASSES.contains(type)
          || CallNames.BACKOFF_CONFIGURATION.contains(type)) {
        relevant = true;
        return null;
      }
      return super.visitNewClass(tree, null);
    }

    static String simpleName(Tree type) {
      if (type instanceof ParameterizedTypeTree generic) {
        type = generic.getType();
      }
      if (type instanceof MemberSelectTree member) {
        return member.getIdentifier().toString();
      }
      return type instanceof IdentifierTree id ? id.getName().toString() : "";
    }

    boolean isRelevant() {
      return relevant;
    }

    @Override
    public Void scan(Tree tree, Void unused) {
      if (tree == null || relevant) {
        return null; /* Fast path: already decided, or nothing here. */
      }
      return switch (tree.getKind()) {
        case FOR_LOOP, ENHANCED_FOR_LOOP, WHILE_LOOP, DO_WHILE_LOOP -> {
          loopDepth++;
          super.scan(tree, null);
          loopDepth--;
          yield null;
        }
        case CLASS -> null;
        // analysed as its own methods
        default -> super.scan(tree, null);
      };
    }

    @Override
    public Void visitCatch(CatchTree tree, Void unused) {
      // By the name as written: cheap, and a catch of Exception matters only inside loops.
      Tree type = tree.getParameter().getType();
      if (loopDepth > 0 || (type != null && mentionsInterruptedException(type))) {
        relevant = true;
        return null;
      }
      return super.visitCatch(tree, null);
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
      String name = methodName(tree);
      if ((loopDepth > 0 && isLoopSignal(name))
          || CallNames.EXECUTOR_FACTORIES.contains(name)
          || CallNames.BACKOFF_CONFIGURATION.contains(name)
          || (timeoutInScope
              && Integer.valueOf(tree.getArguments().size())
                  .equals(CallNames.UNTIMED_WAITS.get(name)))) {
        relevant = true;
        return null;
      }
      if ((name.equals("forEach") || name.equals("forEachOrdered"))
          && tree.getArguments().size() == 1
          && tree.getArguments().get(0) instanceof LambdaExpressionTree) {
        scan(tree.getMethodSelect(), null);
        loopDepth++;
        scan(tree.getArguments().get(0), null);
        loopDepth--;
        return null;
      }
      return super.visitMethodInvocation(tree, null);
    }

    /** A call that makes a loop worth analysing even without a catch clause. */
    private static boolean isLoopSignal(String name) {
      return CallNames.SLEEPS.contains(name)
          || CallNames.SUBMISSIONS.contains(name)
          || CallNames.ASYNC_STARTS.contains(name);
    }

    static String methodName(MethodInvocationTree tree) {
      Tree select = tree.getMethodSelect();
      if (select instanceof MemberSelectTree member) {
        return member.getIdentifier().toString();
      }
      return select instanceof IdentifierTree id ? id.getName().toString() : "";
    }

    private static boolean mentionsInterruptedException(Tree type) {
      boolean[] found = {false};
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitIdentifier(IdentifierTree node, Void unused) {
          found[0] |= node.getName().contentEquals("InterruptedException");
          return null;
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree node, Void unused) {
          found[0] |= node.getIdentifier().contentEquals("InterruptedException");
          return super.visitMemberSelect(node, null);
        }
      }.scan(type, null);
      return found[0];
    }
  }
}
