package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Failure mode D, at the creation: a long-lived executor — stored in a field, returned from a
 * factory, or handed to a constructor — is created with a queue that has no capacity ({@code
 * Executors.newFixedThreadPool}, {@code newSingleThreadExecutor}, a {@code ThreadPoolExecutor} on a
 * {@code LinkedBlockingQueue} or {@code LinkedBlockingDeque} without capacity, a {@code
 * LinkedTransferQueue} or {@code PriorityBlockingQueue}) or with no limit on threads ({@code
 * newCachedThreadPool}, a {@code SynchronousQueue} with {@code Integer.MAX_VALUE} threads, also
 * when the maximum is a field or constant holding it). Under load its backlog (or thread count)
 * grows until memory runs out, and submitters never feel backpressure.
 *
 * <p>Scheduled executors ({@code newScheduledThreadPool}, {@code newSingleThreadScheduledExecutor},
 * {@code ScheduledThreadPoolExecutor}: a delay queue without capacity) and Spring's {@code
 * SimpleAsyncTaskExecutor} (a thread per task) are reported only when kept in a field that a method
 * of the class's API hands a one-off task on every call.
 *
 * <p>Not reported: bounded queues (whatever the rejection policy), an executor created, used and
 * shut down in one method (a bounded batch: {@link UnboundedSubmissionRule}'s business if it is fed
 * in a loop), executors kept only in locals, and executors kept in a field whose every task is a
 * long-running worker, a timer or a one-off task under an in-flight guard.
 *
 * <p>Fix: for {@code new LinkedBlockingQueue<>()}, an explicit capacity (a full queue then rejects;
 * the number is a starting point to tune). Pools made by {@code Executors} are reported without a
 * fix: which bound and which policy for a full queue is the author's call.
 */
