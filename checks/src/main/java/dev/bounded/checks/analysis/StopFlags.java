package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Loop conditions that check for a request to stop: {@code while (running)}, {@code while
 * (!closed.get())}, {@code while (state == State.RUNNING)}, {@code while (!isShutdown())}.
 */
public final class StopFlags {
  /** Calls in a loop condition that check for a request to stop. */
  private static final Set<String> STOP_CHECKS =
      Set.of(
          "isInterrupted",
          "interrupted",
          "isShutdown",
          "isTerminated",
          "isTerminating",
          "isClosed",
          "isCancelled",
          "isStopped",
          "isRunning",
          "isActive",
          "isOpen",
          "isAlive",
          "isStarted",
          "isDone");

  /** Lifecycle queries of JDK types, whose state is set before the JDK interrupts a worker. */
  private static final Set<String> JDK_LIFECYCLE = Set.of("isShutdown", "isTerminated");

  private StopFlags() {}

  /**
   * Tells whether a loop's condition checks for a request to stop: the interrupt flag, a boolean
   * stop field, an {@code AtomicBoolean} field, or a lifecycle query such as {@code isShutdown()}.
   *
   * @param loop a loop
   * @return {@code true} if the condition reads a stop flag or state
   */
  public static boolean conditionChecksStop(LoopInfo loop) {
    return loop.condition() != null && checksStop(loop.condition());
  }

