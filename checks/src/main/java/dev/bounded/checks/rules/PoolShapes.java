package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.analysis.StopFlags;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the executor rules share: whether a {@code new ThreadPoolExecutor(..)} queues or starts
 * threads without bound.
 */
final class PoolShapes {
  /** Queues that never fill. */
  private static final Set<String> UNBOUNDED_QUEUES =
      Set.of(
          "java.util.concurrent.LinkedTransferQueue",
          "java.util.concurrent.PriorityBlockingQueue",
          "java.util.concurrent.DelayQueue");

  /** Queues that are unbounded unless given a capacity. */
  private static final Set<String> CAPACITY_OPTIONAL_QUEUES =
      Set.of(
          "java.util.concurrent.LinkedBlockingQueue", "java.util.concurrent.LinkedBlockingDeque");

  /**
   * How a thread pool is unbounded.
   *
   * @param queue the queue without capacity, or {@code null} when it is the thread count
   * @param fixableQueue the queue creation a capacity can be given to ({@code new
   *     LinkedBlockingQueue<>()}), or {@code null}
   */
  record Unbounded(Expr.New queue, Expr.New fixableQueue) {
    /** Whether the thread count, not the queue, has no bound. */
    boolean threads() {
      return queue == null;
    }
  }

  private PoolShapes() {}

  /**
   * Tells how a {@code new ThreadPoolExecutor(core, max, keepAlive, unit, queue, ..)} is unbounded:
   * its queue (followed through locals and fields) has no capacity, or it hands off through a
   * {@code SynchronousQueue} to at most {@code Integer.MAX_VALUE} threads (also as the value of a
   * local, field or constant).
   *
   * @param analysis the method's analysis
   * @param pool the creation
   * @return how it is unbounded, or {@code null} if bounded or unknown
   */
  static Unbounded threadPool(MethodAnalysis analysis, Expr.New pool) {
    if (pool.args().size() < 5) {
      return null;
    }
    Expr max = pool.args().get(1);
    for (Expr origin : values(analysis, pool.args().get(4), FOLLOWED)) {
      if (origin instanceof Expr.New queue
          && queue.type().name().equals("java.util.concurrent.SynchronousQueue")
          && isMaxInt(analysis, max)) {
        return new Unbounded(null, null);
      }
    }
    for (Expr origin : analysis.origins(pool.args().get(4))) {
      if (!(origin instanceof Expr.New queue)) {
        continue;
      }
      String type = queue.type().name();
      if (UNBOUNDED_QUEUES.contains(type)
          || (CAPACITY_OPTIONAL_QUEUES.contains(type) && hasNoCapacity(queue))) {
        return new Unbounded(
            queue,
            CAPACITY_OPTIONAL_QUEUES.contains(type) && queue.args().isEmpty() ? queue : null);
      }
      if (type.equals("java.util.concurrent.SynchronousQueue") && isMaxInt(analysis, max)) {
        return new Unbounded(null, null);
      }
    }
    return null;
  }

  private static boolean hasNoCapacity(Expr.New queue) {
    // LinkedBlockingQueue() and LinkedBlockingQueue(Collection) are unbounded; (int) is bounded.
    return queue.args().isEmpty()
        || (queue.args().size() == 1
            && queue.args().get(0).type().isSubtypeOf("java.util.Collection"));
  }

  /**
   * {@code Integer.MAX_VALUE}, directly or as a value of the expression ({@link #values}): a local,
   * a field or constant, a getter of the class, a configured default ({@code
   * Integer.getInteger("..maximumPoolSize", Integer.MAX_VALUE)}).
   */
  private static boolean isMaxInt(MethodAnalysis analysis, Expr expr) {
    if (expr instanceof Expr.Name name && name.name().equals("MAX_VALUE")) {
      return true;
    }
    for (Expr origin : values(analysis, expr, FOLLOWED)) {
      if (origin instanceof Expr.Name name && name.name().equals("MAX_VALUE")) {
        return true;
      }
    }
    return false;
  }

  /** How many getters, conditionals and defaults {@link #values} follows in a row. */
  private static final int FOLLOWED = 4;

