package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symtab;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.TypeTag;
import com.sun.tools.javac.code.Types;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import com.sun.tools.javac.util.Context;
import com.sun.tools.javac.util.Name;
import com.sun.tools.javac.util.Names;
import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.MethodModel;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;

/**
 * Builds each method's analysis once for all of Bounded's checkers, and only for methods that some
 * rule could report. Error Prone offers a method to every checker in turn: the first builds the
 * analysis (or decides, on the fast path, that there is none), the others find it here.
 *
 * <p>The state lives in javac's {@link Context} of the compilation, so it is dropped with the
 * compilation (nothing stays reachable from a long-lived thread such as a build daemon's) and is
 * never lost in the middle of one.
 */
final class AnalysisCache {
  private static final Context.Key<Session> KEY = new Context.Key<>();

  /**
   * One compilation's state: the fast path's scanner, the current unit and the last method. Each
   * checker keeps the last one it used, so that it looks it up in the context only when the context
   * changes (17 checkers are offered every method).
   */
  static final class Session {
    final Context context;
    final Relevance relevance;
    final JavacProject project;
    CompilationUnitTree unit;
    JavacUnitIndex index;
    String source;
    Tree lastTree;
    MethodAnalysis lastAnalysis;

    Session(Context context) {
      this.context = context;
      this.project = new JavacProject(context);
      this.relevance =
          new Relevance(
              new NameFacts(Names.instance(context)),
              new Interrupts(Types.instance(context), Symtab.instance(context)));
    }
  }

  private AnalysisCache() {}

  /**
   * The state of the compilation the visitor state belongs to.
   *
   * @param state the visitor state
   * @param last the session the caller used last, or {@code null}
   * @return {@code last} if it is this compilation's, else this compilation's (made on first use)
   */
  static Session session(VisitorState state, Session last) {
    if (last != null && last.context == state.context) {
      return last;
    }
    Session session = state.context.get(KEY);
    if (session == null) {
      session = new Session(state.context);
      state.context.put(KEY, session);
    }
    return session;
  }

  /**
   * Returns the method's analysis, or {@code null} when no rule could report anything in it.
   *
   * @param method a method with a body
   * @param state the visitor state at the method
   * @param session the compilation's state ({@link #session})
   * @return the analysis, or {@code null}
   */
  static MethodAnalysis get(MethodTree method, VisitorState state, Session session) {
    if (session.lastTree == method) {
      return session.lastAnalysis;
    }
    int previous = Timing.enter(Timing.RELEVANCE);
    Timing.count(Timing.METHODS_OFFERED, 1);
    boolean relevant = session.relevance.method(method);
    Timing.exit(previous);
    MethodAnalysis analysis = null;
    if (relevant) {
      Timing.count(Timing.METHODS_RELEVANT, 1);
      JavacUnitIndex unit = unit(session, state);
      MethodModel model = unit.model(method, state.findEnclosing(ClassTree.class));
      previous = Timing.enter(Timing.ANALYSIS);
      analysis = MethodAnalysis.of(model, unit.contextOf(model));
      Timing.exit(previous);
    }
    session.lastTree = method;
    session.lastAnalysis = analysis;
    return analysis;
  }

  /**
   * Returns the analysis of a class's field initialisers and initialiser blocks, or {@code null}
   * when no rule could report anything in them.
   *
   * @param tree a class
   * @param state the visitor state at the class
   * @param session the compilation's state ({@link #session})
   * @return the analysis, or {@code null}
   */
  static MethodAnalysis initialisers(ClassTree tree, VisitorState state, Session session) {
    if (session.lastTree == tree) {
      return session.lastAnalysis;
    }
    int previous = Timing.enter(Timing.RELEVANCE);
    Timing.count(Timing.CLASSES_OFFERED, 1);
    boolean relevant = session.relevance.initialisers(tree);
    Timing.exit(previous);
    MethodAnalysis analysis = null;
    if (relevant) {
      Timing.count(Timing.CLASSES_RELEVANT, 1);
      JavacUnitIndex unit = unit(session, state);
      MethodModel model = unit.initialisers(tree);
      previous = Timing.enter(Timing.ANALYSIS);
      analysis = MethodAnalysis.of(model, unit.contextOf(model));
      Timing.exit(previous);
    }
    session.lastTree = tree;
    session.lastAnalysis = analysis;
    return analysis;
  }

