package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.LoopInfo;
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
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Failure mode D: tasks are submitted in a loop (or a {@code forEach}) to an executor that queues
 * without bound: {@code Executors.newFixedThreadPool}, {@code newSingleThreadExecutor}, {@code
 * newScheduledThreadPool}, {@code newWorkStealingPool}, {@code newCachedThreadPool} (a thread per
 * waiting task), the common pool ({@code supplyAsync}/{@code runAsync} without an executor), or a
 * {@code ThreadPoolExecutor} built on a queue without capacity. Under load the backlog grows until
 * memory runs out, and the submitter never feels backpressure.
 *
 * <p>The executor is followed through locals and the fields of the same class. Not reported:
 * bounded queues, a {@code Semaphore} acquired in the loop, a single submission, loops with a small
 * constant count (at most {@value #SMALL_LOOP} rounds) or as many rounds as the pool has threads,
 * and a loop over a collection onto a pool that the same method creates and shuts down (a batch
 * bounded by the collection).
 *
 * <p>Fix, at the executor's creation: a fixed pool becomes a {@code ThreadPoolExecutor} on an
 * {@code ArrayBlockingQueue} with {@code CallerRunsPolicy} (the submitter runs the task itself when
 * the queue is full); an unbounded {@code LinkedBlockingQueue} gets a capacity.
 */
public final class UnboundedSubmissionRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UnboundedSubmission";

  /** Loops with at most this many rounds, written as a constant, submit a bounded batch. */
  static final int SMALL_LOOP = 1024;

  /** The queue capacity the fixes propose: explicit, and a starting point to tune. */
  static final String PROPOSED_CAPACITY = "1_000";

  private static final String EXECUTORS = "java.util.concurrent.Executors";
  private static final String BOUNDED_EXECUTOR = "dev.bounded.runtime.BoundedExecutor";

  /**
   * Why an executor is unbounded, the expression to fix, the pool-size expression of a fixed pool,
   * the local variable holding the executor, if any, and the name of the variable or field the
   * submission goes through (to name a bounded replacement).
   */
  private record Unbounded(
      String description, Expr origin, Expr threads, String local, String holder) {
    Unbounded(String description, Expr origin, Expr threads) {
      this(description, origin, threads, null, null);
    }

    Unbounded inLocal(String variable) {
      return new Unbounded(description, origin, threads, variable, holder);
    }

    Unbounded heldBy(String name) {
      return new Unbounded(description, origin, threads, local, name);
    }
  }

  private static final Set<String> SHUTDOWNS =
      Set.of("shutdown", "shutdownNow", "close", "awaitTermination");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    IdentityHashMap<Expr, Boolean> fixed = new IdentityHashMap<>();
    for (LoopInfo loop : analysis.loops()) {
      if (loop.isWholeMethod()) {
        continue; // one submission per attempt or per run: bounded by the attempts
      }
      for (Node n : analysis.loopLevel(loop)) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        Unbounded executor = unboundedTarget(analysis, call);
        String through = null;
        if (executor == null) {
          Helper helper = submitsInHelper(analysis, call);
          if (helper == null || leavesAfter(analysis, call)) {
            continue;
          }
          executor = helper.executor();
          through = helper.name();
        }
        if (isBoundedBatch(analysis, loop, executor)
            || startsWorkers(analysis, loop, call)
            // Queued notifications; on a pool that starts a thread per task, every event
            // starts as many threads as there are listeners.
            || (notifiesListeners(loop)
                && !executor.description().contains("new thread")
                && !PER_MESSAGE.matcher(analysis.method().name()).matches())) {
          continue;
        }
        List<Fix> fixes = List.of();
        if (executor.origin() != null && fixed.put(executor.origin(), Boolean.TRUE) == null) {
          fixes = fixes(analysis, executor);
        }
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "Tasks are submitted in a loop"
                    + (through == null ? "" : ", through " + through + "(),")
                    + " to "
                    + executor.description()
                    + ": under load the backlog grows without bound until memory runs out, and"
                    + " the submitter never slows down. Use a bounded queue with an explicit"
                    + " policy for when it is full (BoundedExecutor, or a ThreadPoolExecutor on an"
                    + " ArrayBlockingQueue)",
                fixes));
      }
    }
    return findings;
  }

  /** A method of the unit that submits to an unbounded executor, and that executor. */
  private record Helper(String name, Unbounded executor) {}

  /** Conditions that let one task in at a time: an atomic flag set, a permit or lock taken. */
  private static final java.util.regex.Pattern ADMITS_ONE =
      java.util.regex.Pattern.compile("compareAndSet|getAndSet|tryAcquire|acquire|tryLock|add");

  /**
   * A call of a method of the same unit that submits one task to an unbounded executor held by a
   * field ({@code notifyAsync(listener, event)}, whose body is {@code executorService.submit(..)}):
   * called in a loop, it submits in the loop just as if the submission were written there. Not when
   * the method's submission is in a loop of its own (reported there), in a lambda, guarded by a
   * test that admits one task at a time ({@code if (scheduled.compareAndSet(false, true))}), starts
   * a long-running worker, or goes to an executor the method creates itself.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static Helper submitsInHelper(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = analysis.context().unit().declarationOf(call);
    if (callee == null || callee == analysis.method() || callee.body() == null) {
      return null; /* Fast path: not a method of the unit. */
    }
    boolean submits = false;
    for (Node n : Nodes.sameFrame(callee.body())) {
      if (n instanceof Expr.Call inner
          && (CallNames.SUBMISSIONS.contains(inner.name())
              || CallNames.ASYNC_STARTS.contains(inner.name()))) {
        submits = true;
        break;
      }
    }
    if (!submits) {
      return null;
    }
    MethodAnalysis inner = analysis.calleeAnalysis(callee);
    if (inner == null) {
      return null;
    }
    for (Node n : Nodes.sameFrame(callee.body())) {
      if (!(n instanceof Expr.Call submission)) {
        continue;
      }
      Unbounded executor = unboundedTarget(inner, submission);
      if (executor == null
          || executor.local() != null
          || inner.innermostLoop(submission) != null
          || admitsOne(inner, submission)
          || (!submission.args().isEmpty()
              && PoolShapes.isWorker(inner, submission.args().get(0)))) {
        continue;
      }
      return new Helper(callee.name(), executor);
    }
    return null;
  }

  /**
   * Whether the statement after the call leaves the loop ({@code initializeNewConnection(provider);
   * return;} at the end of a failover's successful attempt): the call runs once per loop, not once
   * per round.
   */
  private static boolean leavesAfter(MethodAnalysis analysis, Expr.Call call) {
    Stmt next = analysis.statementAfter(call);
    return next instanceof Stmt.Return || next instanceof Stmt.Break || next instanceof Stmt.Throw;
  }

  /** Whether the submission sits under a test that admits one task at a time. */
  private static boolean admitsOne(MethodAnalysis analysis, Node submission) {
    for (Node p = analysis.parent(submission); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.If check) {
        for (Node n : Nodes.sameFrame(check.condition())) {
          if (n instanceof Expr.Call test && ADMITS_ONE.matcher(test.name()).matches()) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Returns why the call's executor is unbounded, or {@code null} if it is not a submission to one.
   */
  /** Names of what an application registers to be told of events. */
  private static final java.util.regex.Pattern LISTENERS =
      java.util.regex.Pattern.compile(
          "(?i).*(listener|callback|observer|subscriber|watcher)s?(list|set)?");

  /**
   * Methods run once per received message ({@code onInboundMessage}, {@code onMessage}, {@code
   * handleMessage}, {@code messageReceived}): listeners notified there get a task per message, a
   * backlog that grows with the message rate, not with the rare events of a connection.
   */
  private static final java.util.regex.Pattern PER_MESSAGE =
      java.util.regex.Pattern.compile(
          "(?i)(on|handle|process|dispatch)\\w*messages?|\\w*messages?(received|arrived)");

  /**
   * Whether a for-each over the registered listeners hands each one an event ({@code for (listener
   * : connectionListeners) executor.submit(() -> listener.onConnectionInterrupted(uri))}): one
   * notification per listener the application registered, per event, not a backlog of work that
   * grows with the input.
   */
  private static boolean notifiesListeners(LoopInfo loop) {
    if (loop.kind() != LoopInfo.Kind.FOR_EACH && loop.kind() != LoopInfo.Kind.FOR_EACH_LAMBDA) {
      return false;
    }
    Expr walked = loop.iterable();
    if (walked instanceof Expr.Call getter && getter.args().isEmpty()) {
      return LISTENERS.matcher(getter.name().replaceFirst("^get", "")).matches();
    }
    return walked instanceof Expr.Name name && LISTENERS.matcher(name.name()).matches();
  }

  /**
   * Whether a counted loop starts a fixed set of long-running workers ({@code for (i = 0; i <
   * senderPoolSize; i++) pool.submit(new Sender())}): as many threads as rounds, once, not a
   * backlog that grows with load.
   */
  private static boolean startsWorkers(MethodAnalysis analysis, LoopInfo loop, Expr.Call call) {
    return loop.kind() == LoopInfo.Kind.FOR
        && loop.condition() != null
        && !call.args().isEmpty()
        && PoolShapes.isWorker(analysis, call.args().get(0));
  }

  private static Unbounded unboundedTarget(MethodAnalysis analysis, Expr.Call call) {
    if (CallNames.ASYNC_STARTS.contains(call.name())
        && Nodes.isStaticCallOn(call, "java.util.concurrent.CompletableFuture")) {
      if (call.args().size() == 1) {
        return new Unbounded(
            "the common ForkJoinPool (" + call.name() + " without an executor)", null, null);
      }
      return call.args().size() == 2
          ? held(classifyAll(analysis, call.args().get(1)), call.args().get(1))
          : null;
    }
    if (!CallNames.SUBMISSIONS.contains(call.name()) || call.receiver() == null) {
      return null;
    }
    Expr receiver = call.receiver();
    if (receiver.type().isKnown()
        && !receiver.type().isSubtypeOf("java.util.concurrent.Executor")) {
      return null;
    }
    return held(classifyAll(analysis, receiver), receiver);
  }

  private static Unbounded held(Unbounded unbounded, Expr executor) {
    return unbounded != null && executor instanceof Expr.Name name
        ? unbounded.heldBy(name.name())
        : unbounded;
  }

  /** Classifies every value the executor expression may hold; all must be unbounded. */
  private static Unbounded classifyAll(MethodAnalysis analysis, Expr executor) {
    Unbounded unbounded = classifyOrigins(analysis, executor);
    if (unbounded != null && executor instanceof Expr.Name name && name.isVariable(name.name())) {
      return unbounded.inLocal(name.name());
    }
    return unbounded;
  }

  private static Unbounded classifyOrigins(MethodAnalysis analysis, Expr executor) {
    List<Expr> origins = analysis.origins(executor);
    Unbounded first = null;
    for (Expr origin : origins) {
      Unbounded u = classify(analysis, origin);
      if (u == null) {
        return null;
      }
      if (first == null) {
        first = u;
      }
    }
    return first;
  }

  private static Unbounded classify(MethodAnalysis analysis, Expr origin) {
    if (origin instanceof Expr.Call factory) {
      if (Nodes.isStaticCallOn(factory, "java.util.concurrent.ForkJoinPool")
          && factory.name().equals("commonPool")) {
        return new Unbounded("the common ForkJoinPool", null, null);
      }
      if (!Nodes.isStaticCallOn(factory, EXECUTORS)) {
        return null;
      }
      String text = "Executors." + factory.name() + "(...)";
      return switch (factory.name()) {
        case "newFixedThreadPool" ->
            new Unbounded(
                text + ", whose LinkedBlockingQueue has no capacity",
                factory,
                factory.args().isEmpty() ? null : factory.args().get(0));
        case "newSingleThreadExecutor" ->
            new Unbounded(text + ", whose LinkedBlockingQueue has no capacity", factory, null);
        case "newScheduledThreadPool", "newSingleThreadScheduledExecutor", "newWorkStealingPool" ->
            new Unbounded(text + ", whose queue has no capacity", null, null);
        case "newCachedThreadPool" ->
            new Unbounded(
                text + ", which starts a new thread for every task that finds no idle one",
                null,
                null);
        default -> null;
      };
    }
    if (origin instanceof Expr.New created) {
      String type = created.type().name();
      if (type.equals("java.util.concurrent.ScheduledThreadPoolExecutor")
          || type.equals("java.util.concurrent.ForkJoinPool")) {
        return new Unbounded(
            "a " + created.type().simpleName() + ", whose queue has no capacity", null, null);
      }
      if (type.equals("java.util.concurrent.ThreadPoolExecutor")) {
        PoolShapes.Unbounded pool = PoolShapes.threadPool(analysis, created);
        if (pool != null && pool.threads()) {
          return new Unbounded(
              "a ThreadPoolExecutor with no limit on threads (SynchronousQueue, Integer.MAX_VALUE)",
              null,
              null);
        }
        if (pool != null) {
          return new Unbounded(
              "a ThreadPoolExecutor on a " + pool.queue().type().simpleName() + " without capacity",
              pool.queue(),
              null);
        }
      }
    }
    return null;
  }

  /**
   * Whether the loop submits a bounded batch: a Semaphore is acquired in it, or it counts to a
   * small constant or to the pool's own thread count.
   */
  private static boolean isBoundedBatch(
      MethodAnalysis analysis, LoopInfo loop, Unbounded executor) {
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call
          && (call.name().equals("acquire") || call.name().equals("tryAcquire"))
          && (call.receiver() == null
              || !call.receiver().type().isKnown()
              || call.receiver().type().isSubtypeOf("java.util.concurrent.Semaphore"))) {
        return true;
      }
    }
    if (isLocalBatchPool(analysis, loop, executor)) {
      return true;
    }
    if (loop.kind() != LoopInfo.Kind.FOR || !(loop.condition() instanceof Expr.Binary test)) {
      return false;
    }
    if (!test.operator().equals("<") && !test.operator().equals("<=")) {
      return false;
    }
    Expr bound = test.right();
    if (bound instanceof Expr.Literal literal
        && literal.value() instanceof Number count
        && count.longValue() <= SMALL_LOOP) {
      return true;
    }
    return executor.threads() != null
        && bound.span().isKnown()
        && executor.threads().span().isKnown()
        && analysis
            .context()
            .text(bound.span())
            .equals(analysis.context().text(executor.threads().span()));
  }

  /**
   * Whether a loop over a collection submits to a pool the same method creates and shuts down: a
   * batch bounded by the collection, already in memory, and a pool that does not outlive the call.
   */
  private static boolean isLocalBatchPool(
      MethodAnalysis analysis, LoopInfo loop, Unbounded executor) {
    boolean overCollection =
        loop.kind() == LoopInfo.Kind.FOR_EACH
            || loop.kind() == LoopInfo.Kind.FOR_EACH_LAMBDA
            || (loop.condition() instanceof Expr.Call hasNext && hasNext.name().equals("hasNext"));
    if (!overCollection || executor.local() == null) {
      return false;
    }
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Call call
          && SHUTDOWNS.contains(call.name())
          && call.receiver() instanceof Expr.Name name
          && name.isVariable(executor.local())) {
        return true;
      }
    }
    return false;
  }

  private static List<Fix> fixes(MethodAnalysis analysis, Unbounded executor) {
    Expr origin = executor.origin();
    if (!origin.span().isKnown()) {
      return List.of();
    }
    if (origin instanceof Expr.New queue) {
      String text = analysis.context().text(queue.span());
      if (!queue.args().isEmpty() || !text.endsWith("()")) {
        return List.of();
      }
      return List.of(
          new Fix(
              "Give the queue a capacity (a full queue then rejects; tune the number)",
              List.of(Edit.insert(queue.span().end() - 1, PROPOSED_CAPACITY)),
              Set.of()));
    }
    Expr.Call factory = (Expr.Call) origin;
    String threads;
    String threadFactory = null;
    if (factory.name().equals("newSingleThreadExecutor")) {
      threads = "1";
      if (factory.args().size() == 1) {
        threadFactory = analysis.context().text(factory.args().get(0).span());
      }
    } else if (executor.threads() != null && executor.threads().span().isKnown()) {
      Expr size = executor.threads();
      if (!(size instanceof Expr.Literal) && !(size instanceof Expr.Name)) {
        return List.of(); // evaluating it twice could change its meaning
      }
      threads = analysis.context().text(size.span());
      if (factory.args().size() == 2) {
        threadFactory = analysis.context().text(factory.args().get(1).span());
      }
    } else {
      return List.of();
    }
    List<String> args = new ArrayList<>();
    args.add(threads);
    args.add(threads);
    args.add("0L");
    args.add("TimeUnit.MILLISECONDS");
    args.add("new ArrayBlockingQueue<>(" + PROPOSED_CAPACITY + ")");
    if (threadFactory != null) {
      args.add(threadFactory);
    }
    args.add("new ThreadPoolExecutor.CallerRunsPolicy()");
    String source = analysis.context().source();
    int start = factory.span().start();
    int end = factory.span().end();
    // The factory's class is no longer named once it is replaced: drop its import too.
    Set<String> removed =
        Source.usedOutside(source, start, end, "Executors") ? Set.of() : Set.of(EXECUTORS);
    Fix jdk =
        new Fix(
            "Bound the queue; when it is full, the submitter runs the task (backpressure)",
            List.of(
                Source.fitting(
                    source,
                    start,
                    end,
                    List.of(
                        "new ThreadPoolExecutor(" + String.join(", ", args) + ")",
                        "new ThreadPoolExecutor(\n    " + String.join(", ", args) + ")",
                        "new ThreadPoolExecutor(\n    " + String.join(",\n    ", args) + ")"))),
            Set.of(
                "java.util.concurrent.ThreadPoolExecutor",
                "java.util.concurrent.ArrayBlockingQueue",
                "java.util.concurrent.TimeUnit"),
            removed);
    if (!analysis.context().hasType(BOUNDED_EXECUTOR)) {
      return List.of(jdk);
    }
    String name = executor.holder() == null ? "executor" : executor.holder();
    List<String> steps = new ArrayList<>();
    steps.add("BoundedExecutor.builder(\"" + name + "\")");
    steps.add(".workers(" + threads + ")");
    steps.add(".queueCapacity(" + PROPOSED_CAPACITY + ")");
    if (threadFactory != null) {
      steps.add(".threadFactory(" + threadFactory + ")");
    }
    steps.add(".build()");
    Fix runtime =
        new Fix(
            "Use a BoundedExecutor: a full queue refuses at once, or waits within a Deadline"
                + " passed to execute/submit",
            List.of(
                Source.fitting(
                    source,
                    start,
                    end,
                    List.of(
                        String.join("", steps),
                        steps.get(0) + "\n" + String.join("\n", steps.subList(1, steps.size()))))),
            Set.of(BOUNDED_EXECUTOR),
            removed);
    return List.of(runtime, jdk);
  }
}