  /** Calls that read a configured value with a default as their second argument. */
  private static final Set<String> CONFIGURED = Set.of("getInteger", "getLong");

  /**
   * The values an expression may have: its origins (locals, fields of the class), both arms of a
   * conditional, the default of a configured value ({@code Integer.getInteger(key, default)}), and
   * what a method of the unit without parameters returns ({@code getMaxThreadPoolSize()}, {@code
   * newWorkQueue()}), up to {@code depth} steps.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static List<Expr> values(MethodAnalysis analysis, Expr expr, int depth) {
    List<Expr> out = new ArrayList<>();
    List<Expr> origins = analysis.origins(expr);
    if (origins.isEmpty() && depth > 0) {
      Expr initialiser = initialiser(analysis, expr);
      if (initialiser != null) {
        origins = List.of(initialiser);
      }
    }
    for (Expr origin : origins) {
      if (depth > 0 && origin instanceof Expr.Conditional choice) {
        out.addAll(values(analysis, choice.whenTrue(), depth - 1));
        out.addAll(values(analysis, choice.whenFalse(), depth - 1));
        continue;
      }
      if (depth > 0
          && origin instanceof Expr.Call call
          && CONFIGURED.contains(call.name())
          && call.args().size() == 2
          && call.receiver() instanceof Expr.Name type
          && (type.name().equals("Integer") || type.name().equals("Long"))) {
        out.addAll(values(analysis, call.args().get(1), depth - 1));
        continue;
      }
      if (depth > 0 && origin instanceof Expr.Call call && call.args().isEmpty()) {
        MethodModel callee = analysis.context().unit().declarationOf(call);
        MethodAnalysis inner =
            callee == null || callee == analysis.method() || callee.body() == null
                ? null
                : analysis.calleeAnalysis(callee);
        if (inner != null) {
          for (Node n : Nodes.sameFrame(callee.body())) {
            if (n instanceof Stmt.Return ret && ret.value() != null) {
              out.addAll(values(inner, ret.value(), depth - 1));
            }
          }
          continue;
        }
      }
      out.add(origin);
    }
    return out;
  }

  /**
   * The initialiser of a field of the method's class that is also assigned elsewhere (a constructor
   * or setter taking the configured value): its default, the value it has when nothing is
   * configured ({@code private int maxThreadPoolSize = defaultMaximumPoolSize();}).
   */
  private static Expr initialiser(MethodAnalysis analysis, Expr expr) {
    if (!(expr instanceof Expr.Name name)
        || name.kind() != Expr.NameKind.FIELD
        || !(name.qualifier() == null
            || (name.qualifier() instanceof Expr.Name q && q.name().equals("this")))) {
      return null;
    }
    return analysis.context().fieldInitialiser(name.name());
  }

  /**
   * Whether a task loops until stopped ({@code while (running)}, {@code while
   * (!pool.isShutdown())}, {@code while (true)}): a lambda that does, or a {@code new} of a class
   * of the unit whose {@code run()} does. Such a long-running worker holds one thread for as long
   * as it runs.
   */
  static boolean isWorker(MethodAnalysis analysis, Expr task) {
    if (task instanceof Expr.Lambda lambda) {
      return loopsUntilStopped(lambda.body());
    }
    if (task instanceof Expr.New created && !created.hasBody()) {
      String simple = created.type().simpleName();
      for (MethodModel method : analysis.context().unit().methods()) {
        String owner = method.owner();
        String ownerSimple =
            owner.substring(Math.max(owner.lastIndexOf('.'), owner.lastIndexOf('$')) + 1);
        if (method.isTaskBody() && !simple.isEmpty() && ownerSimple.equals(simple)) {
          return loopsUntilStopped(method.body());
        }
      }
    }
    return false;
  }

  private static boolean loopsUntilStopped(Node body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Stmt.Loop loop && loop.kind() != Stmt.LoopKind.FOR_EACH) {
        Expr condition = loop.condition();
        if (condition == null
            || (condition instanceof Expr.Literal literal && Boolean.TRUE.equals(literal.value()))
            || StopFlags.checksStop(condition)) {
          return true;
        }
      }
    }
    return false;
  }
}