  /** The index of the compilation unit being analysed, made once per unit. */
  private static JavacUnitIndex unit(Session session, VisitorState state) {
    CompilationUnitTree unit = state.getPath().getCompilationUnit();
    if (session.unit != unit) {
      Timing.count(Timing.UNITS_INDEXED, 1);
      session.unit = unit;
      session.source = null;
      JavacUnitIndex built = session.project.existing(unit);
      session.index =
          built != null
              ? built // another unit asked about one of its methods: its models are made
              : new JavacUnitIndex(
                  state, unit, () -> source(session, unit, state), session.project, false);
      session.project.analysing(session.index);
    }
    return session.index;
  }

  /** The file's text, copied once per compilation unit and only when a rule asks for it. */
  private static String source(Session session, CompilationUnitTree unit, VisitorState state) {
    if (session.unit != unit) {
      return state.getSourceCode().toString(); // asked after the unit was left: not cached
    }
    if (session.source == null) {
      session.source = state.getSourceCode().toString();
    }
    return session.source;
  }

  /**
   * What the fast path asks of a name, worked out once per distinct {@link Name} of a compilation
   * from the analysis's own tables ({@link CallNames}), so the scan neither allocates nor hashes
   * strings per node. javac interns names per compilation: two equal names are the same object.
   */
  static final class NameFacts {
    static final int LOOP_SIGNAL = 1; // sleeps, submissions, async starts
    static final int OWNED_EXECUTOR_FACTORY = 1 << 1;
    static final int BACKOFF_CONFIGURATION = 1 << 2;
    static final int RETRY_CALL = 1 << 3;
    static final int FOR_EACH = 1 << 4;
    static final int INTERRUPT_TYPE = 1 << 5;
    static final int BROAD_CATCH = 1 << 6;
    static final int OWNED_EXECUTOR_CLASS = 1 << 7;
    static final int TIMEOUT_TYPE = 1 << 8;
    static final int TIMEOUT_NAME = 1 << 9;
    static final int UNTIMED_WAIT = 1 << 10; // the untimed form's arity is in the bits above
    private static final int ARITY_SHIFT = 11; // 8 bits: 11 to 18
    static final int SLEEP = 1 << 19; // Thread.sleep, TimeUnit.sleep, parkNanos
    // a delayed or periodic scheduling, a resubmission by name, a completion or failure callback
    static final int RESCHEDULE_SIGNAL = 1 << 20;
    static final int FAILURE_HANDLER = 1 << 21; // a method named like onException(..)
    static final int REQUEUE = 1 << 22; // in a catch clause, may put the failed work back
    static final int NODE_NAME = 1 << 23; // what a failover walks: nodes, servers, urls
    static final int FAILURE_TYPE = 1 << 24; // a type named like a failure: IOException, Throwable
    static final int SELF = 1 << 25; // this
    // a retry policy named for never giving up: RetryForever, retryForeverNoSleep
    static final int FOREVER_POLICY = 1 << 26;
    static final int RETRY_HELPER = 1 << 27; // a name containing "retr": retry(attempt -> ..)
    // a catch type that takes programming errors or VM errors: Exception, Throwable, Error
    static final int UNCLASSIFIED_CATCH = 1 << 28;
    // a cap on attempts a give-up test reads: maxReconnectAttempts, reconnectLimit
    static final int ATTEMPT_CAP = 1 << 29;
    private static final int COMPUTED = 1 << 30;

    private final Names names;
    private final HashMap<Name, Integer> facts = new HashMap<>();

    NameFacts(Names names) {
      this.names = names;
    }

