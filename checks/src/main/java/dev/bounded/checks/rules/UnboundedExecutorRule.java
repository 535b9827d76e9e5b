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
import java.util.List;
import java.util.Set;

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
 * <p>Not reported: bounded queues (whatever the rejection policy), an executor created, used and
 * shut down in one method (a bounded batch: {@link UnboundedSubmissionRule}'s business if it is fed
 * in a loop), and executors kept only in locals.
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

  /** Why an executor is unbounded, and the queue creation to give a capacity, if any. */
  private record Unbounded(String description, Expr.New queue) {}

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
      if (kept == null || runsOnlyWorkers(analysis, creation)) {
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

  /** Why an executor creation is unbounded, or {@code null}. */
  private static Unbounded unbounded(MethodAnalysis analysis, Expr creation) {
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
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Expr.Name use && use.isVariable(local)) {
        String kept = keptBy(analysis, analysis.parent(use), use);
        if (kept != null) {
          return kept;
        }
      }
    }
    return null;
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
   * Whether the executor only ever runs long-running workers: it is stored in a field (directly or
   * through a local) that never leaves the unit, and every task the unit hands it is a loop that
   * runs until stopped ({@code while (running)}, {@code while (!pool.isShutdown())}, {@code while
   * (true)}), as a lambda or a class of the unit whose {@code run()} is one. Such a pool holds one
   * thread per worker and an empty queue however busy the application is: starting {@code
   * senderPoolSize} senders on a cached pool is a fixed set of threads, not an unbounded one.
   */
  private static boolean runsOnlyWorkers(MethodAnalysis analysis, Expr creation) {
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
      return false;
    }
    int submissions = 0;
    if (local != null) {
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
        int tasks = workerSubmissions(analysis, use, user);
        if (tasks < 0) {
          return false;
        }
        submissions += tasks;
      }
      if (field == null) {
        return false; // kept some other way: returned, or handed to a constructor
      }
    }
    for (MethodModel method : analysis.context().unit().methods()) {
      // One walk per method: each use of the field is seen with its parent.
      for (Node user : Nodes.preOrder(method.body())) {
        for (Node child : user.children()) {
          if (!(child instanceof Expr.Name use
              && use.kind() == Expr.NameKind.FIELD
              && use.name().equals(field))) {
            continue;
          }
          if (user instanceof Expr.Assign assign && assign.target() == use) {
            continue; // (re)assigned: this creation, or another checked where it is created
          }
          int tasks = workerSubmissions(analysis, use, user);
          if (tasks < 0) {
            return false;
          }
          submissions += tasks;
        }
      }
    }
    return submissions > 0;
  }

  /**
   * What one use of the executor does: 1 if it submits a worker, 0 if it is a use that gives it no
   * task ({@code shutdown()}, {@code isShutdown()}, a null test), -1 if it submits anything else or
   * lets the executor escape (an argument, a return, a store elsewhere).
   */
  private static int workerSubmissions(MethodAnalysis analysis, Expr.Name use, Node user) {
    if (user instanceof Expr.Call call && call.receiver() == use) {
      if (!SUBMISSIONS.contains(call.name())) {
        return 0;
      }
      return !call.args().isEmpty() && PoolShapes.isWorker(analysis, call.args().get(0)) ? 1 : -1;
    }
    if (user instanceof Expr.Binary test
        && (test.operator().equals("==") || test.operator().equals("!="))) {
      return 0;
    }
    if (user instanceof Expr.Call call && PASSED_WITHOUT_TASKS.matcher(call.name()).matches()) {
      return 0; // logged, or handed to a helper that shuts it down: no task, no escape
    }
    return -1;
  }

  /** Calls an executor is passed to that give it no task: log lines and shutdown helpers. */
  private static final java.util.regex.Pattern PASSED_WITHOUT_TASKS =
      java.util.regex.Pattern.compile(
          "(?i)trace|debug|info|warn|warning|error|log|\\w*(shutdown|terminat|close)\\w*");

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
    if (parent instanceof Expr.New created && created.args().contains(value)) {
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