  /**
   * Tells whether a condition checks for a request to stop (see {@link
   * #conditionChecksStop(LoopInfo)}).
   *
   * @param condition a condition
   * @return {@code true} if it reads a stop flag or state
   */
  public static boolean checksStop(Expr condition) {
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Call call) {
        if (STOP_CHECKS.contains(call.name())) {
          return true;
        }
        if (call.name().equals("get")
            && call.receiver() instanceof Expr.Name field
            && field.kind() == Expr.NameKind.FIELD
            && field.type().name().equals("java.util.concurrent.atomic.AtomicBoolean")) {
          return true;
        }
      } else if (n instanceof Expr.Name name
          && name.kind() == Expr.NameKind.FIELD
          && (name.type().name().equals("boolean")
              || name.type().name().equals("java.lang.Boolean"))) {
        return true;
      } else if (n instanceof Expr.Binary test
          && (test.operator().equals("==") || test.operator().equals("!="))
          && (isStateRead(test.left())
              || isStateRead(test.right())
              || (isField(test.left()) && isConstant(test.right()))
              || (isConstant(test.left()) && isField(test.right())))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the stop flags a loop condition reads: field names (of a boolean, an atomic holder or a
   * state), calls to methods without arguments ({@code isRunning}), and the marker {@code "<jdk>"}
   * for a JDK lifecycle query ({@code executor.isShutdown()}) and {@code "<interrupt>"} for the
   * interrupt flag itself.
   *
   * @param loop a loop
   * @return the flags, in the order read
   */
  public static Set<String> flagsRead(LoopInfo loop) {
    return loop.condition() == null ? new LinkedHashSet<>() : flagsRead(loop.condition());
  }

  /**
   * Returns the stop flags a condition reads (see {@link #flagsRead(LoopInfo)}).
   *
   * @param condition a condition
   * @return the flags, in the order read
   */
  public static Set<String> flagsRead(Expr condition) {
    Set<String> flags = new LinkedHashSet<>();
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Call call) {
        if (call.name().equals("isInterrupted") || call.name().equals("interrupted")) {
          flags.add(INTERRUPT_FLAG);
        } else if (JDK_LIFECYCLE.contains(call.name())
            && call.receiver() != null
            && call.receiver().type().isSubtypeOf("java.util.concurrent.ExecutorService")) {
          flags.add(JDK_FLAG);
        } else if (call.receiver() instanceof Expr.Name field && isField(field)) {
          flags.add(field.name());
        } else if (call.args().isEmpty()
            && (call.receiver() == null
                || (call.receiver() instanceof Expr.Name self && self.name().equals("this")))) {
          flags.add(call.name() + "()");
        }
      } else if (n instanceof Expr.Name name && isField(name)) {
        flags.add(name.name());
      }
    }
    return flags;
  }

  /**
   * Returns the conditions by which a loop stops when asked to: its own condition, the conditions
   * of statements at its level that leave it ({@code if (isShutdown()) break;}), and for a task
   * that reschedules itself, the conditions guarding the reschedule ({@code if
   * (!scheduler.isShutdown()) scheduler.schedule(this, ..)}).
   *
   * @param analysis the method's analysis
   * @param loop a loop of it
   * @return the conditions that check a stop flag
   */
  public static List<Expr> stopConditions(MethodAnalysis analysis, LoopInfo loop) {
    List<Expr> conditions = new ArrayList<>();
    if (loop.condition() != null && checksStop(loop.condition())) {
      conditions.add(loop.condition());
    }
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Stmt.If check
          && checksStop(check.condition())
          && ((Flow.leaves(check.then()) && !caughtInLoop(analysis, loop, check.then()))
              || guardsReschedule(analysis, loop, check))) {
        conditions.add(check.condition());
      }
    }
    return conditions;
  }

  /**
   * Whether a branch leaves only by throwing exceptions that a clause inside the loop catches and
   * goes round from ({@code if (!isRunning()) { throw new IllegalStateException("not connected");
   * }} in the try of a retry loop whose {@code catch (Throwable e)} sleeps and goes round): the
   * check then starts the next attempt, it does not end the loop.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean caughtInLoop(MethodAnalysis analysis, LoopInfo loop, Stmt branch) {
    boolean threw = false;
    for (Node n : Nodes.sameFrame(branch)) {
      if (n instanceof Stmt.Return || n instanceof Stmt.Break) {
        return false;
      }
      if (n instanceof Stmt.Throw thrown) {
        if (!(thrown.value() instanceof Expr.New created)
            || !caughtAndRetried(analysis, loop, thrown, created.type())) {
          return false;
        }
        threw = true;
      }
    }
    return threw;
  }

  /**
   * Whether the throw statement {@code thrown}, of a new exception, lands, before it leaves the
   * loop, in a clause of an enclosing try (the throw in its body) that takes the type and can
   * complete normally.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean caughtAndRetried(
      MethodAnalysis analysis, LoopInfo loop, Node thrown, TypeRef type) {
    Node child = thrown;
    for (Node p = analysis.parent(thrown);
        p != null && p != loop.node() && !(p instanceof Expr.Lambda);
        p = analysis.parent(p)) {
      if (p instanceof Stmt.Try t && t.body() == child) {
        for (Stmt.Catch clause : t.catches()) {
          if (catchesType(clause, type)) {
            return Flow.canCompleteNormally(clause.body());
          }
        }
      }
      child = p;
    }
    return false;
  }

  /** Whether a clause takes an exception of {@code type}: {@code Throwable}, or a supertype. */
  private static boolean catchesType(Stmt.Catch clause, TypeRef type) {
    for (TypeRef caught : clause.types()) {
      if (caught.name().equals("java.lang.Throwable")
          || (type.isKnown() && caught.isSupertypeOf(type.name()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean guardsReschedule(MethodAnalysis analysis, LoopInfo loop, Stmt.If check) {
    if (loop.kind() != LoopInfo.Kind.RESCHEDULE) {
      return false;
    }
    for (Node n : Nodes.sameFrame(check.then())) {
      if (n instanceof Expr.Call call && analysis.isSelfReschedule(call)) {
        return true;
      }
    }
    return false;
  }

  /** The flag name of the interrupt flag itself. */
  public static final String INTERRUPT_FLAG = "<interrupt>";

  /** The flag name of a JDK executor's lifecycle, which the JDK sets before interrupting. */
  public static final String JDK_FLAG = "<jdk>";

  /** A named constant: {@code RUNNING}, {@code State.STARTED}. */
  private static boolean isConstant(Expr expr) {
    return expr instanceof Expr.Name name
        && name.kind() == Expr.NameKind.FIELD
        && NamePattern.isConstantName(name.name());
  }

  /** A read of a lifecycle state: {@code state.get()} on a field, or {@code getState()}. */
  private static boolean isStateRead(Expr expr) {
    if (!(expr instanceof Expr.Call call) || !call.args().isEmpty()) {
      return false;
    }
    if (call.name().equals("getState") || call.name().equals("state")) {
      return true;
    }
    return call.name().equals("get") && isField(call.receiver());
  }

  /** Whether an expression names a field that is not a constant. */
  static boolean isField(Expr expr) {
    return expr instanceof Expr.Name name
        && name.kind() == Expr.NameKind.FIELD
        && !NamePattern.isConstantName(name.name());
  }
}
