package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.MethodModel;
import java.lang.ref.WeakReference;
import java.util.function.Predicate;

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

  private record Entry(Tree tree, MethodAnalysis analysis) {}

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
    if (last != null && last.tree() == method) {
      return last.analysis();
    }
    Relevance relevance = new Relevance(method.getName().toString());
    for (VariableTree param : method.getParameters()) {
      relevance.noteVariable(param);
    }
    relevance.scan(method.getBody(), null);
    MethodAnalysis analysis = null;
    if (relevance.isRelevant()) {
      JavacUnitIndex unit = unit(state);
      MethodModel model = unit.model(method, state.findEnclosing(ClassTree.class));
      analysis = MethodAnalysis.of(model, unit.contextOf(model));
    }
    LAST.set(new WeakReference<>(new Entry(method, analysis)));
    return analysis;
  }

  /**
   * Returns the analysis of a class's field initialisers and initialiser blocks, or {@code null}
   * when no rule could report anything in them.
   *
   * @param tree a class
   * @param state the visitor state at the class
   * @return the analysis, or {@code null}
   */
  static MethodAnalysis initialisers(ClassTree tree, VisitorState state) {
    Entry last = get(LAST);
    if (last != null && last.tree() == tree) {
      return last.analysis();
    }
    Relevance relevance = new Relevance("");
    for (Tree member : tree.getMembers()) {
      if (member instanceof VariableTree field && field.getInitializer() != null) {
        relevance.scan(field.getInitializer(), null);
      } else if (member instanceof BlockTree block) {
        relevance.scan(block, null);
      }
    }
    MethodAnalysis analysis = null;
    if (relevance.isRelevant()) {
      JavacUnitIndex unit = unit(state);
      MethodModel model = unit.initialisers(tree);
      analysis = MethodAnalysis.of(model, unit.contextOf(model));
    }
    LAST.set(new WeakReference<>(new Entry(tree, analysis)));
    return analysis;
  }

  /** The index of the compilation unit being analysed, made once per unit. */
  private static JavacUnitIndex unit(VisitorState state) {
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    JavacUnitIndex cached = get(UNIT);
    if (cached != null && cached.unit() == unit) {
      return cached;
    }
    JavacUnitIndex index = new JavacUnitIndex(state, unit, () -> source(unit, state));
    UNIT.set(new WeakReference<>(index));
    return index;
  }

  private static <T> T get(ThreadLocal<WeakReference<T>> local) {
    WeakReference<T> ref = local.get();
    return ref == null ? null : ref.get();
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
   * {@code InterruptedException} (anywhere); if a loop (or a {@code forEach} lambda) holds a catch
   * clause, a sleep, or a submission to an executor: the only places retry loops and unbounded
   * submissions can be; if a catch clause calls the method itself (a retry by recursion); if it has
   * a broad catch ({@code Exception}, {@code Throwable}), which may swallow an interrupt from any
   * callee; if it creates an executor; if it configures a retry library's backoff; if it waits
   * without a timeout after a deadline or timeout came into scope (a parameter or local by its type
   * or name); or if a retry library's call runs inside another's lambda.
   */
  private static final class Relevance extends TreeScanner<Void, Void> {
    private final String methodName;
    private int loopDepth;
    private int retryLambdaDepth;
    private boolean relevant;
    private boolean timeoutInScope;

    /** A parameter or local that holds a deadline or timeout makes untimed waits reportable. */
    void noteVariable(VariableTree variable) {
      if (CallNames.isTimeoutName(variable.getName().toString())
          || (variable.getType() != null
              && mentions(variable.getType(), CallNames.TIMEOUT_TYPES::contains))) {
        timeoutInScope = true;
      }
    }

    @Override
    public Void visitVariable(VariableTree tree, Void unused) {
      noteVariable(tree);
      return super.visitVariable(tree, null);
    }

    Relevance(String methodName) {
      this.methodName = methodName;
      // A failure callback may schedule a retry through a helper of its class.
      this.relevant = CallNames.isFailureHandlerName(methodName);
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
    public Void visitTry(TryTree tree, Void unused) {
      for (CatchTree clause : tree.getCatches()) {
        // By the names as written: cheap; the rules decide with types.
        Tree type = clause.getParameter().getType();
        if (loopDepth > 0
            || (type != null && mentions(type, CallNames.INTERRUPT_TYPES::contains))
            || (!methodName.isEmpty() && calls(clause.getBlock(), methodName::equals))
            // The failed work put back for another try: events.add(event), retryLater(task).
            || calls(clause.getBlock(), CallNames::mayRequeue)
            // A broad catch may swallow an interrupt from any callee declared to throw one.
            || (type != null && mentions(type, CallNames.BROAD_CATCHES::contains))) {
          relevant = true;
          return null;
        }
      }
      return super.visitTry(tree, null);
    }

    @Override
    public Void visitNewClass(NewClassTree tree, Void unused) {
      if (mentions(tree.getIdentifier(), CallNames.OWNED_EXECUTOR_CLASSES::contains)
          || mentions(tree.getIdentifier(), CallNames.BACKOFF_CONFIGURATION::contains)) {
        relevant = true;
        return null;
      }
      return super.visitNewClass(tree, null);
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
      String name = methodName(tree);
      if ((loopDepth > 0 && isLoopSignal(name))
          || CallNames.isDelayedSchedule(name)
          || CallNames.isResubmission(name)
          || CallNames.COMPLETION_CALLBACKS.contains(name)
          || CallNames.FAILURE_CALLBACKS.contains(name)
          || CallNames.OWNED_EXECUTOR_FACTORIES.contains(name)
          || CallNames.BACKOFF_CONFIGURATION.contains(name)
          || (timeoutInScope
              && Integer.valueOf(tree.getArguments().size())
                  .equals(CallNames.UNTIMED_WAITS.get(name)))) {
        relevant = true;
        return null;
      }
      if (CallNames.RETRY_CALLS.contains(name)) {
        if (retryLambdaDepth > 0) {
          relevant = true; // a retry call inside another's lambda
          return null;
        }
        if (tree.getArguments().stream().anyMatch(a -> a instanceof LambdaExpressionTree)) {
          scan(tree.getMethodSelect(), null);
          retryLambdaDepth++;
          for (Tree argument : tree.getArguments()) {
            scan(argument, null);
          }
          retryLambdaDepth--;
          return null;
        }
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
          || CallNames.TIMED_WAITS.contains(name)
          || CallNames.SUBMISSIONS.contains(name)
          || CallNames.ASYNC_STARTS.contains(name);
    }

    private static String methodName(MethodInvocationTree tree) {
      Tree select = tree.getMethodSelect();
      if (select instanceof MemberSelectTree member) {
        return member.getIdentifier().toString();
      }
      return select instanceof IdentifierTree id ? id.getName().toString() : "";
    }

    /** Whether a tree calls a method whose name passes the test (lambdas and classes skipped). */
    private static boolean calls(Tree tree, Predicate<String> name) {
      boolean[] found = {false};
      new TreeScanner<Void, Void>() {
        @Override
        public Void scan(Tree node, Void unused) {
          if (node == null || found[0] || node.getKind() == Tree.Kind.CLASS) {
            return null;
          }
          return super.scan(node, null);
        }

        @Override
        public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
          return null;
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
          found[0] |= name.test(methodName(node));
          return super.visitMethodInvocation(node, null);
        }
      }.scan(tree, null);
      return found[0];
    }

    /** Whether a type as written names a type whose simple name passes the test. */
    private static boolean mentions(Tree type, Predicate<String> simpleName) {
      boolean[] found = {false};
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitIdentifier(IdentifierTree node, Void unused) {
          found[0] |= simpleName.test(node.getName().toString());
          return null;
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree node, Void unused) {
          found[0] |= simpleName.test(node.getIdentifier().toString());
          return super.visitMemberSelect(node, null);
        }
      }.scan(type, null);
      return found[0];
    }
  }
}
