package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Facts about one method shared by every rule: each node's parent, the loops and which of them are
 * retry loops, the catch clauses, and the values given to local variables. Built once per method by
 * {@link #of}; immutable afterwards.
 */
public final class MethodAnalysis {
  private final MethodModel method;
  private final SourceContext context;
  private final IdentityHashMap<Node, Node> parents = new IdentityHashMap<>();
  private final IdentityHashMap<Node, LoopInfo> loopsByNode = new IdentityHashMap<>();
  private final IdentityHashMap<Node, LoopInfo> loopsByLambda = new IdentityHashMap<>();
  private final IdentityHashMap<LoopInfo, List<Node>> loopLevels = new IdentityHashMap<>();

  /** The callers' loops that repeat this method as their attempt; found on first use. */
  private List<LoopInfo> callerLoops;

  private final IdentityHashMap<Node, LoopInfo> loopOf = new IdentityHashMap<>();
  private final IdentityHashMap<Node, Expr.Lambda> lambdaOf = new IdentityHashMap<>();
  private final IdentityHashMap<Node, Stmt.Catch> catchOf = new IdentityHashMap<>();
  private final List<LoopInfo> loops = new ArrayList<>();
  private final List<Stmt.Catch> catches = new ArrayList<>();
  private final Map<String, List<Expr>> localValues = new java.util.HashMap<>();
  private final Set<String> localNames = new HashSet<>();

  private List<Node> bodyNodes;
  private List<Node> bodyFrameNodes;

  /** The body standing for a loop (a recursion, a self-rescheduling task), or null. */
  private LoopInfo wholeMethodLoop;

  private MethodAnalysis(MethodModel method, SourceContext context) {
    this.method = method;
    this.context = context;
  }

  /**
   * Analyses a method.
   *
   * @param method the method's model
   * @param context what the frontend knows beyond the method
   * @return the analysis
   */
  public static MethodAnalysis of(MethodModel method, SourceContext context) {
    MethodAnalysis analysis = new MethodAnalysis(method, context);
    analysis.index();
    for (LoopInfo loop : analysis.loops) {
      RetryLoops.classify(analysis, loop);
    }
    return analysis;
  }

  private void index() {
    for (MethodModel.Param param : method.params()) {
      localNames.add(param.name());
    }
    List<Node> stack = new ArrayList<>();
    stack.add(method.body());
    while (!stack.isEmpty()) {
      Node node = stack.remove(stack.size() - 1);
      for (Node child : node.children()) {
        parents.put(child, node);
        stack.add(child);
      }
      // Ancestors are indexed before their descendants, so enclosingStatement can run here.
      if (node instanceof Stmt.Loop loop) {
        LoopInfo info = LoopInfo.of(loop);
        loops.add(info);
        loopsByNode.put(loop, info);
      } else if (node instanceof Expr.Call call
          && (call.name().equals("forEach") || call.name().equals("forEachOrdered"))
          && call.args().size() == 1
          && call.args().get(0) instanceof Expr.Lambda lambda) {
        LoopInfo info = LoopInfo.ofForEach(call, lambda, enclosingStatement(call));
        loops.add(info);
        loopsByNode.put(call, info);
        loopsByLambda.put(lambda, info);
      }
      if (node instanceof Stmt.Catch c) {
        catches.add(c);
        localNames.add(c.parameter());
      } else if (node instanceof Stmt.LocalVar local) {
        localNames.add(local.name());
        if (local.init() != null) {
          localValues.computeIfAbsent(local.name(), k -> new ArrayList<>()).add(local.init());
        }
      } else if (node instanceof Expr.Assign assign
          && assign.operator().equals("=")
          && assign.target() instanceof Expr.Name name
          && name.isVariable(name.name())) {
        localValues.computeIfAbsent(name.name(), k -> new ArrayList<>()).add(assign.value());
      } else if (node instanceof Expr.Lambda lambda) {
        localNames.addAll(lambda.params());
      }
    }
    loops.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
    catches.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
    if (callsItselfFromCatch()) {
      wholeMethodLoop = LoopInfo.ofRecursion(method.body());
    } else if (method.isTaskBody() && reschedulesItself()) {
      wholeMethodLoop = LoopInfo.ofReschedule(method.body());
    }
    if (wholeMethodLoop != null) {
      loops.add(0, wholeMethodLoop);
      loopsByNode.put(method.body(), wholeMethodLoop);
    }
    indexContexts();
  }

  /** Whether a catch clause of the method's own frame calls the method itself: a retry. */
  private boolean callsItselfFromCatch() {
    if (method.isConstructor() || method.name().equals(MethodModel.INITIALISERS)) {
      return false;
    }
    for (Stmt.Catch clause : catches) {
      if (inLambda(clause)) {
        continue;
      }
      for (Node n : Nodes.sameFrame(clause.body())) {
        if (n instanceof Expr.Call call && isNextAttempt(call)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Tells whether a call in a catch clause starts the next attempt of the method's work: it calls
   * the method itself ({@link #isSelfCall}), or puts the failed work back for another try ({@link
   * #isRequeue}).
   *
   * @param call a call in a catch clause of the method
   * @return {@code true} if it starts another attempt
   */
  public boolean isNextAttempt(Expr.Call call) {
    return isSelfCall(call) || isRequeue(call) || isRetryThroughHelper(call);
  }

  /**
   * Tells whether a call hands the failure to a private helper of the class that calls this method
   * again ({@code catch (Exception ex) { onExceptionImpl(.., ex, ..); }}, whose body decides
   * whether to retry and calls {@code sendMessageAsync(..)}): a retry by recursion through the
   * helper. The helper must be given the caught exception (it decides on the failure) and have
   * another name than the method (an overload is a fallback). The helper holds the cap, if there is
   * one; a call of it is followed one call deep.
   *
   * @param call a call in a catch clause of the method
   * @return {@code true} if the helper starts another attempt of this method
   */
  /** Whether the call is given the exception of the catch clause it is in: a failure handler. */
  private boolean handsOnTheFailure(Expr.Call call) {
    for (Node p = parent(call); p != null; p = parent(p)) {
      if (p instanceof Stmt.Catch clause) {
        for (Expr arg : call.args()) {
          if (Nodes.mentions(arg, clause.parameter())) {
            return true;
          }
        }
        return false;
      }
    }
    return false;
  }

  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  public boolean isRetryThroughHelper(Expr.Call call) {
    if (method.isConstructor() || isSelfCall(call)) {
      return false;
    }
    MethodModel helper = context.unit().declarationOf(call);
    if (helper == null
        || helper == method
        // An overload of the method delegating with other arguments is a fallback
        // (destroyResource(resc, true): destroy synchronously instead), not a retry decision.
        || helper.name().equals(method.name())
        || !helper.isPrivate()
        || helper.body() == null
        || !handsOnTheFailure(call)) {
      return false;
    }
    for (Node n : Nodes.sameFrame(helper.body())) {
      if (n instanceof Expr.Call back
          && back.name().equals(method.name())
          && back.args().size() == method.params().size()
          && (back.receiver() == null
              || (back.receiver() instanceof Expr.Name self && self.name().equals("this")))
          && context.unit().declarationOf(back) == method) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tells whether a call puts the method's work (a parameter) back to be tried again: into a queue
   * field the worker takes from ({@code events.add(event)}), through a call named for a retry
   * ({@code retryFailedTask(key, task)}), or from a task scheduled to run later that does either
   * ({@code timer.schedule(new TimerTask() { run() { events.add(event); } }, delay)}).
   *
   * @param call a call in a catch clause of the method
   * @return {@code true} for a re-queue of the work
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  public boolean isRequeue(Expr.Call call) {
    if (method.isConstructor() || method.params().isEmpty()) {
      return false;
    }
    if (passesParameter(call)
        && ((CallNames.ENQUEUES.contains(call.name())
                && call.receiver() instanceof Expr.Name queue
                && queue.kind() == Expr.NameKind.FIELD
                // A set or a map remembers the work (to destroy it, to report it): nobody takes
                // from it to try again.
                && !queue.type().isSubtypeOf("java.util.Set")
                && !queue.type().isSubtypeOf("java.util.Map")
                // frame.put(buffer): bytes copied into a buffer, not work put back in a queue
                && !isBuffer(queue.type()))
            || (CallNames.isRetryNamed(call.name())
                && !isSelfCall(call)
                && parent(call) instanceof Stmt.ExprStmt))) {
      return true; // a retry-named call used for its result asks a policy: it retries nothing
    }
    if (!CallNames.SCHEDULES.contains(call.name())) {
      return false;
    }
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Lambda lambda) {
        for (Node n : Nodes.preOrder(lambda.body())) {
          if (n instanceof Expr.Call inner && inner != call && isEnqueueOfParameter(inner)) {
            return true;
          }
        }
      } else if (arg instanceof Expr.New task && task.hasBody() && task.span().isKnown()) {
        for (MethodModel m : context.unit().methods()) {
          if (m.isTaskBody() && m.span().isKnown() && task.span().contains(m.span())) {
            for (Node n : Nodes.preOrder(m.body())) {
              if (n instanceof Expr.Call inner && isEnqueueOfParameter(inner)) {
                return true;
              }
            }
          }
        }
      }
    }
    return false;
  }

  private boolean isEnqueueOfParameter(Expr.Call call) {
    return CallNames.ENQUEUES.contains(call.name())
        && call.receiver() instanceof Expr.Name queue
        && queue.kind() == Expr.NameKind.FIELD
        && !isBuffer(queue.type())
        && passesParameter(call);
  }

  /** A byte or character buffer ({@code ByteBuffer}, Netty's {@code ByteBuf}, a builder). */
  private static boolean isBuffer(TypeRef type) {
    String name = type.simpleName();
    return type.isSubtypeOf("java.nio.Buffer")
        || name.endsWith("Buffer")
        || name.equals("ByteBuf")
        || name.equals("StringBuilder");
  }

  /** Whether one of the call's arguments is a parameter of the method, as it is. */
  private boolean passesParameter(Expr.Call call) {
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Name name && name.qualifier() == null) {
        for (MethodModel.Param param : method.params()) {
          if (param.name().equals(name.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether the task's body schedules the task itself again (not from inside a lambda). */
  private boolean reschedulesItself() {
    for (Node n : Nodes.sameFrame(method.body())) {
      if (n instanceof Expr.Call call && isSelfReschedule(call)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tells whether a call schedules the task whose body is being analysed once more: {@code
   * executor.schedule(this, delay, unit)}.
   *
   * @param call a call in the method
   * @return {@code true} for a self-reschedule
   */
  public boolean isSelfReschedule(Expr.Call call) {
    if (!CallNames.SCHEDULES.contains(call.name())) {
      return false;
    }
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Name self && self.name().equals("this") && self.qualifier() == null) {
        return true;
      }
    }
    return false;
  }

  private boolean inLambda(Node node) {
    for (Node p = parent(node); p != null; p = parent(p)) {
      if (p instanceof Expr.Lambda) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tells whether a call invokes the analysed method itself: same name and number of arguments, on
   * {@code this} or unqualified (and, when the frontend resolved it, declared by the same class).
   *
   * @param call a call in the method
   * @return {@code true} for a recursive call
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  public boolean isSelfCall(Expr.Call call) {
    if (!call.name().equals(method.name()) || call.args().size() != method.params().size()) {
      return false;
    }
    if (call.receiver() != null
        && !(call.receiver() instanceof Expr.Name self && self.name().equals("this"))) {
      return false;
    }
    MethodModel declared = context.unit().declarationOf(call);
    if (declared != null) {
      return declared == method; // an overload of the same name and arity is another method
    }
    // An overload without a body here (abstract, an interface's): its parameters tell it apart.
    List<String> names = call.method().parameterNames();
    if (!names.isEmpty() && !names.equals(parameterNames())) {
      return false;
    }
    return !call.method().resolved()
        || method.owner().isEmpty()
        || call.method().owner().name().equals(method.owner());
  }

  private List<String> parameterNames() {
    List<String> names = new ArrayList<>();
    for (MethodModel.Param param : method.params()) {
      names.add(param.name());
    }
    return names;
  }

  /** One context per node on the way down: its loop, its lambda, its catch clause. */
  private record Context(Node node, LoopInfo loop, Expr.Lambda lambda, Stmt.Catch clause) {}

  /**
   * Walks the method once, top down and in source order, recording for every node the loop whose
   * rounds run it, the lambda it runs in and the catch clause whose handler holds it, and
   * collecting each loop's own nodes. Every later question is then a lookup.
   */
  private void indexContexts() {
    List<Context> stack = new ArrayList<>();
    stack.add(new Context(method.body(), wholeMethodLoop, null, null));
    while (!stack.isEmpty()) {
      Context c = stack.remove(stack.size() - 1);
      Node node = c.node();
      if (c.loop() != null) {
        loopOf.put(node, c.loop());
        loopLevels.computeIfAbsent(c.loop(), k -> new ArrayList<>()).add(node);
      }
      if (c.lambda() != null) {
        lambdaOf.put(node, c.lambda());
      }
      if (c.clause() != null) {
        catchOf.put(node, c.clause());
      }
      List<? extends Node> children = node.children();
      for (int i = children.size() - 1; i >= 0; i--) {
        Node child = children.get(i);
        LoopInfo loop = c.loop();
        Expr.Lambda lambda = c.lambda();
        Stmt.Catch clause = c.clause();
        if (node instanceof Stmt.Loop l
            && (child == l.body()
                || child == l.condition()
                || containsIdentity(l.update(), child))) {
          loop = loopsByNode.get(l);
        } else if (node instanceof Expr.Lambda l) {
          lambda = l;
          loop = loopsByLambda.get(l);
        } else if (node instanceof Stmt.Catch catchClause) {
          clause = catchClause;
        }
        stack.add(new Context(child, loop, lambda, clause));
      }
    }
  }

  /**
   * Returns the analysed method.
   *
   * @return the method model
   */
  public MethodModel method() {
    return method;
  }

  /**
   * Returns the method's body and every node below it, in source order: {@code
   * Nodes.preOrder(method().body())}, walked once for all the rules that ask.
   *
   * @return the nodes, pre-order, unmodifiable
   */
  public List<Node> bodyNodes() {
    if (bodyNodes == null) {
      bodyNodes = Collections.unmodifiableList(Nodes.preOrder(method.body()));
    }
    return bodyNodes;
  }

  /**
   * Returns the nodes of the method's body that run in its own frame, lambda bodies left out:
   * {@code Nodes.sameFrame(method().body())}, walked once for all the rules that ask.
   *
   * @return the nodes, pre-order, unmodifiable
   */
  public List<Node> bodyFrameNodes() {
    if (bodyFrameNodes == null) {
      bodyFrameNodes = Collections.unmodifiableList(Nodes.sameFrame(method.body()));
    }
    return bodyFrameNodes;
  }

  /**
   * Returns what the frontend knows beyond the method.
   *
   * @return the source context
   */
  public SourceContext context() {
    return context;
  }

  /**
   * Returns the facts that cross methods, of the unit this method belongs to.
   *
   * @return the unit's facts
   */
  public UnitFacts unitFacts() {
    return UnitFacts.of(context.unit());
  }

  /**
   * Returns the analysis of a method of the same unit (a callee), built once per unit.
   *
   * @param callee a method of {@code context().unit()}
   * @return its analysis, or {@code null} if the unit cannot give its context
   */
  public MethodAnalysis calleeAnalysis(MethodModel callee) {
    return unitFacts().analysisOf(callee);
  }

  /**
   * Tells whether a node lies in a retry loop (or a background retry loop) of the method: such a
   * loop is judged on its own, so a rule that looks at waits or delays outside loops skips it.
   *
   * @param node a node of the method
   * @return {@code true} if one of its enclosing statements is such a loop
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  public boolean isInRetryLoop(Node node) {
    for (Node p = parent(node); p != null; p = parent(p)) {
      for (LoopInfo loop : loops) {
        if (loop.node() == p && (loop.isRetryLoop() || loop.isBackgroundRetry())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Returns every loop in the method, lambdas included, in source order.
   *
   * @return the loops
   */
  public List<LoopInfo> loops() {
    return Collections.unmodifiableList(loops);
  }

  /**
   * Returns the retry loops.
   *
   * @return the loops classified as retry loops, in source order
   */
  public List<LoopInfo> retryLoops() {
    List<LoopInfo> retry = new ArrayList<>();
    for (LoopInfo loop : loops) {
      if (loop.isRetryLoop()) {
        retry.add(loop);
      }
    }
    return retry;
  }

  /**
   * Returns every catch clause in the method, lambdas included, in source order.
   *
   * @return the catch clauses
   */
  public List<Stmt.Catch> catches() {
    return Collections.unmodifiableList(catches);
  }

  /**
   * Returns a node's parent.
   *
   * @param node a node of this method
   * @return its parent, or {@code null} for the body
   */
  public Node parent(Node node) {
    return parents.get(node);
  }

  /**
   * Returns the loop a {@code forEach} lambda is the body of.
   *
   * @param lambda a lambda
   * @return the loop, or {@code null} if the lambda is not a {@code forEach} body
   */
  public LoopInfo forEachLoop(Expr.Lambda lambda) {
    return loopsByLambda.get(lambda);
  }

  /**
   * Returns the loop whose rounds execute {@code node}: the innermost loop whose body, condition or
   * update holds it, without crossing a lambda (a lambda's body runs elsewhere, except a {@code
   * forEach} body, which is a loop of its own).
   *
   * @param node a node of this method
   * @return the innermost loop, or {@code null}
   */
  public LoopInfo innermostLoop(Node node) {
    return loopOf.get(node);
  }

  /**
   * Returns the innermost lambda holding {@code node}.
   *
   * @param node a node of this method
   * @return the lambda, or {@code null} if the node runs in the method's own frame
   */
  public Expr.Lambda enclosingLambda(Node node) {
    return lambdaOf.get(node);
  }

  /**
   * Returns the try statement that owns a catch clause.
   *
   * @param clause a catch clause of this method
   * @return its try statement
   */
  public Stmt.Try tryOf(Stmt.Catch clause) {
    return (Stmt.Try) parent(clause);
  }

  /**
   * Returns the statement that holds {@code node}: the nearest ancestor (or itself) that is a
   * statement directly inside a block, a case, or a loop or lambda body.
   *
   * @param node a node of this method
   * @return the statement, or {@code null}
   */
  public Stmt enclosingStatement(Node node) {
    Node child = node;
    for (Node p = node; p != null; child = p, p = parent(p)) {
      if (p instanceof Stmt.Block && child instanceof Stmt stmt && child != p) {
        return stmt;
      }
      if (p instanceof Expr.Lambda && child instanceof Stmt stmt) {
        return stmt;
      }
    }
    return null;
  }

  /**
   * Returns the statement that follows the one holding {@code node} in its block ({@code return;}
   * after {@code initializeNewConnection(provider);}).
   *
   * @param node a node of this method
   * @return the next statement of the block, or {@code null} when the statement holding the node is
   *     the block's last or is not in a block
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  public Stmt statementAfter(Node node) {
    Stmt statement = enclosingStatement(node);
    if (statement == null || !(parent(statement) instanceof Stmt.Block block)) {
      return null;
    }
    List<Stmt> statements = block.statements();
    for (int i = 0; i + 1 < statements.size(); i++) {
      if (statements.get(i) == statement) {
        return statements.get(i + 1);
      }
    }
    return null;
  }

  /**
   * Tells whether {@code node} lies inside the body of a catch clause, looking no higher than
   * {@code limit}.
   *
   * @param node a node
   * @param limit an ancestor at which to stop (exclusive), or {@code null} for the whole method
   * @return {@code true} if a catch body lies between them
   */
  public boolean isInCatchBody(Node node, Node limit) {
    Stmt.Catch clause = catchOf.get(node);
    if (clause == null || limit == null) {
      return clause != null;
    }
    if (limit.span().isKnown() && clause.span().isKnown()) {
      return limit.span().contains(clause.span()) && clause != limit;
    }
    for (Node p = parent(node); p != null && p != limit; p = parent(p)) {
      if (p instanceof Stmt.Catch) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the nodes a loop executes in each round itself: its body, condition and update, without
   * nested loops' rounds or lambda bodies.
   *
   * @param loop a loop of this method
   * @return the nodes, in source order
   */
  public List<Node> loopLevel(LoopInfo loop) {
    List<Node> level = loopLevels.get(loop);
    return level == null ? List.of() : Collections.unmodifiableList(level);
  }

  /**
   * Returns the expressions assigned to a local variable anywhere in the method: its initialiser
   * and every simple assignment.
   *
   * @param variable a local variable's name
   * @return the values, possibly empty
   */
  public List<Expr> valuesOf(String variable) {
    return localValues.getOrDefault(variable, List.of());
  }

  /**
   * Resolves an expression to the expressions that may produce its value: a local variable's
   * assigned values, a field's value in the same class, or the expression itself.
   *
   * @param expr an expression
   * @return the candidate origins; empty if a variable has no known value
   */
  public List<Expr> origins(Expr expr) {
    if (expr instanceof Expr.Name name) {
      if (name.isVariable(name.name())) {
        return valuesOf(name.name());
      }
      if (name.kind() == Expr.NameKind.FIELD
          && (name.qualifier() == null
              || (name.qualifier() instanceof Expr.Name q && q.name().equals("this")))) {
        Expr value = context.fieldValue(name.name());
        return value == null ? List.of() : List.of(value);
      }
    }
    return List.of(expr);
  }

  /**
   * Tells whether a name is already used by a local variable, parameter or lambda parameter of the
   * method: a fix must not introduce a clashing name.
   *
   * @param name a candidate name
   * @return {@code true} if taken
   */
  public boolean isLocalNameTaken(String name) {
    return localNames.contains(name);
  }

  /**
   * Returns {@code base}, or {@code base} followed by 2, 3, ...: the first name no local uses.
   *
   * @param base the preferred name
   * @return a free local name
   */
  public String freshLocalName(String base) {
    if (!isLocalNameTaken(base)) {
      return base;
    }
    for (int i = 2; ; i++) {
      if (!isLocalNameTaken(base + i)) {
        return base + i;
      }
    }
  }

  /**
   * Tells whether {@code loop} can start another round after {@code clause} handled a failure: the
   * clause can complete and control reaches the end of the loop body, or it continues the loop.
   *
   * @param clause a catch clause whose innermost loop is {@code loop}
   * @param loop the loop
   * @return {@code true} if the failure is retried
   */
  public boolean goesRoundAgain(Stmt.Catch clause, LoopInfo loop) {
    return RetryLoops.goesRoundAgain(this, clause, loop);
  }

  /**
   * Returns the loop whose rounds run a catch clause's try statement.
   *
   * @param clause a catch clause
   * @return the innermost loop around its try statement, or {@code null}
   */
  public LoopInfo loopOf(Stmt.Catch clause) {
    return innermostLoop(tryOf(clause));
  }

  /**
   * Returns the loops of other methods of the unit that repeat this method as their attempt after a
   * clause of it caught the attempt's failure ({@link LoopInfo.Evidence#CAUGHT_IN_HELPER}): the
   * loop {@code while (!shutdown) { .. manage(); }} for a clause of {@code manage()} that logs and
   * counts the failure.
   *
   * @param clause a catch clause of this method
   * @return the callers' loops, possibly empty; empty unless the clause is one that lets such a
   *     loop go round (it completes or returns, and takes more than interrupts)
   */
  public List<LoopInfo> callerLoopsRetrying(Stmt.Catch clause) {
    if (!RetryLoops.swallowsAttemptFailure(this, clause)) {
      return List.of();
    }
    if (callerLoops == null) {
      callerLoops = findCallerLoops();
    }
    return callerLoops;
  }

  /** The callers' loops with a failure caught in a helper whose level calls this method. */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private List<LoopInfo> findCallerLoops() {
    List<LoopInfo> found = new ArrayList<>();
    for (MethodModel caller : unitFacts().callers(method)) {
      MethodAnalysis callerAnalysis = unitFacts().analysisOf(caller);
      if (callerAnalysis == null) {
        continue;
      }
      for (LoopInfo loop : callerAnalysis.loops()) {
        if (!loop.evidence().contains(LoopInfo.Evidence.CAUGHT_IN_HELPER)) {
          continue;
        }
        for (Node n : callerAnalysis.loopLevel(loop)) {
          // A call the loop leaves after whatever its outcome ({@code saveNewEnvelope(..);
          // break;}) is no attempt the loop repeats, even when another helper's failure
          // makes it go round.
          if (n instanceof Expr.Call call
              && context.unit().declarationOf(call) == method
              && !callerAnalysis.isInCatchBody(n, loop.node())
              && !RetryLoops.leavesWhatever(callerAnalysis, call, loop)) {
            found.add(loop);
            break;
          }
        }
      }
    }
    return found;
  }

  private static boolean containsIdentity(List<? extends Node> nodes, Node node) {
    for (Node n : nodes) {
      if (n == node) {
        return true;
      }
    }
    return false;
  }
}
