package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
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
      } else if (n instanceof Expr.Call call && PROPAGATING_CALLS.contains(call.name())) {
        for (Expr arg : call.args()) {
          if (Nodes.mentions(arg, e)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Whether the clause follows the "uninterruptibly" idiom: it remembers the interrupt in a local
   * boolean ({@code interrupted = true}) that the method later uses to restore the flag.
   */
  static boolean remembersInterrupt(MethodAnalysis analysis, Stmt.Catch clause) {
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name flag
          && flag.isVariable(flag.name())
          && Flow.isTrue(assign.value())
          && restoresWhenSet(analysis, flag.name())) {
        return true;
      }
    }
    return false;
  }

  private static boolean restoresWhenSet(MethodAnalysis analysis, String flag) {
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (n instanceof Stmt.If check
          && Nodes.mentions(check.condition(), flag)
          && restoresFlag(check.then())) {
        return true;
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
      }
    }
    return false;
  }
}
