package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** What the two interrupt rules share: who receives an interrupt, and who keeps it. */
final class Interrupts {
  static final String INTERRUPTED_EXCEPTION = "java.lang.InterruptedException";

  /** Calls that hand an exception on to someone else: the failure is not lost. */
  private static final Set<String> PROPAGATING_CALLS =
      Set.of(
          "completeExceptionally",
          "setException",
          "obtrudeException",
          "onError",
          "onFailure",
          "fail",
          "failed",
          "reject",
          "resumeWithException",
          "propagate",
          "rethrow",
          "sneakyThrow",
          "throwIfUnchecked",
          "throwIfInstanceOf",
          "initCause");

  /** Calls on a field that store a value for another thread to pick up. */
  private static final Set<String> STORING_CALLS =
      Set.of(
          "set",
          "lazySet",
          "compareAndSet",
          "weakCompareAndSet",
          "getAndSet",
          "add",
          "offer",
          "put",
          "complete",
          "accumulateAndGet",
          "updateAndGet");

  /** Calls that run a lambda as a thread or task body. */
  private static final Set<String> TASK_SINKS =
      Set.of(
          "newThread",
          "execute",
          "submit",
          "fork",
          "schedule",
          "scheduleAtFixedRate",
          "scheduleWithFixedDelay",
          "runAsync",
          "supplyAsync",
          "startVirtualThread",
          "start");

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
          "isOpen");

  private Interrupts() {}

  /**
   * Tells whether a clause names {@code InterruptedException} (or a subclass), alone or in a
   * multi-catch.
   */
  static boolean catchesDirectly(Stmt.Catch clause) {
    return clause.namesSubtypeOf(INTERRUPTED_EXCEPTION);
  }

  /**
   * Tells whether an {@code InterruptedException} thrown in the try body lands in this clause:
   * named directly, or caught through a supertype when the body can throw it (by the declared
   * thrown types) and no earlier clause of the same try takes it.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean receivesInterrupt(MethodAnalysis analysis, Stmt.Catch clause) {
    if (catchesDirectly(clause)) {
      return true;
    }
    if (!clause.catches(INTERRUPTED_EXCEPTION)) {
      return false;
    }
    Stmt.Try t = analysis.tryOf(clause);
    for (Stmt.Catch earlier : t.catches()) {
      if (earlier == clause) {
        break;
      }
      if (earlier.catches(INTERRUPTED_EXCEPTION)) {
        return false;
      }
    }
    return mayThrow(t.body(), INTERRUPTED_EXCEPTION)
        || t.resources().stream().anyMatch(r -> mayThrow(r, INTERRUPTED_EXCEPTION));
  }

  /**
   * Tells whether code can throw {@code type}: a call declares it, or a {@code throw} creates it.
   * Lambda bodies and inner try blocks that catch it are not counted.
   */
  static boolean mayThrow(Node root, String type) {
    if (root instanceof Expr.Lambda) {
      return false;
    }
    if (root instanceof Stmt.Try t) {
      boolean caught = t.catches().stream().anyMatch(c -> c.catches(type));
      if (!caught && mayThrow(t.body(), type)) {
        return true;
      }
      for (Node child : t.children()) {
        if (child != t.body() && mayThrow(child, type)) {
          return true;
        }
      }
      return false;
    }
    if (root instanceof Expr.Call call && call.method().declaresThrowing(type)) {
      return true;
    }
    if (root instanceof Stmt.Throw thrown
        && thrown.value() instanceof Expr.New created
        && created.type().isSubtypeOf(type)) {
      return true;
    }
    for (Node child : root.children()) {
      if (mayThrow(child, type)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a call hands an exception on to someone else (a future, a callback, a rethrower). */
  static boolean isPropagatingCall(String name) {
    return PROPAGATING_CALLS.contains(name);
  }

  /** Whether the code restores the interrupt flag ({@code Thread.currentThread().interrupt()}). */
  static boolean restoresFlag(Node body) {
    for (Expr.Call call : Nodes.calls(body)) {
      String name = call.name();
      if (name.equals("interrupt")) {
        return true;
      }
      // A helper such as restoreInterrupt(); never the flag-clearing Thread.interrupted().
      if (name.toLowerCase(Locale.ROOT).contains("interrupt")
          && !name.equals("interrupted")
          && !name.equals("isInterrupted")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the clause hands the exception on: throws it or an exception that wraps it, returns it,
   * or passes it to a call that propagates failures ({@code completeExceptionally}).
   */
  static boolean propagates(MethodAnalysis analysis, Stmt.Catch clause) {
    String e = clause.parameter();
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Stmt.Throw thrown) {
        if (Nodes.mentions(thrown.value(), e)) {
          return true;
        }
        if (thrown.value() instanceof Expr.Name local) {
          for (Expr value : analysis.valuesOf(local.name())) {
            if (Nodes.mentions(value, e)) {
              return true;
            }
          }
        }
      } else if (n instanceof Stmt.Return returned
          && returned.value() != null
          && Nodes.mentions(returned.value(), e)) {
        return true;
      } else if (n instanceof Expr.Call call
          && (PROPAGATING_CALLS.contains(call.name())
              || (STORING_CALLS.contains(call.name())
                  && (isField(call.receiver())
                      || isLocalThrownLater(analysis, call.receiver()))))) {
        // Handed to a failure callback, or stored in a field that another thread rethrows.
        for (Expr arg : call.args()) {
          if (Nodes.mentions(arg, e)) {
            return true;
          }
        }
      } else if (n instanceof Expr.Assign assign && Nodes.mentions(assign.value(), e)) {
        if (isField(assign.target())) {
          return true;
        }
        if (assign.target() instanceof Expr.Name local
            && local.isVariable(local.name())
            && thrownLater(analysis, local.name())) {
          return true; // kept in a local and thrown after the loop or lock
        }
      }
    }
    return false;
  }

  /**
   * Whether an expression is a local holder (an {@code AtomicReference}) the method throws from.
   */
  private static boolean isLocalThrownLater(MethodAnalysis analysis, Expr expr) {
    return expr instanceof Expr.Name name
        && name.isVariable(name.name())
        && thrownLater(analysis, name.name());
  }

  /**
   * Whether the method throws an expression that mentions {@code local}, directly or through a
   * local assigned from it ({@code Throwable failure = holder.get(); ... throw wrap(failure)}).
   */
  private static boolean thrownLater(MethodAnalysis analysis, String local) {
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (n instanceof Stmt.Throw thrown) {
        if (Nodes.mentions(thrown.value(), local)) {
          return true;
        }
        for (Node m : Nodes.preOrder(thrown.value())) {
          if (m instanceof Expr.Name other
              && other.isVariable(other.name())
              && analysis.valuesOf(other.name()).stream().anyMatch(v -> Nodes.mentions(v, local))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether an expression names a field ({@code failure}, {@code this.failure}). */
  private static boolean isField(Expr expr) {
    return expr instanceof Expr.Name name
        && name.kind() == Expr.NameKind.FIELD
        && !name.name().matches("[A-Z][A-Z0-9_]*");
  }

  /** Whether the handler ends the process: nothing is left to see the flag. */
  static boolean exitsProcess(Node body) {
    for (Expr.Call call : Nodes.calls(body)) {
      String name = call.name();
      if (name.equals("exit") || name.equals("halt") || name.contains("SystemExit")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the clause ends a thread's or task's body: it is in {@code run()}/{@code call()} (or a
   * lambda given to a thread or an executor) and returns, throws, or leaves every loop around it,
   * so the body ends. The interrupt has done its job: the task stopped, and no caller is left to
   * read the flag.
   */
  static boolean endsTask(MethodAnalysis analysis, Stmt.Catch clause) {
    Expr.Lambda lambda = analysis.enclosingLambda(clause);
    if (lambda == null ? !analysis.method().isTaskBody() : !isTaskLambda(analysis, lambda)) {
      return false;
    }
    boolean breaks = false;
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Stmt.Return) {
        return true;
      }
      breaks |= n instanceof Stmt.Break;
    }
    if (!Flow.canCompleteNormally(clause.body()) && !breaks) {
      return true; // it throws: the task ends with a failure
    }
    List<Stmt.Loop> loops = new ArrayList<>();
    for (Node p = analysis.parent(clause); p != null && p != lambda; p = analysis.parent(p)) {
      if (p instanceof Stmt.Loop loop) {
        loops.add(loop);
      }
    }
    if (loops.isEmpty()) {
      return true;
    }
    Stmt.Loop outermost = loops.get(loops.size() - 1);
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Stmt.Break b
          && (b.label() == null
              ? loops.size() == 1 && analysis.innermostLoop(b) == analysis.loopOf(clause)
              : b.label().equals(outermost.label()))) {
        return true;
      }
    }
    return false;
  }

  /** Whether a lambda is a task body: given to a {@code Thread} or an executor. */
  private static boolean isTaskLambda(MethodAnalysis analysis, Expr.Lambda lambda) {
    Node parent = analysis.parent(lambda);
    if (parent instanceof Expr.New created) {
      return created.type().isSubtypeOf("java.lang.Thread")
          || created.type().simpleName().equals("Thread");
    }
    // A known sink, or any factory that turns the lambda into a Thread (KafkaThread.daemon(..)).
    return parent instanceof Expr.Call call
        && (TASK_SINKS.contains(call.name()) || call.type().isSubtypeOf("java.lang.Thread"));
  }

  /**
   * Whether the clause follows the "uninterruptibly" idiom: it remembers the interrupt in a local
   * ({@code interrupted = true}, or {@code interruption = e}) that the method later checks to
   * restore the flag ({@code if (interrupted)}, {@code if (interruption != null)}) or returns to
   * its caller.
   */
  static boolean remembersInterrupt(MethodAnalysis analysis, Stmt.Catch clause) {
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name flag
          && flag.isVariable(flag.name())
          && (Flow.isTrue(assign.value()) || Nodes.mentions(assign.value(), clause.parameter()))
          && restoresWhenSet(analysis, flag.name())) {
        return true;
      }
    }
    return false;
  }

  /** Whether the method later restores the flag when the local is set, or returns the local. */
  private static boolean restoresWhenSet(MethodAnalysis analysis, String flag) {
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (n instanceof Stmt.If check
          && Nodes.mentions(check.condition(), flag)
          && restoresFlag(check.then())) {
        return true;
      }
      if (n instanceof Stmt.Return returned
          && returned.value() != null
          && Nodes.mentions(returned.value(), flag)
          && analysis.enclosingLambda(n) == null) {
        return true; // handed to the caller, which decides
      }
    }
    return false;
  }

  /**
   * Whether a loop's condition checks for a request to stop: the interrupt flag, a boolean stop
   * field, an {@code AtomicBoolean} field, or a lifecycle query such as {@code isShutdown()}. Such
   * a loop may use an interrupt as a wake-up and let the condition decide.
   */
  static boolean conditionChecksStop(LoopInfo loop) {
    if (loop.condition() == null) {
      return false;
    }
    for (Node n : Nodes.sameFrame(loop.condition())) {
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

  /** A named constant: {@code RUNNING}, {@code State.STARTED}. */
  private static boolean isConstant(Expr expr) {
    return expr instanceof Expr.Name name
        && name.kind() == Expr.NameKind.FIELD
        && name.name().matches("[A-Z][A-Z0-9_]*");
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

  /**
   * Whether the clause sits in a component's own worker loop that uses an interrupt as a wake-up:
   * the loop condition checks a stop flag or state, and the loop runs on the component's own thread
   * ({@code run()}/{@code call()}, a private method, or a task lambda). Loops in methods that other
   * threads call still lose their callers' interrupts.
   */
  static boolean isWakeUpInOwnWorker(MethodAnalysis analysis, Stmt.Catch clause) {
    LoopInfo loop = analysis.loopOf(clause);
    if (loop == null || !conditionChecksStop(loop)) {
      return false;
    }
    Expr.Lambda lambda = analysis.enclosingLambda(clause);
    if (lambda != null) {
      return isTaskLambda(analysis, lambda);
    }
    return analysis.method().isTaskBody() || analysis.method().isPrivate();
  }
}