public final class UnboundedExecutorRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UnboundedExecutor";

  private static final String EXECUTORS = "java.util.concurrent.Executors";

  /** Calls that store a value in a collection or holder. */
  private static final Set<String> STORES =
      Set.of("put", "putIfAbsent", "computeIfAbsent", "compute", "add", "set", "offer", "register");

  /**
   * Why an executor is unbounded, and the queue creation to give a capacity, if any.
   *
   * @param description why, for the message
   * @param queue the queue creation to give a capacity, or {@code null}
   * @param whenFedPerCall whether it is reported only when an entry point of the unit hands it a
   *     task per call (scheduled executors, usually fed by timers)
   */
  private record Unbounded(String description, Expr.New queue, boolean whenFedPerCall) {
    Unbounded(String description, Expr.New queue) {
      this(description, queue, false);
    }
  }

  /** Scheduled executors made by {@code Executors}: an unbounded delay queue behind them. */
  private static final Set<String> SCHEDULED_FACTORIES =
      Set.of("newScheduledThreadPool", "newSingleThreadScheduledExecutor");

  private static final String SCHEDULED_POOL = "java.util.concurrent.ScheduledThreadPoolExecutor";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call) && !(n instanceof Expr.New)) {
        continue;
      }
      Expr creation = (Expr) n;
      Unbounded unbounded = unbounded(analysis, creation);
      if (unbounded == null) {
        continue;
      }
      String kept = keptBeyondTheMethod(analysis, creation);
      if (kept == null || askedForWithoutLimit(analysis, creation)) {
        continue;
      }
      Uses uses = uses(analysis, creation);
      if (unbounded.whenFedPerCall()
          ? uses == null || uses.perCall() == 0
          : uses != null && uses.onlyBounded()) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              creation instanceof Expr.Call call ? call.nameSpan() : creation.span(),
              "This executor is "
                  + kept
                  + " and created "
                  + unbounded.description()
                  + (unbounded.whenFedPerCall()
                      ? ", and a method of the class's API hands it a task on every call"
                      : "")
                  + (unbounded.description().contains("thread")
                      ? ": under load it starts threads without bound until memory or native"
                          + " threads run out"
                      : ": under load its backlog grows without bound until memory runs out")
                  + ", and submitters never slow down. Bound it (BoundedExecutor, or a"
                  + " ThreadPoolExecutor on an ArrayBlockingQueue with a policy for a full queue)",
              fixes(analysis, unbounded)));
    }
    return findings;
  }

  /**
   * Whether the unbounded executor is made only when the configuration says "no limit" and a
   * bounded one otherwise: {@code if (maxSize == -1) pool = newCachedThreadPool(); else pool = new
   * ThreadPoolExecutor(0, maxSize, ..);}. The user asked for it; the default is bounded.
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  private static boolean askedForWithoutLimit(MethodAnalysis analysis, Expr creation) {
    Node child = creation;
    for (Node parent = analysis.parent(creation);
        parent != null && !(parent instanceof Expr.Lambda);
        child = parent, parent = analysis.parent(parent)) {
      if (parent instanceof Stmt.If test
          && test.then() == child
          && test.otherwise() != null
          && saysNoLimit(test.condition())) {
        for (Node n : Nodes.sameFrame(test.otherwise())) {
          if (n instanceof Expr made && isExecutorMade(made)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** {@code size == -1}, {@code size < 0}, {@code size <= 0}: a configured "no limit". */
  private static boolean saysNoLimit(Expr condition) {
    if (!(condition instanceof Expr.Binary test)) {
      return false;
    }
    Integer value = literalInt(test.right());
    return switch (test.operator()) {
      case "==" -> Integer.valueOf(-1).equals(value);
      case "<", "<=" -> Integer.valueOf(0).equals(value);
      default -> false;
    };
  }

  private static Integer literalInt(Expr expr) {
    if (expr instanceof Expr.Literal literal && literal.value() instanceof Number number) {
      return number.intValue();
    }
    if (expr instanceof Expr.Unary minus
        && minus.operator().equals("-")
        && minus.operand() instanceof Expr.Literal literal
        && literal.value() instanceof Number number) {
      return -number.intValue();
    }
    return null;
  }

  /** Whether an expression makes an executor: a pool's constructor or an {@code Executors} call. */
  private static boolean isExecutorMade(Expr expr) {
    if (expr instanceof Expr.New made) {
      String name = made.type().simpleName();
      return name.endsWith("Executor") || name.endsWith("ExecutorService") || name.endsWith("Pool");
    }
    return expr instanceof Expr.Call call
        && CallNames.EXECUTOR_FACTORIES.contains(call.name())
        && Nodes.isStaticCallOn(call, EXECUTORS);
  }

  /** Why an executor creation is unbounded, or {@code null}. */
  private static Unbounded unbounded(MethodAnalysis analysis, Expr creation) {
    if (creation instanceof Expr.Call factory
        && SCHEDULED_FACTORIES.contains(factory.name())
        && Nodes.isStaticCallOn(factory, EXECUTORS)) {
      return new Unbounded(
          "with Executors." + factory.name() + "(), whose delay queue has no capacity", null, true);
    }
    if (creation instanceof Expr.Call factory) {
      if (!CallNames.EXECUTOR_FACTORIES.contains(factory.name())
          || !Nodes.isStaticCallOn(factory, EXECUTORS)) {
        return null;
      }
      return switch (factory.name()) {
        case "newCachedThreadPool" ->
            new Unbounded(
                "with Executors.newCachedThreadPool(), which starts a thread for every task that"
                    + " finds no idle one",
                null);
        default ->
            new Unbounded(
                "with Executors."
                    + factory.name()
                    + "(), whose LinkedBlockingQueue has no capacity",
                null);
      };
    }
    Expr.New created = (Expr.New) creation;
    if (created.type().name().equals(SCHEDULED_POOL)
        || (created.type().name().isEmpty()
            && created.span().isKnown()
            && created.type().simpleName().equals("ScheduledThreadPoolExecutor"))) {
      return new Unbounded(
          "as a ScheduledThreadPoolExecutor, whose delay queue has no capacity", null, true);
    }
    if (CallNames.THREAD_PER_TASK_CLASSES.contains(created.type().simpleName())
        && created.span().isKnown()) {
      return new Unbounded(
          "as a SimpleAsyncTaskExecutor, which starts a new thread for every task", null, true);
    }
    if (!created.type().name().equals("java.util.concurrent.ThreadPoolExecutor")
        && !(created.type().name().isEmpty()
            && created.span().isKnown()
            && CallNames.EXECUTOR_CLASSES.contains(created.type().simpleName()))) {
      return null;
    }
    PoolShapes.Unbounded pool = PoolShapes.threadPool(analysis, created);
    if (pool == null) {
      return null;
    }
    return pool.threads()
        ? new Unbounded(
            "with no limit on threads (a SynchronousQueue and Integer.MAX_VALUE threads)", null)
        : new Unbounded(
            "on a " + pool.queue().type().simpleName() + " without capacity", pool.fixableQueue());
  }

  /**
   * Says how the created executor outlives the method, or returns {@code null} if it does not:
   * stored in a field, returned, or handed to a constructor (directly, through a conditional or a
   * decorating call such as {@code unconfigurableExecutorService(..)}, or through a local).
   */
  private static String keptBeyondTheMethod(MethodAnalysis analysis, Expr creation) {
    Node value = creation;
    Node parent = analysis.parent(value);
    while (parent instanceof Expr.Conditional || isDecorating(parent, value)) {
      value = parent;
      parent = analysis.parent(value);
    }
    String direct = keptBy(analysis, parent, value);
    if (direct != null) {
      return direct;
    }
    // Through a local: ExecutorService pool = ...; this.pool = pool; / return pool;
    String local = null;
    if (parent instanceof Stmt.LocalVar variable && variable.init() == value) {
      local = variable.name();
    } else if (parent instanceof Expr.Assign assign
        && assign.value() == value
        && assign.target() instanceof Expr.Name target
        && target.isVariable(target.name())) {
      local = target.name();
    }
    if (local == null) {
      return null;
    }
    String shutdownTask = null;
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Expr.Name use && use.isVariable(local)) {
        Node user = analysis.parent(use);
        String kept = keptBy(analysis, user, use);
        if (kept != null) {
          return kept;
        }
        if (user instanceof Expr.New created && isShutdownTask(created)) {
          shutdownTask = created.type().simpleName();
        }
      }
    }
    // new ShutdownExecutorServiceTask(pool): a task that shuts the executor down keeps it only
    // until it runs, like shutdownQuietly(pool) in the method, as long as the method does nothing
    // else with it but feed it.
    return shutdownTask != null && !onlyFedAndShutDown(analysis, local)
        ? "handed to a new " + shutdownTask
        : null;
  }

  /** Whether an object made with the executor shuts it down: {@code ShutdownExecutorTask}. */
  private static boolean isShutdownTask(Expr.New created) {
    return SHUTS_DOWN.matcher(created.type().simpleName()).matches();
  }

  /** Calls that hand an executor a task. */
  private static final Set<String> SUBMISSIONS =
      Set.of(
          "submit",
          "execute",
          "invokeAll",
          "invokeAny",
          "schedule",
          "scheduleAtFixedRate",
          "scheduleWithFixedDelay");

  /**
   * What the unit does with an executor it keeps in a field.
   *
   * @param bounded tasks that cannot pile up: long-running workers, timers, and one-off tasks
   *     submitted under an in-flight guard
   * @param perCall one-off tasks submitted by an entry point of the class's API, once per call
   * @param other any other one-off task, or a use that lets the executor escape
   */
  private record Uses(int bounded, int perCall, boolean other) {
    /** Whether every task the executor is ever given is bounded (and there is one). */
    boolean onlyBounded() {
      return bounded > 0 && perCall == 0 && !other;
    }
  }

  /**
   * Tells what the unit does with the created executor when it is stored in a field (directly or
   * through a local): for each use of the field in the unit, whether it hands the executor a
   * long-running worker ({@code while (running)}, {@code while (!pool.isShutdown())}, {@code while
   * (true)}, as a lambda or a class of the unit whose {@code run()} is one) or a timer, a one-off
   * task under an in-flight guard ({@code if (inFlight.compareAndSet(false, true))}), a one-off
   * task from an entry point (a public or protected method that is not a constructor, a task body
   * or a life-cycle method: once per call of the API), anything else, or lets it escape.
   *
   * @return the uses, or {@code null} when the executor is not kept in a field of the unit alone
   *     (returned, or handed to a constructor) or is configured to bound itself ({@code
   *     setConcurrencyLimit(n)}, {@code setRemoveOnCancelPolicy(true)})
   */
  private static Uses uses(MethodAnalysis analysis, Expr creation) {
    Node parent = analysis.parent(creation);
    String local = null;
    String field = null;
    if (parent instanceof Stmt.LocalVar variable && variable.init() == creation) {
      local = variable.name();
    } else if (parent instanceof Expr.Assign assign
        && assign.value() == creation
        && assign.target() instanceof Expr.Name target) {
      if (target.kind() == Expr.NameKind.FIELD) {
        field = target.name();
      } else {
        local = target.name();
      }
    }
    if (local == null && field == null) {
      return null;
    }
    Tally tally = new Tally();
    String owner = analysis.method().owner();
    if (local != null) {
      Set<Node> guarded = guardedNodes(analysis, analysis.method());
      Set<Node> discarded = discardedResults(analysis.method().body());
      for (Node n : analysis.bodyFrameNodes()) {
        if (!(n instanceof Expr.Name use && use.isVariable(local))) {
          continue;
        }
        Node user = analysis.parent(use);
        if (user instanceof Expr.Assign assign
            && assign.value() == use
            && assign.target() instanceof Expr.Name target
            && target.kind() == Expr.NameKind.FIELD
            && field == null) {
          field = target.name();
          continue;
        }
        MethodModel wrapper = field == null ? wrapperConstructor(analysis, user, use) : null;
        if (wrapper != null) {
          // new Wrapper(pool): a class of the unit that keeps it in a field
          field = wrapperField(wrapper, user, use);
          owner = wrapper.owner();
          continue;
        }
        tally.add(analysis, analysis.method(), guarded, discarded, use, user);
      }
      if (field == null) {
        return null; // kept some other way: returned, or handed to a constructor
      }
    }
    for (MethodModel method : analysis.context().unit().methods()) {
      // Outside the class, only a use through another object (manager.pool) can be its field: a
      // bare or this-qualified name there is another class's field of the same name.
      boolean ofTheClass = isOf(method, owner);
      Set<Node> guarded = null;
      Set<Node> discarded = null;
      // One walk per method: each use of the field is seen with its parent.
      for (Node user : Nodes.preOrder(method.body())) {
        for (Node child : user.children()) {
          if (!(child instanceof Expr.Name use
              && use.kind() == Expr.NameKind.FIELD
              && use.name().equals(field)
              && (ofTheClass || isThroughAnotherObject(use)))) {
            continue;
          }
          if (user instanceof Expr.Assign assign && assign.target() == use) {
            continue; // (re)assigned: this creation, or another checked where it is created
          }
          if (guarded == null) {
            guarded = guardedNodes(analysis, method);
            discarded = discardedResults(method.body());
          }
          tally.add(analysis, method, guarded, discarded, use, user);
        }
      }
    }
    return tally.limited ? null : new Uses(tally.bounded, tally.perCall, tally.other);
  }

  /**
   * Whether a field is named through any object but plain {@code this}: {@code Outer.this.pool}.
   */
  private static boolean throughOtherInstance(Expr.Name use) {
    return use.qualifier() != null
        && !(use.qualifier() instanceof Expr.Name q
            && q.name().equals("this")
            && q.qualifier() == null);
  }

  /**
   * Whether a field is named through another object: {@code manager.pool}, not {@code this.pool}.
   */
  private static boolean isThroughAnotherObject(Expr.Name use) {
    return use.qualifier() != null
        && !(use.qualifier() instanceof Expr.Name q && q.name().equals("this"));
  }

  /** Whether a method is of the class {@code owner}, of a class nested in it, or anonymous. */
  static boolean isOf(MethodModel method, String owner) {
    String of = method.owner();
    return owner.isEmpty()
        || of.isEmpty()
        || of.equals(owner)
        || of.startsWith(owner + ".")
        || of.startsWith(owner + "$");
  }

  /**
   * The constructor of a class of the unit that {@code user} hands the executor to ({@code new
   * InternalExecutorService(pool, ..)}) when it keeps it in a field, or {@code null}.
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  private static MethodModel wrapperConstructor(MethodAnalysis analysis, Node user, Expr.Name use) {
    if (!(user instanceof Expr.New created) || created.hasBody()) {
      return null;
    }
    String simple = created.type().simpleName();
    if (simple.isEmpty()) {
      return null;
    }
    for (MethodModel method : analysis.context().unit().methods()) {
      String owner = method.owner();
      if (method.isConstructor()
          && method.params().size() == created.args().size()
          && owner
              .substring(Math.max(owner.lastIndexOf('.'), owner.lastIndexOf('$')) + 1)
              .equals(simple)
          && wrapperField(method, created, use) != null) {
        return method;
      }
    }
    return null;
  }

  /**
   * The field a constructor assigns the parameter that {@code created} passes {@code use} to
   * ({@code this.wrapped = wrapped}), or {@code null}.
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  private static String wrapperField(MethodModel constructor, Node user, Expr.Name use) {
    Expr.New created = (Expr.New) user;
    int index = -1;
    for (int i = 0; i < created.args().size(); i++) {
      if (created.args().get(i) == use) {
        index = i;
      }
    }
    if (index < 0 || constructor.body() == null) {
      return null;
    }
    String param = constructor.params().get(index).name();
    for (Stmt statement : constructor.body().statements()) {
      if (statement instanceof Stmt.ExprStmt step
          && step.expr() instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name field
          && field.kind() == Expr.NameKind.FIELD
          && assign.value() instanceof Expr.Name value
          && value.isVariable(param)) {
        return field.name();
      }
    }
    return null;
  }

  /** Counts the uses of one executor, by what each hands it. */
  private static final class Tally {
    private int bounded;
    private int perCall;
    private boolean other;
    private boolean limited;

    /** Per method that submits: whether only guarded callers call it (one walk of the unit). */
    private final IdentityHashMap<MethodModel, Boolean> underGuard = new IdentityHashMap<>();

    @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
    void add(
        MethodAnalysis analysis,
        MethodModel method,
        Set<Node> guarded,
        Set<Node> discarded,
        Expr.Name use,
        Node user) {
      if (user instanceof Expr.Call call && call.receiver() == use) {
        if (call.name().equals("setConcurrencyLimit")
            || (call.name().equals("setRemoveOnCancelPolicy")
                && call.args().size() == 1
                && isBoolean(call.args().get(0), true))) {
          // A thread-per-task executor with a limit blocks at it; a scheduled pool that drops
          // cancelled tasks holds only what is still due (timeouts, debounces the class cancels).
          limited = true;
        } else if (PERIODIC.contains(call.name())) {
          bounded++; // one queue entry per timer, however long it runs
        } else if (!SUBMISSIONS.contains(call.name())) {
          return; // shutdown(), isShutdown(), a setter: no task
        } else if ((!call.args().isEmpty() && PoolShapes.isWorker(analysis, call.args().get(0)))
            // A guard bounds the queue only as the executor's own object's flag: through an
            // outer instance (Pool.this.cancellator, under each future's own flag) it is one task
            // per inner object.
            || (!throughOtherInstance(use)
                && (guarded.contains(call)
                    || underGuard.computeIfAbsent(method, m -> calledOnlyUnderGuard(analysis, m))))
            // invokeAll/invokeAny return only when the batch is done: each caller waits for
            // its own tasks, so the queue holds at most one batch per waiting caller.
            || call.name().equals("invokeAll")
            || call.name().equals("invokeAny")) {
          bounded++;
        } else if (isEntryPoint(analysis, method)
            && !(call.name().equals("schedule") && discarded.contains(call))) {
          // A delayed task whose future is dropped is a later run of the class's own work; one
          // whose future the caller keeps is a timeout it may cancel, and a cancelled task stays
          // in the queue until its delay has passed.
          perCall++;
        } else {
          other = true;
        }
        return;
      }
      if (user instanceof Expr.Binary test
          && (test.operator().equals("==") || test.operator().equals("!="))) {
        return;
      }
      if (user instanceof Expr.Call call && PASSED_WITHOUT_TASKS.matcher(call.name()).matches()) {
        return; // logged, or handed to a helper that shuts it down: no task, no escape
      }
      other = true;
    }
  }

  /**
   * Whether a private method is called only under an in-flight guard of its callers ({@code if
   * (stale() && updating.compareAndSet(false, true)) refresh();}) or from constructors: the guard
   * bounds what it submits as if the submission sat under it.
   */
  @SuppressWarnings("ReferenceEquality") // methods are compared by identity
  static boolean calledOnlyUnderGuard(MethodAnalysis analysis, MethodModel callee) {
    if (!callee.isPrivate() || callee.isConstructor() || callee.body() == null) {
      return false;
    }
    boolean called = false;
    for (MethodModel caller : analysis.context().unit().methods()) {
      if (caller == callee || caller.body() == null || !caller.owner().equals(callee.owner())) {
        continue;
      }
      Set<Node> guarded = null;
      for (Expr.Call call : Nodes.calls(caller.body())) {
        if (!call.name().equals(callee.name())
            || call.args().size() != callee.params().size()
            || !(call.receiver() == null
                || (call.receiver() instanceof Expr.Name self && self.name().equals("this")))) {
          continue;
        }
        called = true;
        if (caller.isConstructor()) {
          continue;
        }
        if (guarded == null) {
          guarded = guardedNodes(analysis, caller);
        }
        if (!guarded.contains(call)) {
          return false;
        }
      }
    }
    return called;
  }

  /** Timers: each keeps one entry in a scheduled executor's queue for as long as it runs. */
  private static final Set<String> PERIODIC =
      Set.of("scheduleAtFixedRate", "scheduleWithFixedDelay");

  /** Life-cycle methods: called once per object, not once per request or event. */
  private static final Pattern LIFE_CYCLE =
      Pattern.compile(
          "(?i)(start|init|initiali[sz]e|setUp|afterPropertiesSet|open|close|stop|shutdown"
              + "|destroy|dispose|terminate)\\w*");

  /**
   * Whether a method is an entry point of the class's API that callers drive once per request or
   * event: public or protected, or package-private and called by nothing in its own file (so other
   * classes of the package call it: {@code BatchProcessor.put(entry)}, called for every write by
   * the client class beside it); not a constructor or initialiser, not a task body ({@code run()},
   * {@code call()}), not in an anonymous class, not a life-cycle method ({@code start()}, {@code
   * init()}, {@code close()}). A package-private method its own class calls is the class's own work
   * (a resume after a failure), decided where it is called.
   */
  private static boolean isEntryPoint(MethodAnalysis analysis, MethodModel method) {
    boolean api =
        method.visibility() == MethodModel.Visibility.PUBLIC
            || method.visibility() == MethodModel.Visibility.PROTECTED
            || (method.visibility() == MethodModel.Visibility.PACKAGE
                && !calledInItsFile(analysis, method));
    return api
        && !method.isConstructor()
        && !method.name().equals(MethodModel.INITIALISERS)
        && !method.isTaskBody()
        && !method.owner().isEmpty()
        && !LIFE_CYCLE.matcher(method.name()).matches();
  }

  /**
   * Whether a call is made on the object itself: unqualified, {@code this.put(..)} or {@code
   * Outer.this.put(..)}; {@code queue.put(entry)} is another object's method.
   */
  static boolean isOnItself(Expr.Call call) {
    return call.receiver() == null
        || (call.receiver() instanceof Expr.Name self && self.name().equals("this"));
  }

  /**
   * Whether a method of the file calls this one (or one of its name and arity on the object
   * itself).
   */
  @SuppressWarnings("ReferenceEquality") // methods are compared by identity
  static boolean calledInItsFile(MethodAnalysis analysis, MethodModel callee) {
    for (MethodModel caller : analysis.context().unit().methods()) {
      if (caller.body() == null) {
        continue;
      }
      for (Node n : Nodes.preOrder(caller.body())) {
        if (n instanceof Expr.Call call
            && call.name().equals(callee.name())
            && call.args().size() == callee.params().size()
            && (isOnItself(call)
                || analysis.context().unit().declarationInProject(call) == callee)) {
          return true; // also from a lambda: still the file's own code
        }
      }
    }
    return false;
  }

  /**
   * The nodes of a body that run only under an in-flight guard: inside {@code if
   * (flag.compareAndSet(false, true))} (or {@code if (!flag.getAndSet(true))}), or after {@code if
   * (!flag.compareAndSet(false, true)) return;} in the same block. At most one such task is queued
   * until it (or the code after it) clears the flag.
   */
  private static Set<Node> guardedNodes(MethodAnalysis analysis, MethodModel method) {
    Set<Node> guarded = Collections.newSetFromMap(new IdentityHashMap<>());
    Node body = method.body();
    if (body == null) {
      return guarded;
    }
    GuardBypasses.Scope scope = new GuardBypasses.Scope(analysis, method);
    for (Node n : Nodes.preOrder(body)) {
      if (n instanceof Stmt.If test && isGuard(scope, test.condition())) {
        guarded.addAll(Nodes.preOrder(test.then()));
      }
      if (n instanceof Expr.Call compute
          && compute.name().equals("computeIfAbsent")
          && compute.args().size() == 2) {
        guarded.addAll(Nodes.preOrder(compute.args().get(1))); // runs once per absent key
      }
      if (n instanceof Stmt.Block block) {
        List<Stmt> statements = block.statements();
        for (int i = 0; i < statements.size(); i++) {
          if (statements.get(i) instanceof Stmt.If test
              && test.otherwise() == null
              && test.condition() instanceof Expr.Unary not
              && not.operator().equals("!")
              && isGuard(scope, not.operand())
              && exits(test.then())) {
            for (Stmt after : statements.subList(i + 1, statements.size())) {
              guarded.addAll(Nodes.preOrder(after));
            }
            break;
          }
        }
      }
    }
    return guarded;
  }

  /** The calls of a body whose result is dropped: the expression of an expression statement. */
  private static Set<Node> discardedResults(Node body) {
    Set<Node> discarded = Collections.newSetFromMap(new IdentityHashMap<>());
    if (body != null) {
      for (Node n : Nodes.preOrder(body)) {
        if (n instanceof Stmt.ExprStmt statement) {
          discarded.add(statement.expr());
        }
      }
    }
    return discarded;
  }

  /**
   * An admission test that lets one task in per flag, key or permit: {@code
   * flag.compareAndSet(false, true)}, {@code !flag.getAndSet(true)}, {@code pending.add(key)},
   * {@code !tasks.containsKey(key)}, {@code tasks.putIfAbsent(key, task) == null}, {@code
   * limiter.tryAcquire(..)} or {@code acquire(..)} (a rate limiter or semaphore).
   */
  private static boolean isGuard(GuardBypasses.Scope scope, Expr condition) {
    if (condition instanceof Expr.Binary both && both.operator().equals("&&")) {
      // if (stale() && updating.compareAndSet(false, true)): the guard must hold as well
      return isGuard(scope, both.left()) || isGuard(scope, both.right());
    }
    if (condition instanceof Expr.Binary either && either.operator().equals("||")) {
      // if (force || isNewRequest): the other side lets a task past the guard, so it holds only
      // when nothing but dead code ever sets it
      return (isGuard(scope, either.left()) && GuardBypasses.neverSet(scope, either.right()))
          || (isGuard(scope, either.right()) && GuardBypasses.neverSet(scope, either.left()));
    }
    if (condition instanceof Expr.Name local && local.kind() == Expr.NameKind.LOCAL) {
      // boolean isNewRequest = requests.add(request); if (isNewRequest) ..
      Expr value = GuardBypasses.soleValue(scope.method(), local);
      return value != null && isGuard(scope, value);
    }
    if (condition instanceof Expr.Call call
        && call.receiver() != null
        && (call.name().equals("tryAcquire")
            || call.name().equals("acquire")
            || (call.name().equals("add") && call.args().size() == 1))) {
      return true;
    }
    if (condition instanceof Expr.Unary not
        && not.operator().equals("!")
        && not.operand() instanceof Expr.Call contains
        && contains.name().equals("containsKey")
        && contains.receiver() != null) {
      return true;
    }
    if (condition instanceof Expr.Binary test
        && test.operator().equals("==")
        && test.left() instanceof Expr.Call put
        && put.name().equals("putIfAbsent")
        && test.right() instanceof Expr.Literal nothing
        && nothing.value() == null) {
      return true;
    }
    if (condition instanceof Expr.Call cas
        && cas.name().equals("compareAndSet")
        && cas.receiver() != null
        && cas.args().size() == 2
        && isBoolean(cas.args().get(0), false)
        && isBoolean(cas.args().get(1), true)) {
      return true;
    }
    return condition instanceof Expr.Unary not
        && not.operator().equals("!")
        && not.operand() instanceof Expr.Call set
        && set.name().equals("getAndSet")
        && set.receiver() != null
        && set.args().size() == 1
        && isBoolean(set.args().get(0), true);
  }

  private static boolean isBoolean(Expr expr, boolean value) {
    return expr instanceof Expr.Literal literal && Boolean.valueOf(value).equals(literal.value());
  }

  /** Whether a branch leaves the method: a return or throw, alone or ending a block. */
  private static boolean exits(Stmt branch) {
    Stmt last = branch;
    if (branch instanceof Stmt.Block block) {
      if (block.statements().isEmpty()) {
        return false;
      }
      last = block.statements().get(block.statements().size() - 1);
    }
    return last instanceof Stmt.Return || last instanceof Stmt.Throw;
  }

  /** Calls an executor is passed to that give it no task: log lines and shutdown helpers. */
  private static final Pattern PASSED_WITHOUT_TASKS =
      Pattern.compile(
          "(?i)trace|debug|info|warn|warning|error|log|\\w*(shutdown|terminat|close)\\w*");

  /** Classes whose object shuts down the executor it is given: {@code ShutdownExecutorTask}. */
  private static final Pattern SHUTS_DOWN = Pattern.compile("(?i)\\w*(shut_?down|terminat)\\w*");

  /**
   * Whether the method does nothing with a local executor but call it ({@code submit(..)}) and hand
   * it to what shuts it down ({@code new ShutdownExecutorServiceTask(pool)}, {@code
   * shutdownQuietly(pool)}): handed to any other code, it may be fed there.
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  private static boolean onlyFedAndShutDown(MethodAnalysis analysis, String local) {
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Name use && use.isVariable(local))) {
        continue;
      }
      Node user = analysis.parent(use);
      boolean fine =
          (user instanceof Expr.Call call
                  && (call.receiver() == use
                      || PASSED_WITHOUT_TASKS.matcher(call.name()).matches()))
              || (user instanceof Expr.New created && isShutdownTask(created))
              || (user instanceof Stmt.LocalVar declared && declared.name().equals(local));
      if (!fine) {
        return false;
      }
    }
    return true;
  }

  /** A call that takes the executor and returns an executor wrapping it. */
  private static boolean isDecorating(Node parent, Node value) {
    if (!(parent instanceof Expr.Call call)
        || STORES.contains(call.name())
        || !call.type().isSubtypeOf("java.util.concurrent.Executor")) {
      return false;
    }
    for (Expr arg : call.args()) {
      if (arg == value) {
        return true;
      }
    }
    return false;
  }

  /** How {@code parent} keeps {@code value}: a field, a return, a constructor; or {@code null}. */
  private static String keptBy(MethodAnalysis analysis, Node parent, Node value) {
    if (parent instanceof Expr.Assign assign
        && assign.value() == value
        && assign.target() instanceof Expr.Name target
        && target.kind() == Expr.NameKind.FIELD) {
      return "stored in the field " + target.name();
    }
    // Stored in a field's collection: pools.put(key, executor), pools.computeIfAbsent(key, k ->
    // executor).
    Node holder = parent;
    if (parent instanceof Stmt.ExprStmt || parent instanceof Stmt.Return) {
      Node lambda = analysis.parent(parent);
      if (lambda instanceof Stmt.Block block) {
        lambda = analysis.parent(block);
      }
      if (lambda instanceof Expr.Lambda) {
        holder = analysis.parent(lambda);
      }
    }
    if (holder instanceof Expr.Call store
        && STORES.contains(store.name())
        && store.receiver() instanceof Expr.Name field
        && field.kind() == Expr.NameKind.FIELD) {
      return "stored in the field " + field.name();
    }
    if (parent instanceof Stmt.Return) {
      return analysis.enclosingLambda(parent) == null
          ? "returned by " + describe(analysis.method())
          : null;
    }
    if (parent instanceof Expr.New created
        && created.args().contains(value)
        && !(value instanceof Expr.Name && isShutdownTask(created))) {
      return "handed to a new " + created.type().simpleName();
    }
    if (parent instanceof Expr.Call call
        && (call.name().equals("this") || call.name().equals("super"))
        && call.args().contains(value)) {
      return "handed to the constructor";
    }
    return null;
  }

  private static String describe(MethodModel method) {
    return method.name() + "()";
  }

  private static List<Fix> fixes(MethodAnalysis analysis, Unbounded unbounded) {
    Expr.New queue = unbounded.queue();
    if (queue == null || !queue.span().isKnown()) {
      return List.of();
    }
    String text = analysis.context().text(queue.span());
    if (!text.endsWith("()")) {
      return List.of();
    }
    return List.of(
        new Fix(
            "Give the queue a capacity (a full queue then rejects; tune the number)",
            List.of(Edit.insert(queue.span().end() - 1, UnboundedSubmissionRule.PROPOSED_CAPACITY)),
            Set.of()));
  }
}