    /** The names table these facts are for. */
    Names names() {
      return names;
    }

    /** The facts of a name, as a set of the bits above. */
    int of(Name name) {
      Integer known = facts.get(name);
      if (known != null) {
        return known;
      }
      int computed = compute(name.toString());
      facts.put(name, computed);
      return computed;
    }

    /** Whether the name is an untimed wait's when called with this many arguments. */
    static boolean isUntimedWait(int facts, int arguments) {
      return (facts & UNTIMED_WAIT) != 0 && (facts >>> ARITY_SHIFT & 0xFF) == arguments;
    }

    private static int compute(String name) {
      int bits = COMPUTED;
      if (CallNames.SLEEPS.contains(name)
          || CallNames.TIMED_WAITS.contains(name)
          || CallNames.SUBMISSIONS.contains(name)
          || CallNames.ASYNC_STARTS.contains(name)) {
        bits |= LOOP_SIGNAL;
      }
      if (CallNames.SLEEPS.contains(name)) {
        bits |= SLEEP;
      }
      if (CallNames.isDelayedSchedule(name)
          || CallNames.PERIODIC_SCHEDULES.contains(name)
          || CallNames.isResubmission(name)
          || CallNames.COMPLETION_CALLBACKS.contains(name)
          || CallNames.FAILURE_CALLBACKS.contains(name)) {
        bits |= RESCHEDULE_SIGNAL;
      }
      if (CallNames.isFailureHandlerName(name) || CallNames.isResendName(name)) {
        bits |= FAILURE_HANDLER; // or a re-send by name, which may repeat writes without a loop
      }
      if (CallNames.mayRequeue(name)) {
        bits |= REQUEUE;
      }
      if (CallNames.OWNED_EXECUTOR_FACTORIES.contains(name)) {
        bits |= OWNED_EXECUTOR_FACTORY;
      }
      if (CallNames.BACKOFF_CONFIGURATION.contains(name)) {
        bits |= BACKOFF_CONFIGURATION;
      }
      if (CallNames.RETRY_CALLS.contains(name)) {
        bits |= RETRY_CALL;
      }
      if (name.equals("forEach") || name.equals("forEachOrdered")) {
        bits |= FOR_EACH;
      }
      if (CallNames.INTERRUPT_TYPES.contains(name)) {
        bits |= INTERRUPT_TYPE;
      }
      if (CallNames.BROAD_CATCHES.contains(name)) {
        bits |= BROAD_CATCH;
      }
      if (CallNames.BROAD_CATCHES.contains(name)
          || name.equals("RuntimeException")
          || name.equals("Error")) {
        bits |= UNCLASSIFIED_CATCH;
      }
      if (CallNames.OWNED_EXECUTOR_CLASSES.contains(name)
          || CallNames.THREAD_PER_TASK_CLASSES.contains(name)) {
        bits |= OWNED_EXECUTOR_CLASS;
      }
      if (CallNames.TIMEOUT_TYPES.contains(name)) {
        bits |= TIMEOUT_TYPE;
      }
      if (CallNames.isTimeoutName(name)) {
        bits |= TIMEOUT_NAME;
      }
      if (CallNames.isNodeName(name)) {
        bits |= NODE_NAME;
      }
      if (name.endsWith("Exception") || name.endsWith("Error") || name.equals("Throwable")) {
        bits |= FAILURE_TYPE;
      }
      if (name.equals("this")) {
        bits |= SELF;
      }
      if (CallNames.isForeverPolicyCall(name)
          || CallNames.FOREVER_POLICY_CLASSES.contains(name)
          || CallNames.RETRY_ATTEMPT_SETTERS.contains(name)) {
        bits |= FOREVER_POLICY;
      }
      if (CallNames.isRetryHelperName(name)) {
        bits |= RETRY_HELPER;
      }
      if (CallNames.isAttemptCapName(name)) {
        bits |= ATTEMPT_CAP;
      }
      Integer arity = CallNames.UNTIMED_WAITS.get(name);
      if (arity != null && arity >= 0 && arity <= 0xFF) {
        bits |= UNTIMED_WAIT | arity << ARITY_SHIFT;
      }
      return bits;
    }
  }

