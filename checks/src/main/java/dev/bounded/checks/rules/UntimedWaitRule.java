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
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode G: a wait with no timeout ({@code Future.get()}, {@code CompletableFuture.join()},
 * {@code await()}, {@code take()}, {@code put(e)}, {@code acquire()}, {@code Thread.join()}) where
 * the code is meant to be bounded: inside a retry loop, or in a method that has a deadline or a
 * timeout in scope (a {@code Deadline} or {@code Duration}, a parameter or local named {@code
 * deadline}/{@code ...timeout...}). A dependency that never answers then holds the caller forever,
 * whatever its deadline says.
 *
 * <p>Not reported: a {@code get()}/{@code join()} guarded by {@code isDone()}, a wait in a branch
 * on the deadline itself ({@code if (deadline.isUnbounded())}, {@code if (timeout <= 0)}), and
 * condition waits in loops that retry only interruption.
 *
 * <p>Fix, for {@code Future.get()} with a {@code Deadline} or {@code Duration} in scope and {@code
 * TimeoutException} declared or caught: the timed {@code get} with what the deadline has left.
 */
public final class UntimedWaitRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UntimedWait";

  /** An untimed wait: the type declaring it and its timed alternative, for the message. */
  private record Wait(String owner, String name, String timed) {}

  private static final List<Wait> WAITS =
      List.of(
          new Wait("java.util.concurrent.Future", "get", "get(timeout, unit)"),
          new Wait("java.util.concurrent.CompletableFuture", "join", "orTimeout(..).join()"),
          new Wait("java.util.concurrent.CountDownLatch", "await", "await(timeout, unit)"),
          new Wait("java.util.concurrent.CyclicBarrier", "await", "await(timeout, unit)"),
          new Wait("java.util.concurrent.locks.Condition", "await", "await(timeout, unit)"),
          new Wait("java.util.concurrent.BlockingQueue", "take", "poll(timeout, unit)"),
          new Wait("java.util.concurrent.BlockingQueue", "put", "offer(e, timeout, unit)"),
          new Wait("java.util.concurrent.Semaphore", "acquire", "tryAcquire(timeout, unit)"),
          new Wait("java.lang.Thread", "join", "join(millis)"));

  private static final String DEADLINE = "dev.bounded.runtime.Deadline";
  private static final String TIMEOUT_EXCEPTION = "java.util.concurrent.TimeoutException";

  /** A deadline or timeout in scope: its name and type. */
  private record Bound(String name, TypeRef type) {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      Integer arity = CallNames.UNTIMED_WAITS.get(call.name());
      if (arity == null || arity != call.args().size()) {
        continue;
      }
      Wait wait = waitOf(call);
      if (wait == null || isTimedByReceiver(call) || isGuardedByIsDone(analysis, call)) {
        continue;
      }
      LoopInfo loop = analysis.innermostLoop(call);
      boolean inRetry =
          loop != null
              && loop.isRetryLoop()
              && !UnboundedLoops.onlyInterruptionRetried(analysis, loop);
      Bound bound = analysis.enclosingLambda(call) == null ? boundInScope(analysis, call) : null;
      if (bound != null
          && (isChosenByBound(analysis, call, bound) || isHandedOn(analysis, call, bound))) {
        continue;
      }
      if (call.name().equals("put") && isUnboundedQueue(analysis, call.receiver())) {
        continue; // put never blocks on a queue without capacity
      }
      if (!inRetry && bound == null) {
        continue;
      }
      String where =
          bound != null
              ? "this method has a deadline or timeout in scope (" + bound.name() + ")"
              : "it is in a retry loop";
      findings.add(
          new Finding(
              NAME,
              call.nameSpan(),
              call.name()
                  + "() waits without a timeout, but "
                  + where
                  + ": a dependency that never answers holds the caller forever, whatever its"
                  + " deadline. Use the timed form, "
                  + wait.timed()
                  + ", with what the deadline has left",
              bound == null ? List.of() : fixes(analysis, call, wait, bound)));
    }
    return findings;
  }

  private static Wait waitOf(Expr.Call call) {
    for (Wait wait : WAITS) {
      if (call.isCallTo(wait.owner(), wait.name())) {
        return wait;
      }
    }
    return null;
  }

  /** {@code future.orTimeout(..).join()}: the future itself is bounded. */
  private static boolean isTimedByReceiver(Expr.Call call) {
    return call.receiver() instanceof Expr.Call receiver
        && (receiver.name().equals("orTimeout") || receiver.name().equals("completeOnTimeout"));
  }

  /** {@code if (future.isDone()) future.get()}: the result is there already. */
  private static boolean isGuardedByIsDone(MethodAnalysis analysis, Expr.Call call) {
    for (Node p = analysis.parent(call); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.If || p instanceof Expr.Conditional) {
        Expr condition =
            p instanceof Stmt.If guard ? guard.condition() : ((Expr.Conditional) p).condition();
        for (Expr.Call c : Nodes.calls(condition)) {
          if (c.name().equals("isDone")
              || c.name().equals("isCompletedNormally")
              || c.name().equals("isUnbounded")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * {@code if (deadline.isUnbounded()) await(); else awaitNanos(..)}, {@code if (timeout <= 0)
   * take()}: a branch on the bound itself chose to wait without a limit.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean isChosenByBound(MethodAnalysis analysis, Expr.Call call, Bound bound) {
    Node child = call;
    for (Node p = analysis.parent(call); p != null; child = p, p = analysis.parent(p)) {
      Expr condition = null;
      if (p instanceof Stmt.If guard) {
        condition = guard.condition();
      } else if (p instanceof Expr.Conditional choice) {
        condition = choice.condition();
      }
      if (condition != null && Nodes.mentions(condition, bound.name())) {
        return true;
      }
      if (p instanceof Stmt.If guard
          && guard.otherwise() == child
          && waitsTimedOnLocalOf(analysis, guard, bound)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the branch before the untimed wait makes the timed wait on a local computed from the
   * bound, the condition testing that local ({@code long nanos = timeout.toNanos(); .. if (nanos >
   * 0) awaitNanos(nanos); else await();}): the bound chose the untimed form (a zero timeout that
   * means "no limit"). A wait under {@code if (remaining > 0)} itself ignores what is left: it is
   * still reported.
   */
  private static boolean waitsTimedOnLocalOf(MethodAnalysis analysis, Stmt.If guard, Bound bound) {
    for (Node n : Nodes.preOrder(guard.condition())) {
      if (!(n instanceof Expr.Name local)
          || local.kind() != Expr.NameKind.LOCAL
          || analysis.valuesOf(local.name()).stream()
              .noneMatch(v -> Nodes.mentions(v, bound.name()))) {
        continue;
      }
      for (Expr.Call timed : Nodes.calls(guard.then())) {
        if (timed.args().stream().anyMatch(a -> Nodes.mentions(a, local.name()))) {
          return true;
        }
      }
    }
    return false;
  }

  /** A parameter, or a local declared before the call, that holds a deadline or timeout. */
  private static Bound boundInScope(MethodAnalysis analysis, Expr.Call call) {
    for (MethodModel.Param param : analysis.method().params()) {
      if (isBound(param.name(), param.type()) && isUsedHere(analysis, param.name())) {
        return new Bound(param.name(), param.type());
      }
    }
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Stmt.LocalVar local
          && local.span().isKnown()
          && call.span().isKnown()
          && local.span().end() <= call.span().start()
          && analysis.enclosingLambda(local) == null
          && isBound(local.name(), local.type())
          && isUsedHere(analysis, local.name())) {
        return new Bound(local.name(), local.type());
      }
    }
    return null;
  }

  /**
   * Whether the variable belongs to this method's own waits: a deadline that only lambdas read
   * belongs to the code they are handed to. One that nothing reads still counts: it was ignored.
   */
  private static boolean isUsedHere(MethodAnalysis analysis, String variable) {
    boolean inLambda = false;
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Name name && name.isVariable(variable)) {
        if (analysis.enclosingLambda(n) == null) {
          return true;
        }
        inLambda = true;
      }
    }
    return !inLambda;
  }

  private static boolean isBound(String name, TypeRef type) {
    return CallNames.TIMEOUT_TYPES.contains(type.simpleName())
        || (CallNames.isTimeoutName(name) && isAmount(type));
  }

  /** A number, or a type the frontend could not resolve: a {@code timeoutTimer} is not a bound. */
  private static boolean isAmount(TypeRef type) {
    return switch (type.name()) {
      case "", "int", "long", "java.lang.Integer", "java.lang.Long" -> true;
      default -> false;
    };
  }

  /**
   * Whether the bound was handed to another call before the wait ({@code call(deadline(now,
   * timeout))}): the operation that completes what is waited on carries it.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean isHandedOn(MethodAnalysis analysis, Expr.Call wait, Bound bound) {
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Expr.Call call
          && call != wait
          && call.span().isKnown()
          && wait.span().isKnown()
          && (call.span().start() < wait.span().start() || isInReceiver(wait, call))) {
        for (Expr arg : call.args()) {
          if (Nodes.mentions(arg, bound.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether {@code call} is part of the wait's receiver: {@code newTxn(timeout, unit).get()}. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean isInReceiver(Expr.Call wait, Expr.Call call) {
    if (wait.receiver() == null) {
      return false;
    }
    for (Node n : Nodes.preOrder(wait.receiver())) {
      if (n == call) {
        return true;
      }
    }
    return false;
  }

  /** A queue created without a capacity: {@code new LinkedBlockingQueue<>()} and the like. */
  private static boolean isUnboundedQueue(MethodAnalysis analysis, Expr queue) {
    if (queue == null) {
      return false;
    }
    for (Expr origin : analysis.origins(queue)) {
      if (origin instanceof Expr.New created) {
        String type = created.type().simpleName();
        boolean optional = type.equals("LinkedBlockingQueue") || type.equals("LinkedBlockingDeque");
        boolean never =
            type.equals("LinkedTransferQueue")
                || type.equals("PriorityBlockingQueue")
                || type.equals("DelayQueue");
        return never || (optional && created.args().isEmpty());
      }
    }
    return false;
  }

  private static List<Fix> fixes(MethodAnalysis analysis, Expr.Call call, Wait wait, Bound bound) {
    if (!wait.name().equals("get")
        || !wait.owner().equals("java.util.concurrent.Future")
        || !call.span().isKnown()
        || !handlesTimeout(analysis, call)) {
      return List.of();
    }
    String nanos;
    if (bound.type().name().equals(DEADLINE)) {
      nanos = bound.name() + ".remainingNanos()";
    } else if (bound.type().name().equals("java.time.Duration")) {
      nanos = bound.name() + ".toNanos()";
    } else {
      return List.of();
    }
    String source = analysis.context().source();
    int close = source.lastIndexOf(')', call.span().end() - 1);
    int open = source.lastIndexOf('(', close);
    if (open < call.nameSpan().end() || close < 0) {
      return List.of();
    }
    return List.of(
        new Fix(
            "Wait at most what the deadline has left",
            List.of(
                Edit.replace(new Span(open, close + 1), "(" + nanos + ", TimeUnit.NANOSECONDS)")),
            Set.of("java.util.concurrent.TimeUnit")));
  }

  /** Whether a {@code TimeoutException} thrown at the call is caught or declared. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean handlesTimeout(MethodAnalysis analysis, Expr.Call call) {
    if (analysis.enclosingLambda(call) != null) {
      return false;
    }
    Node child = call;
    for (Node p = analysis.parent(call); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Try t && child == t.body()) {
        for (Stmt.Catch c : t.catches()) {
          if (c.catches(TIMEOUT_EXCEPTION)) {
            return true;
          }
        }
      }
    }
    return analysis.method().mayThrow(TIMEOUT_EXCEPTION);
  }
}