  /**
   * Whether a try statement can throw an {@code InterruptedException} into its catch clauses, by
   * javac's symbols: for a broad catch ({@code Exception}, {@code Throwable}) outside loops, which
   * the rules look at only for a swallowed interrupt. It errs towards yes: a call or constructor
   * declared to throw {@code InterruptedException}, a subtype or a supertype of it (such as {@code
   * throws Exception}) or a type variable, one whose symbol is unknown, any {@code throw}, and any
   * resource (its {@code close()}) all count, inside lambdas and inner try statements too. The
   * rules ({@code Interrupts.receivesInterrupt}) count less: calls declared to throw it or, through
   * broad callees, a supertype of it, and thrown instances of it, outside lambdas.
   */
  static final class Interrupts extends TreeScanner<Void, Void> {
    private final Types types;
    private final Type interrupted;
    private boolean found;

    Interrupts(Types types, Symtab symbols) {
      this.types = types;
      this.interrupted = symbols.interruptedExceptionType;
    }

    /**
     * Decides a try statement.
     *
     * @param tree a try statement
     * @return {@code false} only if nothing in it can throw an {@code InterruptedException}
     */
    boolean mayThrow(TryTree tree) {
      if (!tree.getResources().isEmpty()) {
        return true;
      }
      found = false;
      scan(tree.getBlock(), null);
      return found;
    }

    @Override
    public Void scan(Tree tree, Void unused) {
      return found || tree == null ? null : super.scan(tree, null);
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
      found |= mayThrow(TreeInfo.symbol(((JCTree.JCMethodInvocation) tree).meth));
      return super.visitMethodInvocation(tree, null);
    }

    @Override
    public Void visitNewClass(NewClassTree tree, Void unused) {
      found |= mayThrow(((JCTree.JCNewClass) tree).constructor);
      return super.visitNewClass(tree, null);
    }

    @Override
    public Void visitThrow(ThrowTree tree, Void unused) {
      found = true;
      return null;
    }

    private boolean mayThrow(Symbol symbol) {
      if (!(symbol instanceof Symbol.MethodSymbol method) || interrupted == null) {
        return true;
      }
      for (Type thrown : method.getThrownTypes()) {
        if (thrown.hasTag(TypeTag.TYPEVAR)
            || thrown.isErroneous()
            || types.isSubtype(thrown, interrupted)
            || types.isSubtype(interrupted, thrown)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Fast path: whether the method holds anything a rule could report on. It does if it catches
   * {@code InterruptedException} (anywhere); if a loop (or a {@code forEach} lambda) holds a catch
   * clause, a sleep, or a submission to an executor: the only places retry loops and unbounded
   * submissions can be; if a catch clause calls the method itself (a retry by recursion); if it has
   * a broad catch ({@code Exception}, {@code Throwable}) whose try statement can throw an {@code
   * InterruptedException} ({@link Interrupts}), which the catch may swallow; if it creates an
   * executor; if it configures a retry library's backoff; if it waits without a timeout after a
   * deadline or timeout came into scope (a parameter or local by its type or name), or calls itself
   * with one in scope; if it grows a value ({@code *=}, {@code <<=}, {@code <<}, {@code pow}, a
   * product with a value named as a multiplier: a backoff); if a retry library's call runs inside
   * another's lambda; if it hands a lambda to a method of its class (which may run it under a retry
   * library); or if an {@code &&} compares with a cap on attempts ({@code maxReconnectAttempts > 0
   * && failures >= maxReconnectAttempts}: a give-up test that may be off by default).
   *
   * <p>One instance per thread, reset for each method: the scan allocates nothing per node.
   */
  static final class Relevance extends TreeScanner<Void, Void> {
    private final NameFacts names;
    private final Interrupts interrupts;
    private final Mentions mentions = new Mentions();
    private final RetryNames retryNames = new RetryNames();
    private final Calls calls = new Calls();
    private Name methodName;
    private int loopDepth;
    private int retryLambdaDepth;
    private int nodeLoopDepth;
    private boolean relevant;
    private boolean timeoutInScope;
    private boolean failureParam;

    Relevance(NameFacts names, Interrupts interrupts) {
      this.names = names;
      this.interrupts = interrupts;
    }

    /** The facts this scanner reads names with. */
    NameFacts names() {
      return names;
    }

    /**
     * Decides a method.
     *
     * @param method a method with a body
     * @return whether a rule could report anything in it
     */
    boolean method(MethodTree method) {
      reset((Name) method.getName());
      // A failure callback may schedule a retry through a helper of its class.
      relevant = (names.of((Name) method.getName()) & NameFacts.FAILURE_HANDLER) != 0;
      for (VariableTree param : method.getParameters()) {
        noteVariable(param);
        failureParam |= isFailureType(param.getType());
      }
      scan(method.getBody(), null);
      return relevant;
    }

    /**
     * Decides a class's field initialisers and initialiser blocks.
     *
     * @param tree a class
     * @return whether a rule could report anything in them
     */
    boolean initialisers(ClassTree tree) {
      reset(null);
      for (Tree member : tree.getMembers()) {
        if (member instanceof VariableTree field && field.getInitializer() != null) {
          scan(field.getInitializer(), null);
        } else if (member instanceof BlockTree block) {
          scan(block, null);
        }
      }
      return relevant;
    }

    /** A parameter's type named like a failure: {@code Exception e}, {@code Throwable t}. */
    private boolean isFailureType(Tree type) {
      return hasFact(type, NameFacts.FAILURE_TYPE);
    }

    private void reset(Name methodName) {
      this.methodName = methodName;
      failureParam = false;
      loopDepth = 0;
      retryLambdaDepth = 0;
      nodeLoopDepth = 0;
      relevant = false;
      timeoutInScope = false;
    }

    /** A parameter or local that holds a deadline or timeout makes untimed waits reportable. */
    private void noteVariable(VariableTree variable) {
      if ((names.of((Name) variable.getName()) & NameFacts.TIMEOUT_NAME) != 0
          || (variable.getType() != null
              && mentions.any(variable.getType(), NameFacts.TIMEOUT_TYPE))) {
        timeoutInScope = true;
      }
    }

    @Override
    public Void visitVariable(VariableTree tree, Void unused) {
      noteVariable(tree);
      return super.visitVariable(tree, null);
    }

    @Override
    public Void scan(Tree tree, Void unused) {
      if (tree == null || relevant) {
        return null; /* Fast path: already decided, or nothing here. */
      }
      return switch (tree.getKind()) {
        case ENHANCED_FOR_LOOP -> {
          // A walk over nodes that may leave once one answers: a failover decided by a result.
          boolean overNodes = overNodes((EnhancedForLoopTree) tree);
          loopDepth++;
          nodeLoopDepth += overNodes ? 1 : 0;
          super.scan(tree, null);
          nodeLoopDepth -= overNodes ? 1 : 0;
          loopDepth--;
          yield null;
        }
        case BREAK, RETURN -> {
          if (nodeLoopDepth > 0) {
            relevant = true;
            yield null;
          }
          yield super.scan(tree, null);
        }
        case FOR_LOOP, WHILE_LOOP, DO_WHILE_LOOP -> {
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
            || (type != null && mentions.any(type, NameFacts.INTERRUPT_TYPE))
            || (methodName != null && calls.any(clause.getBlock(), methodName))
            // The failed work put back for another try: events.add(event), retryLater(task).
            || calls.anyWith(clause.getBlock(), names, NameFacts.REQUEUE)
            // A broad catch may swallow an interrupt from any callee declared to throw one.
            || (type != null
                && mentions.any(type, NameFacts.BROAD_CATCH)
                && interrupts.mayThrow(tree))
            // An attempt helper that swallows any failure may be what a caller's loop repeats.
            || (type != null
                && mentions.any(type, NameFacts.UNCLASSIFIED_CATCH)
                && !endsInThrow(clause.getBlock()))) {
          relevant = true;
          return null;
        }
      }
      return super.visitTry(tree, null);
    }

    /** Whether a block's last statement is a {@code throw}: its clause does not swallow. */
    private static boolean endsInThrow(BlockTree block) {
      List<? extends StatementTree> statements = block.getStatements();
      return !statements.isEmpty() && statements.get(statements.size() - 1) instanceof ThrowTree;
    }

    /** A delay grown per failure ({@code delay *= multiplier}, {@code delay <<= 1}): a backoff. */
    @Override
    public Void visitCompoundAssignment(CompoundAssignmentTree tree, Void unused) {
      if (tree.getKind() == Tree.Kind.MULTIPLY_ASSIGNMENT
          || tree.getKind() == Tree.Kind.LEFT_SHIFT_ASSIGNMENT) {
        relevant = true;
        return null;
      }
      return super.visitCompoundAssignment(tree, null);
    }

    /**
     * {@code base << failures}, {@code previousDelay * backOffMultiplier}: a backoff; {@code
     * maxReconnectAttempts > 0 && failures >= maxReconnectAttempts}: a give-up test that may be off
     * by default.
     */
    @Override
    public Void visitBinary(BinaryTree tree, Void unused) {
      if (tree.getKind() == Tree.Kind.CONDITIONAL_AND
          && (comparesWithCap(tree.getLeftOperand()) || comparesWithCap(tree.getRightOperand()))) {
        relevant = true;
        return null;
      }
      if (tree.getKind() == Tree.Kind.LEFT_SHIFT
          || (tree.getKind() == Tree.Kind.MULTIPLY
              && (isMultiplier(tree.getLeftOperand()) || isMultiplier(tree.getRightOperand())))) {
        relevant = true;
        return null;
      }
      return super.visitBinary(tree, null);
    }

    /** {@code failures >= maxReconnectAttempts}: an ordering with a name of an attempt cap. */
    private boolean comparesWithCap(ExpressionTree operand) {
      ExpressionTree tested = TreeInfo.skipParens((JCTree.JCExpression) operand);
      if (!(tested instanceof BinaryTree compared)) {
        return false;
      }
      switch (compared.getKind()) {
        case LESS_THAN, LESS_THAN_EQUAL, GREATER_THAN, GREATER_THAN_EQUAL -> {}
        default -> {
          return false;
        }
      }
      return isCapName(compared.getLeftOperand()) || isCapName(compared.getRightOperand());
    }

    private boolean isCapName(ExpressionTree operand) {
      return hasFact(operand, NameFacts.ATTEMPT_CAP);
    }

    /** Whether a name or a member select's last name ({@code a.b}: {@code b}) has the fact. */
    private boolean hasFact(Tree tree, int fact) {
      Name name = simpleName(tree);
      return name != null && (names.of(name) & fact) != 0;
    }

    /** The name of an identifier, or a member select's last name; {@code null} for other trees. */
    private static Name simpleName(Tree tree) {
      return tree instanceof IdentifierTree id
          ? (Name) id.getName()
          : tree instanceof MemberSelectTree select ? (Name) select.getIdentifier() : null;
    }

    /** A value named as a backoff's multiplier ({@code backOffMultiplier}). */
    private static boolean isMultiplier(ExpressionTree operand) {
      Name name = simpleName(operand);
      return name != null && name.toString().toLowerCase(Locale.ROOT).contains("multiplier");
    }

    @Override
    public Void visitNewClass(NewClassTree tree, Void unused) {
      Tree created = tree.getIdentifier();
      if (created instanceof ParameterizedTypeTree generic) {
        created = generic.getType();
      }
      Name simple = simpleName(created);
      if (simple != null
          && (names.of(simple) & NameFacts.FOREVER_POLICY) != 0
          && CallNames.FOREVER_POLICY_CLASSES.contains(simple.toString())) {
        relevant = true; // a retry policy that never gives up: new RetryForever(1000)
        return null;
      }
      if (mentions.any(
          tree.getIdentifier(), NameFacts.OWNED_EXECUTOR_CLASS | NameFacts.BACKOFF_CONFIGURATION)) {
        relevant = true;
        return null;
      }
      return super.visitNewClass(tree, null);
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
      Name name = methodName(tree);
      int facts = name == null ? 0 : names.of(name);
      List<? extends ExpressionTree> arguments = tree.getArguments();
      if ((loopDepth > 0 && (facts & NameFacts.LOOP_SIGNAL) != 0)
          || (facts
                  & (NameFacts.OWNED_EXECUTOR_FACTORY
                      | NameFacts.BACKOFF_CONFIGURATION
                      | NameFacts.RESCHEDULE_SIGNAL))
              != 0
          || (timeoutInScope && NameFacts.isUntimedWait(facts, arguments.size()))
          || (name != null && name.contentEquals("pow"))
          // A recursion that may hand its own timeout on.
          || (timeoutInScope && methodName != null && methodName.equals(name))) {
        relevant = true;
        return null;
      }
      if ((facts & NameFacts.SLEEP) != 0
          && !arguments.isEmpty()
          && (arguments.get(0) instanceof IdentifierTree
              || (arguments.get(0) instanceof MethodInvocationTree delay
                  && callsOwnMethod(delay)))) {
        relevant = true; // a wait for a delay another method of the class may grow per failure
        return null;
      }
      if (loopDepth > 0 && callsOwnMethod(tree)) {
        relevant = true; // an attempt helper of the class, which may catch its own failure
        return null;
      }
      if (failureParam && passesThis(arguments)) {
        relevant = true; // a callback handing itself to the operation again: send(.., this)
        return null;
      }
      if (hasLambda(arguments)
          && tree.getMethodSelect() instanceof MemberSelectTree select
          && retryNames.any(select.getExpression())) {
        relevant = true; // an operation handed to a retry engine: retryTemplate.execute(() -> ..)
        return null;
      }
      if ((facts & NameFacts.FOREVER_POLICY) != 0
          && (CallNames.isForeverPolicyCall(name.toString())
              || CallNames.RETRY_ATTEMPT_SETTERS.contains(name.toString()))) {
        relevant = true; // a retry policy that never gives up: retryForeverNoSleep()
        return null;
      }
      if ((facts & NameFacts.RETRY_HELPER) != 0 && hasLambda(arguments)) {
        relevant = true; // an operation handed to a retrying helper: retry(attempt -> ..)
        return null;
      }
      if (hasLambda(arguments) && callsOwnMethod(tree)) {
        relevant = true; // an operation handed to a helper of the class, which may hand it to a
        return null; //    retry library: execute(() -> stub.withDeadlineAfter(..).grant(..))
      }
      if ((facts & NameFacts.RETRY_CALL) != 0) {
        if (retryLambdaDepth > 0) {
          relevant = true; // a retry call inside another's lambda
          return null;
        }
        if (hasLambda(arguments)) {
          scan(tree.getMethodSelect(), null);
          retryLambdaDepth++;
          for (Tree argument : arguments) {
            scan(argument, null);
          }
          retryLambdaDepth--;
          return null;
        }
      }
      if ((facts & NameFacts.FOR_EACH) != 0
          && arguments.size() == 1
          && arguments.get(0) instanceof LambdaExpressionTree) {
        scan(tree.getMethodSelect(), null);
        loopDepth++;
        scan(arguments.get(0), null);
        loopDepth--;
        return null;
      }
      return super.visitMethodInvocation(tree, null);
    }

    /** Whether a for-each's variable, its type or what it walks is named for nodes. */
    private boolean overNodes(EnhancedForLoopTree loop) {
      VariableTree variable = loop.getVariable();
      return (names.of((Name) variable.getName()) & NameFacts.NODE_NAME) != 0
          || (variable.getType() != null && mentions.any(variable.getType(), NameFacts.NODE_NAME))
          || mentions.any(loop.getExpression(), NameFacts.NODE_NAME);
    }

    private boolean passesThis(List<? extends ExpressionTree> arguments) {
      for (ExpressionTree argument : arguments) {
        if (argument instanceof IdentifierTree id
            && (names.of((Name) id.getName()) & NameFacts.SELF) != 0) {
          return true;
        }
      }
      return false;
    }

    private static boolean hasLambda(List<? extends ExpressionTree> arguments) {
      for (ExpressionTree argument : arguments) {
        if (argument instanceof LambdaExpressionTree) {
          return true;
        }
      }
      return false;
    }

    /** A call of a method by its bare name or on {@code this}: a method of the class, maybe. */
    private boolean callsOwnMethod(MethodInvocationTree tree) {
      Tree select = tree.getMethodSelect();
      return select instanceof IdentifierTree
          || (select instanceof MemberSelectTree member
              && member.getExpression() instanceof IdentifierTree receiver
              && (names.of((Name) receiver.getName()) & NameFacts.SELF) != 0);
    }

    /** The name of the called method as written, or {@code null} (nor a name nor a select). */
    static Name methodName(MethodInvocationTree tree) {
      Tree select = tree.getMethodSelect();
      if (select instanceof MemberSelectTree member) {
        return (Name) member.getIdentifier();
      }
      return select instanceof IdentifierTree id ? (Name) id.getName() : null;
    }

    /**
     * Whether an expression (a call's receiver) names something for retries: {@code retryTemplate},
     * {@code getRetrier()}, {@code Failsafe.with(retryPolicy)}. Lambdas are not entered.
     */
    private static final class RetryNames extends TreeScanner<Void, Void> {
      private boolean found;

      boolean any(Tree receiver) {
        found = false;
        scan(receiver, null);
        return found;
      }

      private void note(Name name) {
        found |= name.toString().toLowerCase(java.util.Locale.ROOT).contains("retr");
      }

      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        note((Name) node.getName());
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        note((Name) node.getIdentifier());
        return super.visitMemberSelect(node, null);
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null;
      }
    }

    /** Whether a type as written names a type whose simple name has one of the facts. */
    private final class Mentions extends TreeScanner<Void, Void> {
      private int wanted;
      private boolean found;

      boolean any(Tree type, int wanted) {
        if (type instanceof IdentifierTree id) {
          return (names.of((Name) id.getName()) & wanted) != 0; /* Fast path: a simple name. */
        }
        this.wanted = wanted;
        found = false;
        scan(type, null);
        return found;
      }

      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        found |= (names.of((Name) node.getName()) & wanted) != 0;
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        found |= (names.of((Name) node.getIdentifier()) & wanted) != 0;
        return super.visitMemberSelect(node, null);
      }
    }

    /** Whether a tree calls a method of a given name (lambdas and classes skipped). */
    private static final class Calls extends TreeScanner<Void, Void> {
      private Name wanted;
      private NameFacts facts;
      private int fact;
      private boolean found;

      boolean any(Tree tree, Name wanted) {
        this.wanted = wanted;
        found = false;
        scan(tree, null);
        return found;
      }

      @Override
      public Void scan(Tree node, Void unused) {
        if (node == null || found || node.getKind() == Tree.Kind.CLASS) {
          return null;
        }
        return super.scan(node, null);
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return null;
      }

      /** Whether the tree calls a method whose name has the fact (outside lambdas and classes). */
      boolean anyWith(Tree tree, NameFacts facts, int fact) {
        this.wanted = null;
        this.facts = facts;
        this.fact = fact;
        found = false;
        scan(tree, null);
        this.facts = null;
        return found;
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        Name name = methodName(node);
        found |= facts == null ? wanted == name : name != null && (facts.of(name) & fact) != 0;
        return super.visitMethodInvocation(node, null);
      }
    }
  }
}
