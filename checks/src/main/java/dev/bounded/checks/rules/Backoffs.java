package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The waits between attempts of retry loops, and what their delays are made of: what {@link
 * BackoffWithoutJitterRule} and {@link UncappedBackoffRule} share.
 */
final class Backoffs {
  /** Calls a delay may be computed with and stay deterministic: arithmetic and conversions. */
  private static final Set<String> ARITHMETIC =
      Set.of(
          "min",
          "max",
          "pow",
          "abs",
          "multiplyExact",
          "addExact",
          "toMillis",
          "toNanos",
          "toSeconds",
          "toMicros",
          "convert",
          "ofMillis",
          "ofSeconds",
          "ofNanos",
          "ofMinutes",
          "multipliedBy",
          "plus",
          "plusMillis",
          "valueOf",
          "longValue",
          "intValue",
          "log",
          "log10",
          "exp",
          "sqrt",
          "round",
          "floor",
          "ceil",
          "toIntExact",
          "floorDiv");

  /** Calls that step a counter: {@code event.incrementRetries()}, {@code getAndIncrement()}. */
  private static final NamePattern COUNTER_CALL =
      NamePattern.containing(
          "(?i:.*(increment|decrement).*)|inc[A-Z]\\w*|getAndAdd|addAndGet",
          "inc",
          "decrement",
          "getandadd",
          "addandget");

  /** Names of values that follow failures: a failure count, an attempt number, a backoff. */
  private static final NamePattern FAILURE_NAME =
      NamePattern.containing(
          "(?i).*(fail|error|retr|attempt|backoff|back_off).*",
          "fail",
          "error",
          "retr",
          "attempt",
          "backoff",
          "back_off");

  /** Calls that change a value held in an atomic or a holder field. */
  private static final Set<String> UPDATES =
      Set.of(
          "set",
          "lazySet",
          "compareAndSet",
          "getAndSet",
          "addAndGet",
          "getAndAdd",
          "incrementAndGet",
          "getAndIncrement",
          "updateAndGet",
          "accumulateAndGet");

  /**
   * Names that say a value is randomised: names of random values and draws: {@code jitter}, {@code
   * random}, {@code rnd}, and {@code rand} as a word of its own ({@code rand}, {@code nextRand},
   * {@code RAND_DELAY}), not inside another word ({@code incrAndGet}, {@code operand}, {@code
   * brand}).
   */
  private static final NamePattern RANDOM_NAME =
      NamePattern.containing(
          "(?i:.*(jitter|random|rnd).*)|(.*[^A-Za-z])?(rand|Rand|RAND)([^a-z].*)?|.*[a-z0-9]Rand([^a-z].*)?",
          "jitter",
          "rand",
          "rnd");

  /**
   * Calls that unwrap a value held by their receiver ({@code Optional.get()}, {@code
   * AtomicLong.get()}): not a setting's getter, so the receiver is followed to what it was given.
   */
  private static final Set<String> UNWRAPS = Set.of("get", "getAsLong", "getAsInt", "orElseThrow");

  /** Getter names that compute a delay rather than read a setting. */
  private static final NamePattern COMPUTED_DELAY =
      NamePattern.containing("(?i).*(next|backoff|compute).*", "next", "backoff", "compute");

  /**
   * A wait between attempts.
   *
   * @param loop the retry loop, or {@code null} for a delayed resubmission outside any loop (from a
   *     catch clause or a failure callback, see {@link DelayedRetries})
   * @param call the sleep call
   * @param delay the delay argument
   * @param unit the {@code TimeUnit} constant's name when known ({@code MILLISECONDS} for {@code
   *     Thread.sleep(long)}), else {@code null}
   */
  record Wait(LoopInfo loop, Expr.Call call, Expr delay, String unit) {}

  private Backoffs() {}

  /**
   * Returns the waits between attempts, in source order: the sleeps at the level of retry loops and
   * background retry loops (a reconnect loop ended by a stop flag) that retry failures; the delay
   * of a task that reschedules itself after a failure, when the failure changes it (a failure
   * delay, a doubled delay, a shift by a failure count: a periodic task's fixed period is no
   * backoff); and the delays of resubmissions from catch clauses and failure callbacks.
   */
  static List<Wait> waits(MethodAnalysis analysis) {
    List<Wait> waits = new ArrayList<>();
    for (LoopInfo loop : analysis.loops()) {
      boolean caughtInHelper =
          (loop.isRetryLoop() || loop.isBackgroundRetry())
              && loop.evidence().contains(LoopInfo.Evidence.CAUGHT_IN_HELPER);
      if (!(loop.isRetryLoop()
              || (loop.isBackgroundRetry() && loop.kind() != LoopInfo.Kind.RESCHEDULE))
          || !(loop.evidence().contains(LoopInfo.Evidence.RETRYING_CATCH) || caughtInHelper)) {
        continue; // a polling loop, not a retry of failures
      }
      for (Node n : analysis.loopLevel(loop)) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        Expr delay = waitedDelay(analysis, call);
        if (delay != null
            && !(loop.isBackgroundRetry()
                && !analysis.isInCatchBody(call, loop.node())
                && !failureGuarded(analysis, call, loop)
                && !retriesEachRound(analysis, loop))
            && !waitsForOwnState(analysis, call)
            && !leavesNext(analysis, call)) {
          waits.add(new Wait(loop, call, delay, unit(call)));
        }
      }
    }
    for (LoopInfo loop : analysis.loops()) {
      if (loop.kind() != LoopInfo.Kind.RESCHEDULE
          || !loop.evidence().contains(LoopInfo.Evidence.RETRYING_CATCH)) {
        continue;
      }
      for (Node n : analysis.loopLevel(loop)) {
        if (n instanceof Expr.Call call && analysis.isSelfReschedule(call)) {
          DelayedRetries.Delayed delayed = DelayedRetries.delayed(call);
          if (delayed != null && followsFailures(analysis, delayed.delay())) {
            waits.add(new Wait(loop, call, delayed.delay(), delayed.unit()));
          }
        }
      }
    }
    for (DelayedRetries.Delayed delayed : DelayedRetries.retries(analysis)) {
      waits.add(new Wait(null, delayed.call(), delayed.delay(), delayed.unit()));
    }
    for (Expr.Call sleep : failureSleeps(analysis)) {
      waits.add(new Wait(null, sleep, delayOf(sleep), unit(sleep)));
    }
    waits.addAll(doublingWaits(analysis));
    waits.addAll(namedWaits(analysis, waits));
    waits.sort((a, b) -> Integer.compare(a.call().span().start(), b.call().span().start()));
    return waits;
  }

  /** Names of counts of failures in a row: what a guard tests to wait longer after failures. */
  private static final NamePattern FAILURE_COUNT =
      NamePattern.containing(
          "(?i).*(fail|error|attempt|retr).*", "fail", "error", "attempt", "retr");

  /** Names of settings a guard may test that say nothing about failures ({@code retryInterval}). */
  private static final NamePattern SETTING =
      NamePattern.containing(
          "(?i).*(interval|delay|period|timeout|backoff|wait|sleep|time|millis).*",
          "interval",
          "delay",
          "period",
          "timeout",
          "backoff",
          "wait",
          "sleep",
          "time",
          "millis");

  /**
   * Whether a background loop's wait outside its catch clauses is the wait after failures: it runs
   * under a test of a failure count ({@code if (acquiresFailed > 1) Thread.sleep(..)}), or its
   * delay is a local given a value there ({@code if (numFails > 0) timeToSleep =
   * Math.max(getDbRetryInterval(), timeToSleep);} before {@code Thread.sleep(timeToSleep)}). The
   * loop's other waits pace its rounds.
   */
  private static boolean failureGuarded(MethodAnalysis analysis, Expr.Call sleep, LoopInfo loop) {
    if (underFailureTest(analysis, sleep, loop)) {
      return true;
    }
    Expr delay = delayOf(sleep);
    if (!(delay instanceof Expr.Name local) || !local.isVariable(local.name())) {
      return false;
    }
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && target.isVariable(local.name())
          && underFailureTest(analysis, assign, loop)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Names of calls that try failed work again: {@code retryFailCallbackFile()}, {@code
   * resendFailed()}.
   */
  private static final NamePattern RETRY_CALL =
      NamePattern.startingWith(
          "(?i:retry|resend|redeliver|replay)([A-Z_].*)?",
          "retry",
          "resend",
          "redeliver",
          "replay");

  /**
   * Whether each round of a background loop is a retry of failed work: at the loop's level it calls
   * a method named for it ({@code while (!toStop) { retryFailCallbackFile(); SECONDS.sleep(30);
   * }}). The loop's pace is then the wait between retries.
   */
  private static boolean retriesEachRound(MethodAnalysis analysis, LoopInfo loop) {
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call && RETRY_CALL.matches(call.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a node sits in the then-branch of an {@code if} on a failure count, inside the loop.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean underFailureTest(MethodAnalysis analysis, Node node, LoopInfo loop) {
    Node child = node;
    for (Node p = analysis.parent(node);
        p != null && p != loop.node();
        child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.If check && check.then() == child && testsFailureCount(check)) {
        return true;
      }
      if (p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  /** {@code numFails > 0}, {@code acquiresFailed > 1}: a failure count against a literal. */
  private static boolean testsFailureCount(Stmt.If check) {
    if (!(check.condition() instanceof Expr.Binary test)
        || !(test.operator().equals(">") || test.operator().equals(">="))
        || !(test.right() instanceof Expr.Literal)) {
      return false;
    }
    return (test.left() instanceof Expr.Name count
            && FAILURE_COUNT.matches(count.name())
            && !SETTING.matches(count.name())
            && !NamePattern.isConstantName(count.name()))
        || (test.left() instanceof Expr.Call getter
            && getter.args().isEmpty()
            && FAILURE_COUNT.matches(getter.name())
            && !SETTING.matches(getter.name()));
  }

  /**
   * Whether a sleep in a catch clause runs only after the try block's own state check failed: it is
   * guarded by a local flag ({@code if (waitReconnect) Thread.sleep(100)}) that is set only in the
   * try block, each time just before a {@code throw} there ({@code waitReconnect = true; throw new
   * ClientException("not connected")}). The loop then waits for the component's own state (a
   * reconnect another thread makes) and the next round fails locally again without reaching the
   * dependency: a poll of local state, not a backoff from the dependency.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean waitsForOwnState(MethodAnalysis analysis, Expr.Call sleep) {
    Node child = sleep;
    for (Node p = analysis.parent(sleep); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Catch) {
        return false; // no flag between the sleep and its handler
      }
      if (p instanceof Stmt.If check
          && check.then() == child
          && check.condition() instanceof Expr.Name flag
          && flag.kind() == Expr.NameKind.LOCAL) {
        Stmt.Catch clause = catchAround(analysis, check);
        return clause != null && setOnlyBeforeOwnThrow(analysis, flag.name(), clause);
      }
      if (p instanceof Expr.Lambda || p instanceof Stmt.Loop) {
        return false;
      }
    }
    return false;
  }

  /** The catch clause whose body holds {@code node}, or {@code null}. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static Stmt.Catch catchAround(MethodAnalysis analysis, Node node) {
    Node child = node;
    for (Node p = analysis.parent(node); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Catch clause) {
        return clause.body() == child ? clause : null;
      }
      if (p instanceof Expr.Lambda || p instanceof Stmt.Loop) {
        return null;
      }
    }
    return null;
  }

  /**
   * Whether every value given to the flag is a literal, and each {@code true} is given in the try
   * block of {@code clause} and followed there by a {@code throw} (at its own level or an enclosing
   * one, before any {@code return}, {@code break} or {@code continue}).
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean setOnlyBeforeOwnThrow(
      MethodAnalysis analysis, String flag, Stmt.Catch clause) {
    Stmt.Block tryBody = analysis.tryOf(clause).body();
    boolean set = false;
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Assign assign)
          || !(assign.target() instanceof Expr.Name target)
          || !target.isVariable(flag)) {
        continue;
      }
      if (!(assign.value() instanceof Expr.Literal literal)
          || !assign.operator().equals("=")
          || !(literal.value() instanceof Boolean value)) {
        return false;
      }
      if (!value) {
        continue;
      }
      if (!tryBody.span().contains(assign.span()) || !throwsNext(analysis, assign, tryBody)) {
        return false;
      }
      set = true;
    }
    for (Expr value : analysis.valuesOf(flag)) {
      if (!(value instanceof Expr.Literal literal && Boolean.FALSE.equals(literal.value()))
          && !(value.span().isKnown() && tryBody.span().contains(value.span()))) {
        return false;
      }
    }
    return set;
  }

  /** Whether a {@code throw} follows the node's statement within {@code limit}. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean throwsNext(MethodAnalysis analysis, Node node, Stmt.Block limit) {
    Node child = node;
    for (Node p = analysis.parent(node); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Block block) {
        int index = -1;
        for (int i = 0; i < block.statements().size(); i++) {
          index = block.statements().get(i) == child ? i : index;
        }
        for (int i = index + 1; index >= 0 && i < block.statements().size(); i++) {
          Stmt next = block.statements().get(i);
          if (next instanceof Stmt.Throw) {
            return true;
          }
          if (next instanceof Stmt.Return
              || next instanceof Stmt.Break
              || next instanceof Stmt.Continue) {
            return false;
          }
        }
      }
      if (p == limit || p instanceof Expr.Lambda || p instanceof Stmt.Loop) {
        return false;
      }
    }
    return false;
  }

  private static Expr delayOf(Expr.Call sleep) {
    return sleep.name().equals("parkNanos")
        ? sleep.args().get(sleep.args().size() - 1)
        : sleep.args().get(0);
  }

  /**
   * The delay a call waits for in the method's own frame: a sleep's, or the argument a helper of
   * the unit that waits for its parameter is given ({@code sleepUnlessStopped(sleepTime)}, see
   * {@link #helperDelay}); {@code null} for any other call.
   */
  private static Expr waitedDelay(MethodAnalysis analysis, Expr.Call call) {
    if (CallNames.SLEEPS.contains(call.name())) {
      return call.args().isEmpty() ? null : delayOf(call);
    }
    return helperDelay(analysis, call);
  }

  /**
   * Returns the waits outside loops, lambdas included, whose delay is a local that the same frame
   * doubles (or multiplies or shifts by any factor, capped or not) and keeps for the next time
   * ({@code waitTime = Math.min(MAX_WAIT, waitTime << 1); KEY_WAIT_TIME.set(ctx, waitTime);
   * schedule(retry, waitTime, SECONDS)} in a state machine's wait state): a delay that grows each
   * time it is waited is a backoff, whichever path leads to it. A loop's doubling (a poll's
   * widening interval) is judged with the loop.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static List<Wait> doublingWaits(MethodAnalysis analysis) {
    List<Wait> found = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call call) || analysis.innermostLoop(call) != null) {
        continue;
      }
      Expr delay = null;
      String unit = null;
      DelayedRetries.Delayed delayed = DelayedRetries.delayed(call);
      if (CallNames.SLEEPS.contains(call.name()) && !call.args().isEmpty()) {
        delay = delayOf(call);
        unit = unit(call);
      } else if (delayed != null && !analysis.isSelfReschedule(call)) {
        delay = delayed.delay();
        unit = delayed.unit();
      }
      if (!(delay instanceof Expr.Name local) || local.kind() != Expr.NameKind.LOCAL) {
        continue;
      }
      Expr.Lambda frame = analysis.enclosingLambda(call);
      boolean doubled = false;
      boolean kept = false;
      for (Node m : analysis.bodyNodes()) {
        if (analysis.enclosingLambda(m) != frame || analysis.innermostLoop(m) != null) {
          continue;
        }
        if (m instanceof Expr.Assign assign
            && assign.target() instanceof Expr.Name target
            && target.isVariable(local.name())
            && multipliesItself(assign, local.name())) {
          doubled = true;
        }
        kept |= keeps(m, local.name());
      }
      if (doubled && kept) {
        found.add(new Wait(null, call, delay, unit));
      }
    }
    return found;
  }

  /**
   * Whether the node stores the local's value beyond the call: in a field ({@code this.delay =
   * delay}) or through a setter or a holder ({@code KEY.set(ctx, delay)}, {@code
   * state.setDelay(delay)}).
   */
  private static boolean keeps(Node n, String local) {
    if (n instanceof Expr.Assign assign
        && assign.operator().equals("=")
        && assign.value() instanceof Expr.Name value
        && value.isVariable(local)
        && assign.target() instanceof Expr.Name target
        && target.kind() == Expr.NameKind.FIELD) {
      return true;
    }
    if (n instanceof Expr.Call call
        && (call.name().startsWith("set") || call.name().startsWith("put"))
        && call.receiver() != null) {
      for (Expr arg : call.args()) {
        if (arg instanceof Expr.Name value && value.isVariable(local)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Names of helpers that wait: {@code sleepUnlessStopped(millis)}, {@code pause(millis)}. */
  private static final NamePattern WAIT_HELPER =
      NamePattern.containing("(?i).*(sleep|pause).*", "sleep", "pause");

  /**
   * For a call of a helper of the unit named for sleeping that waits for the time its caller gives
   * it ({@code sleepUnlessStopped(long millis)} whose body is {@code if (latch.await(millis,
   * MILLISECONDS)) throw ..}, or a {@code Thread.sleep(millis)} of the parameter), the argument
   * that is the delay: the wait is the caller's, and so is its delay. {@code null} when the call is
   * no such helper's, or the helper loops (a poll of its own).
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static Expr helperDelay(MethodAnalysis analysis, Expr.Call call) {
    if (call.args().isEmpty()
        || CallNames.SLEEPS.contains(call.name())
        || !WAIT_HELPER.matches(call.name())) {
      return null;
    }
    MethodModel helper = analysis.context().unit().declarationOf(call);
    if (helper == null
        || helper == analysis.method()
        || helper.body() == null
        || helper.params().size() != call.args().size()) {
      return null;
    }
    Expr waited = null;
    for (Node n : Nodes.sameFrame(helper.body())) {
      if (n instanceof Stmt.Loop) {
        return null;
      }
      if (waited == null && n instanceof Expr.Call wait) {
        if (CallNames.SLEEPS.contains(wait.name()) && !wait.args().isEmpty()) {
          waited = delayOf(wait);
        } else if ((wait.name().equals("await") || wait.name().equals("tryAcquire"))
            && wait.args().size() == 2
            && wait.args().get(1) instanceof Expr.Name unit
            && unit.name().endsWith("SECONDS")) {
          waited = wait.args().get(0); // latch.await(millis, MILLISECONDS): a sleep cut short
        }
      }
    }
    if (waited instanceof Expr.Name param && param.kind() == Expr.NameKind.PARAMETER) {
      for (int i = 0; i < helper.params().size(); i++) {
        if (param.isVariable(helper.params().get(i).name())) {
          return call.args().get(i);
        }
      }
    }
    return null;
  }

  /**
   * Whether the statement after the wait's leaves the loop without another attempt ({@code
   * sleep(initialSendDelay); return;} after a connection is made): a wait after success, not
   * between attempts. A {@code return} that makes a call ({@code return supplier.get();}) is the
   * next attempt.
   */
  private static boolean leavesNext(MethodAnalysis analysis, Expr.Call wait) {
    Stmt next = analysis.statementAfter(wait);
    return next instanceof Stmt.Break
        || (next instanceof Stmt.Return ret
            && (ret.value() == null || Nodes.calls(ret.value()).isEmpty()));
  }

  /**
   * Names of delays that say they are the wait between retries: a word of retrying or reconnecting
   * and a word of waiting ({@code sleepBetweenRetries}, {@code getDelayBetweenRetries()}, {@code
   * DEFAULT_RECONNECTION_DELAY}, {@code retryBackoffMs}).
   */
  private static final NamePattern RETRY_DELAY =
      NamePattern.containing(
          "(?i)(?=.*(retr|reconnect))(?=.*(delay|interval|wait|sleep|backoff|back_off|pause|period))"
              + ".*",
          "retr",
          "reconnect");

  /**
   * Returns the waits, not among {@code found}, whose delay is named as the wait between retries
   * ({@code Util.sleep(policy.sleepBetweenRetries)}, {@code eventLoop.schedule(retry,
   * policy.sleepBetweenRetries, MILLISECONDS)}, {@code Thread.sleep(getDelayBetweenRetries())}
   * before a failover's next attempt): the code says what the wait is for, even where no catch
   * clause shows the failure (a round that re-sends what a tracker recorded as failed; a failover
   * step called after a failure). Sleeps, the unit's wait helpers and delayed schedulings count, in
   * loops or not; not a delay that is a parameter (the caller's), a task rescheduling itself
   * (judged as a loop of its own), the pace of a background or worker loop (one that catches
   * failures and goes on, but is no retry loop: judged with the loop), nor a sleep a caller's retry
   * loop already reports as its wait one callee deep ({@link #calleeWaits}).
   */
  private static List<Wait> namedWaits(MethodAnalysis analysis, List<Wait> found) {
    List<Wait> named = new ArrayList<>();
    Set<Node> taken = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    found.forEach(wait -> taken.add(wait.call()));
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Call call) || taken.contains(call)) {
        continue;
      }
      Expr delay = waitedDelay(analysis, call);
      String unit = delay == null ? null : unit(call);
      DelayedRetries.Delayed delayed = delay == null ? DelayedRetries.delayed(call) : null;
      if (delayed != null && !analysis.isSelfReschedule(call)) {
        delay = delayed.delay();
        unit = delayed.unit();
      }
      if (delay == null
          || (delay instanceof Expr.Name param && param.kind() == Expr.NameKind.PARAMETER)
          || !namedForRetries(analysis, delay)) {
        continue;
      }
      LoopInfo loop = analysis.innermostLoop(call);
      if (loop != null
          && !loop.isRetryLoop()
          && (loop.isBackgroundRetry()
              || (loop.evidence() != null
                  && loop.evidence().contains(LoopInfo.Evidence.RETRYING_CATCH)))
          && !analysis.isInCatchBody(call, loop.node())) {
        continue; // a worker's or background loop's pace, judged with the loop (failureGuarded)
      }
      if (!waitsForOwnState(analysis, call)
          && !leavesNext(analysis, call)
          && !waitedThroughCaller(analysis, call)) {
        named.add(
            new Wait(
                loop != null && (loop.isRetryLoop() || loop.isBackgroundRetry()) ? loop : null,
                call,
                delay,
                unit));
      }
    }
    return named;
  }

  /** Whether a retry loop of a caller in the unit reports the sleep as its wait in a callee. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean waitedThroughCaller(MethodAnalysis analysis, Expr.Call sleep) {
    for (MethodModel caller : analysis.unitFacts().callers(analysis.method())) {
      MethodAnalysis callerAnalysis = analysis.unitFacts().analysisOf(caller);
      if (callerAnalysis != null
          && calleeWaits(callerAnalysis).stream().anyMatch(wait -> wait.sleep() == sleep)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the delay, or a local it reads, reads a name that says it is a retry's wait. */
  private static boolean namedForRetries(MethodAnalysis analysis, Expr delay) {
    List<Node> nodes = new ArrayList<>(Nodes.sameFrame(delay));
    for (Node n : Nodes.sameFrame(delay)) {
      if (n instanceof Expr.Name local && local.isVariable(local.name())) {
        for (Expr value : analysis.valuesOf(local.name())) {
          nodes.addAll(Nodes.sameFrame(value));
        }
      }
    }
    for (Node n : nodes) {
      String name =
          n instanceof Expr.Name read && read.kind() != Expr.NameKind.TYPE
              ? read.name()
              : n instanceof Expr.Call call ? call.name() : null;
      if (name != null && RETRY_DELAY.matches(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The sleeps in a failure callback's lambda that calls the method again ({@code exceptionally(ex
   * -> { Thread.sleep(50); readTail(reader); ..})}): the wait before the next attempt of a retry by
   * recursion.
   */
  private static List<Expr.Call> failureSleeps(MethodAnalysis analysis) {
    List<Expr.Call> found = new ArrayList<>();
    List<Expr.Call> inLambdas = DelayedRetries.inFailureLambdas(analysis);
    if (inLambdas.stream().anyMatch(analysis::isSelfCall)) {
      for (Expr.Call call : inLambdas) {
        if (CallNames.SLEEPS.contains(call.name()) && !call.args().isEmpty()) {
          found.add(call);
        }
      }
    }
    return found;
  }

  /**
   * A wait one callee deep: a retry loop's handler calls a method of the unit that sleeps ({@code
   * catch (E e) { handleFailure(e); }} with {@code Thread.sleep(interval)} in {@code
   * handleFailure}).
   *
   * @param call the call in the retry loop
   * @param callee the callee's analysis
   * @param sleep the callee's sleep call
   * @param delay the sleep's delay
   */
  record CalleeWait(Expr.Call call, MethodAnalysis callee, Expr.Call sleep, Expr delay) {}

  /**
   * Returns the waits that retry loops of the method make in a callee: calls in their catch clauses
   * to methods of the unit whose own frame sleeps (not in a loop of the callee's own).
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static List<CalleeWait> calleeWaits(MethodAnalysis analysis) {
    List<CalleeWait> waits = new ArrayList<>();
    for (LoopInfo loop : analysis.retryLoops()) {
      if (!loop.evidence().contains(LoopInfo.Evidence.RETRYING_CATCH)
          || loop.evidence().contains(LoopInfo.Evidence.SLEEPS)) {
        continue; // the loop's own sleep is its backoff
      }
      for (Node n : analysis.loopLevel(loop)) {
        if (!(n instanceof Expr.Call call) || !analysis.isInCatchBody(call, loop.node())) {
          continue;
        }
        MethodModel callee = analysis.context().unit().declarationOf(call);
        if (callee == null || callee == analysis.method() || callee.body() == null) {
          continue;
        }
        MethodAnalysis inner =
            MethodAnalysis.of(callee, analysis.context().unit().contextOf(callee));
        if (!inner.loops().isEmpty()) {
          continue;
        }
        for (Node m : Nodes.sameFrame(callee.body())) {
          if (m instanceof Expr.Call sleep
              && CallNames.SLEEPS.contains(sleep.name())
              && !sleep.args().isEmpty()) {
            Expr delay =
                sleep.name().equals("parkNanos")
                    ? sleep.args().get(sleep.args().size() - 1)
                    : sleep.args().get(0);
            waits.add(new CalleeWait(call, inner, sleep, delay));
            break;
          }
        }
      }
    }
    return waits;
  }

  /** Names of values that hold a delay. */
  static final java.util.regex.Pattern DELAY_NAME =
      java.util.regex.Pattern.compile(
          "(?i).*(delay|backoff|back_off|interval|wait|sleep|period|timeout|pause).*");

  /** Names of values by which a delay is multiplied per failure. */
  static final java.util.regex.Pattern MULTIPLIER_NAME =
      java.util.regex.Pattern.compile(
          "(?i).*(multiplier|factor|backoff|back_off|exponent|growth).*");

  /**
   * Returns the backoff computations of a method that draws no random value, in source order: a
   * delay grown per failure outside any retry loop of the method ({@code reconnectDelay *=
   * backOffMultiplier}, {@code delay = (long) Math.pow(multiplier, failureCount)}, {@code base <<
   * failures}) and not returned (a caller that is given the delay may add the jitter). The delay of
   * a reconnect timer, a dead node's revival time or a redelivery: whatever waits it, every client
   * that failed together waits the same.
   */
  static List<Expr> growths(MethodAnalysis analysis) {
    return growths(analysis, true);
  }

  /**
   * Like {@link #growths(MethodAnalysis)}, for the question the rule asks: {@code jitter}, whether
   * the delay has a random part (a method or a caller that draws one has it); otherwise whether it
   * has a cap (a method or a caller that calls {@code min}/{@code clamp} has one).
   *
   * <p>A delay the method returns ({@code return (long) Math.pow(seed, getFailureCount(job))} in
   * {@code getExponentialBackoffPolicy(job)}) counts when the method is named for a delay and every
   * caller in the unit, and their callers that return it on, neither adds the missing part nor
   * hands the value out of the unit: they use it as it is ({@code job.scheduleAt(now()
   * .plusSeconds(getSecondsToAdd(job)))}).
   */
  static List<Expr> growths(MethodAnalysis analysis, boolean jitter) {
    if (analysis.method().body() == null || (jitter ? drawsRandom(analysis) : caps(analysis))) {
      return List.of();
    }
    List<Expr> found = new ArrayList<>();
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (!(n instanceof Expr.Assign || n instanceof Expr.Call || n instanceof Expr.Binary)
          || analysis.isInRetryLoop(n)) {
        continue; // not a growth; or in a loop, whose own wait is judged as such
      }
      String target = null;
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name grown
          && DELAY_NAME.matcher(grown.name()).matches()
          && isMultiplication(assign, grown.name())) {
        target = grown.name();
      } else if (isExponential(n)) {
        target = assignedName(analysis, n);
      }
      if (target != null && DELAY_NAME.matcher(target).matches() && !returns(analysis, target)) {
        found.add((Expr) n);
      } else if (target == null
          && isExponential(n)
          && isReturned(analysis, n)
          && DELAY_NAME.matcher(analysis.method().name()).matches()
          && usedAsItIs(analysis, analysis.method(), jitter, 2)
          && !(jitter && waitedByCaller(analysis))) {
        found.add((Expr) n);
      }
    }
    return found;
  }

  /**
   * A wait outside any retry loop of its method for a delay that a method of the unit grows with
   * every failure and returns: a hand-written retry policy's step ({@code
   * Thread.sleep(nextMaxInterval())} in feign's {@code continueOrPropagate(e)}, {@code
   * schedule(task, nextReconnectDelay(), MILLISECONDS)} in a reconnect controller). The retry loop
   * is the caller's; the wait, and the place for the jitter, is here.
   *
   * @param at the sleep or scheduling call and its delay, outside any loop ({@code loop} is {@code
   *     null})
   * @param grower the call, in this method, of the method that grows the delay
   */
  record GrowthWait(Wait at, Expr.Call grower) {}

  /**
   * Returns the waits of the method for a delay grown per failure by a method of the unit (see
   * {@link GrowthWait}): the delay is that method's result, or a local given it, and neither this
   * method nor the grower draws a random value. Waits in retry loops, and delayed resubmissions,
   * are judged by {@link #waits}.
   */
  static List<GrowthWait> growthWaits(MethodAnalysis analysis) {
    if (analysis.method().body() == null || drawsRandom(analysis)) {
      return List.of();
    }
    List<GrowthWait> found = new ArrayList<>();
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Call call) || analysis.isInRetryLoop(call)) {
        continue;
      }
      Expr delay = null;
      String unit = null;
      DelayedRetries.Delayed delayed = DelayedRetries.delayed(call);
      if (CallNames.SLEEPS.contains(call.name()) && !call.args().isEmpty()) {
        delay = delayOf(call);
        unit = unit(call);
      } else if (delayed != null) {
        delay = delayed.delay();
        unit = delayed.unit();
      }
      Expr.Call grower = delay == null ? null : growerOf(analysis, delay);
      if (grower != null && isDeterministic(analysis, grower)) {
        found.add(new GrowthWait(new Wait(null, call, delay, unit), grower));
      } else if (delay instanceof Expr.Name param && param.kind() == Expr.NameKind.PARAMETER) {
        grower = growerFromCallers(analysis, param.name());
        if (grower != null) {
          found.add(new GrowthWait(new Wait(null, call, delay, unit), grower));
        }
      }
    }
    return found;
  }

  /**
   * For a wait of a parameter ({@code handleBackoff(int millis)} sleeping {@code millis}): the
   * call, in a caller of the unit, of a method that grows the delay and returns it, given as that
   * parameter ({@code handleBackoff(incrAndGetExponentialBackoff())}), when that caller draws no
   * random value and the call has no random part; else {@code null}. The wait is the one place all
   * callers share, so it is where the jitter belongs.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static Expr.Call growerFromCallers(MethodAnalysis analysis, String param) {
    List<MethodModel.Param> params = analysis.method().params();
    int index = -1;
    for (int i = 0; i < params.size(); i++) {
      index = params.get(i).name().equals(param) ? i : index;
    }
    if (index < 0) {
      return null;
    }
    for (MethodModel caller : analysis.unitFacts().callers(analysis.method())) {
      MethodAnalysis callerAnalysis = analysis.unitFacts().analysisOf(caller);
      if (callerAnalysis == null || drawsRandom(callerAnalysis)) {
        continue;
      }
      for (Node n : callerAnalysis.bodyFrameNodes()) {
        if (n instanceof Expr.Call call
            && call.args().size() == params.size()
            && callerAnalysis.context().unit().declarationOf(call) == analysis.method()
            && call.args().get(index) instanceof Expr.Call given
            && growsAndReturns(callerAnalysis, given)
            && isDeterministic(callerAnalysis, given)) {
          return given;
        }
      }
    }
    return null;
  }

  /** The call of a growing method the delay is: the delay itself, or a local's value. */
  private static Expr.Call growerOf(MethodAnalysis analysis, Expr delay) {
    if (delay instanceof Expr.Call call) {
      return growsAndReturns(analysis, call) ? call : null;
    }
    if (delay instanceof Expr.Name name && name.kind() == Expr.NameKind.LOCAL) {
      for (Expr value : assignedValues(analysis, name.name())) {
        if (value instanceof Expr.Call call && growsAndReturns(analysis, call)) {
          return call;
        }
      }
    }
    return null;
  }

  /**
   * Whether the call invokes a method of the unit named for a delay that draws no random value and
   * returns a delay it grows per failure ({@code interval = period * Math.pow(1.5, attempt - 1);
   * return Math.min(interval, maxPeriod);}, {@code nextReconnectDelay *= multiplier; return
   * nextReconnectDelay;}, {@code return base << failures;}).
   */
  private static boolean growsAndReturns(MethodAnalysis analysis, Expr.Call call) {
    return growsAndReturns(analysis, call, 1);
  }

  /**
   * Like {@link #growsAndReturns(MethodAnalysis, Expr.Call)}, also through {@code depth} methods
   * named for a delay that return the grower's result as it is ({@code incrAndGetBackoff() {
   * count++; return calculateBackoffMillis(); }}).
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean growsAndReturns(MethodAnalysis analysis, Expr.Call call, int depth) {
    MethodModel callee = analysis.context().unit().declarationOf(call);
    if (callee == null
        || callee == analysis.method()
        || callee.body() == null
        || !DELAY_NAME.matcher(callee.name()).matches()) {
      return false;
    }
    MethodAnalysis inner = analysis.unitFacts().analysisOf(callee);
    if (inner == null || drawsRandom(inner)) {
      return false;
    }
    for (Node n : Nodes.sameFrame(callee.body())) {
      if (depth > 0
          && n instanceof Stmt.Return ret
          && ret.value() instanceof Expr.Call delegate
          && growsAndReturns(inner, delegate, depth - 1)) {
        return true;
      }
      if (!(n instanceof Expr.Assign || n instanceof Expr.Call || n instanceof Expr.Binary)
          || inner.isInRetryLoop(n)) {
        continue;
      }
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name grown
          && DELAY_NAME.matcher(grown.name()).matches()
          && (isMultiplication(assign, grown.name()) || multipliesItself(assign, grown.name()))
          && returns(inner, grown.name())) {
        return true;
      }
      if (isExponential(n)) {
        String target = assignedName(inner, n);
        if (target == null ? isReturned(inner, n) : returns(inner, target)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether an assignment multiplies or shifts the delay it assigns by any factor, a literal one
   * too, capped or not: {@code backoff *= 2}, {@code backoff = Math.min(backoff * 2, max)}, {@code
   * backoff <<= 1}. Only for a method named for a delay whose result is waited: there a doubling is
   * a backoff, not a search's step.
   */
  private static boolean multipliesItself(Expr.Assign assign, String target) {
    if (assign.operator().equals("*=") || assign.operator().equals("<<=")) {
      return true;
    }
    if (!assign.operator().equals("=")) {
      return false;
    }
    for (Node n : Nodes.sameFrame(assign.value())) {
      if (n instanceof Expr.Binary product
          && (product.operator().equals("*") || product.operator().equals("<<"))
          && (isNamed(product.left(), target) || isNamed(product.right(), target))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNamed(Expr expr, String name) {
    return expr instanceof Expr.Name named && named.name().equals(name);
  }

  /**
   * Whether a caller of the method in its unit waits the delay the method grows and returns, in a
   * retry loop or as a policy's step: the finding is the wait's, once.
   */
  private static boolean waitedByCaller(MethodAnalysis analysis) {
    return waitedByCaller(analysis, 1);
  }

  /**
   * Like {@link #waitedByCaller(MethodAnalysis)}, also through {@code depth} callers that return
   * the delay on, and where a caller passes the delay to a helper of the unit that waits it ({@code
   * handleBackoff(incrAndGetExponentialBackoff())}).
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean waitedByCaller(MethodAnalysis analysis, int depth) {
    for (MethodModel caller : analysis.unitFacts().callers(analysis.method())) {
      MethodAnalysis callerAnalysis = analysis.unitFacts().analysisOf(caller);
      if (callerAnalysis == null) {
        continue;
      }
      if (depth > 0
          && returnsCallOf(caller, analysis.method())
          && waitedByCaller(callerAnalysis, depth - 1)) {
        return true;
      }
      for (Node n : callerAnalysis.bodyFrameNodes()) {
        if (n instanceof Expr.Call helperCall) {
          MethodModel helper = callerAnalysis.context().unit().declarationOf(helperCall);
          if (helper == null || helper == caller || helper == analysis.method()) {
            continue;
          }
          for (Expr arg : helperCall.args()) {
            if (arg instanceof Expr.Call given
                && callerAnalysis.context().unit().declarationOf(given) == analysis.method()) {
              MethodAnalysis helperAnalysis = analysis.unitFacts().analysisOf(helper);
              if (helperAnalysis != null
                  && growthWaits(helperAnalysis).stream().anyMatch(g -> g.grower() == given)) {
                return true;
              }
            }
          }
        }
      }
      List<Expr> delays = new ArrayList<>();
      growthWaits(callerAnalysis).forEach(growth -> delays.add(growth.at().delay()));
      waits(callerAnalysis).forEach(wait -> delays.add(wait.delay()));
      for (Expr delay : delays) {
        for (Expr value : valuesOf(callerAnalysis, delay)) {
          if (value instanceof Expr.Call call
              && callerAnalysis.context().unit().declarationOf(call) == analysis.method()) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The delay itself and, for a local, the values it is given. */
  private static List<Expr> valuesOf(MethodAnalysis analysis, Expr delay) {
    List<Expr> values = new ArrayList<>();
    values.add(delay);
    if (delay instanceof Expr.Name name && name.kind() == Expr.NameKind.LOCAL) {
      values.addAll(assignedValues(analysis, name.name()));
    }
    return values;
  }

  private static boolean isExponential(Node n) {
    return (n instanceof Expr.Call call
            && call.name().equals("pow")
            && call.args().size() == 2
            && mentionsFailureCount(call.args().get(1)))
        || (n instanceof Expr.Binary shift
            && shift.operator().equals("<<")
            && mentionsFailureCount(shift.right()));
  }

  /** Whether the expression is (part of the arithmetic of) the value of a return statement. */
  private static boolean isReturned(MethodAnalysis analysis, Node expr) {
    for (Node p = analysis.parent(expr); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.Return) {
        return true;
      }
      if (p instanceof Stmt
          || p instanceof Expr.Lambda
          || (p instanceof Expr.Call call && !ARITHMETIC.contains(call.name()))) {
        return false;
      }
    }
    return false;
  }

  /**
   * Whether every caller of the method in its unit uses the returned delay as it is: it has
   * callers, none adds the missing part (a random draw for {@code jitter}, else a cap), and those
   * that return the value on (a delegating getter) are judged the same way, {@code depth} levels
   * up; a public caller that returns it hands it out of the unit, where a caller may add it.
   */
  private static boolean usedAsItIs(
      MethodAnalysis analysis, MethodModel method, boolean jitter, int depth) {
    List<MethodModel> callers = analysis.unitFacts().callers(method);
    if (callers.isEmpty() || depth < 0) {
      return false;
    }
    for (MethodModel caller : callers) {
      MethodAnalysis callerAnalysis = analysis.unitFacts().analysisOf(caller);
      if (jitter ? drawsRandom(callerAnalysis) : caps(callerAnalysis)) {
        return false;
      }
      if (returnsCallOf(caller, method) && !usedAsItIs(analysis, caller, jitter, depth - 1)) {
        return false;
      }
    }
    return true;
  }

  private static boolean returnsCallOf(MethodModel caller, MethodModel callee) {
    for (Node n : Nodes.sameFrame(caller.body())) {
      if (n instanceof Stmt.Return ret && ret.value() != null) {
        for (Node m : Nodes.sameFrame(ret.value())) {
          if (m instanceof Expr.Call call && call.name().equals(callee.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Calls that cap a value. */
  private static final Set<String> CAPPING_CALLS = Set.of("min", "clamp", "constrainToRange");

  /** Whether the method caps a value anywhere: {@code Math.min(delay, max)}. */
  private static boolean caps(MethodAnalysis analysis) {
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (n instanceof Expr.Call call && CAPPING_CALLS.contains(call.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code d *= m}, {@code d = d * m} by a multiplier named as one ({@code backOffMultiplier}); not
   * by a literal ({@code interval *= 2} also steps a search, {@code delay * 1000} converts units).
   */
  private static boolean isMultiplication(Expr.Assign assign, String target) {
    Expr by;
    if (assign.operator().equals("*=")) {
      by = assign.value();
    } else if (assign.operator().equals("=")
        && assign.value() instanceof Expr.Binary product
        && product.operator().equals("*")
        && product.left() instanceof Expr.Name self
        && self.name().equals(target)) {
      by = product.right();
    } else {
      return false;
    }
    return (by instanceof Expr.Name multiplier
            && MULTIPLIER_NAME.matcher(multiplier.name()).matches())
        || (by instanceof Expr.Call getter // getReconnectBackOffMultiplier()
            && getter.args().isEmpty()
            && MULTIPLIER_NAME.matcher(getter.name()).matches());
  }

  /** Whether an exponent reads a failure count ({@code failureCount}, {@code failedAttempts}). */
  private static boolean mentionsFailureCount(Expr exponent) {
    for (Node n : Nodes.sameFrame(exponent)) {
      if (n instanceof Expr.Name name
          && name.kind() != Expr.NameKind.TYPE
          && !NamePattern.isConstantName(name.name())
          && FAILURE_NAME.matches(name.name())) {
        return true;
      }
      if (n instanceof Expr.Call count && FAILURE_NAME.matches(count.name())) {
        return true; // getFailureCount(job)
      }
    }
    return false;
  }

  /** The variable or field an expression's value is stored in, or {@code null}. */
  static String assignedName(MethodAnalysis analysis, Node expr) {
    for (Node p = analysis.parent(expr); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.LocalVar local) {
        return local.name();
      }
      if (p instanceof Expr.Assign assign && assign.target() instanceof Expr.Name target) {
        return target.name();
      }
      if (p instanceof Stmt
          || p instanceof Expr.Lambda
          || (p instanceof Expr.Call call && !ARITHMETIC.contains(call.name()))) {
        return null;
      }
    }
    return null;
  }

  /** Whether the method returns a value read from {@code variable}. */
  private static boolean returns(MethodAnalysis analysis, String variable) {
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (n instanceof Stmt.Return ret
          && ret.value() != null
          && Nodes.readsName(ret.value(), variable)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the method reads a random value anywhere, or a value named as one. */
  private static boolean drawsRandom(MethodAnalysis analysis) {
    return drawsRandom(analysis.method().body());
  }

  /** Whether a random value, or a value named as one, is read anywhere in the node. */
  private static boolean drawsRandom(Node root) {
    for (Node n : Nodes.preOrder(root)) {
      if ((n instanceof Expr.Call call && RANDOM_NAME.matches(call.name()))
          || (n instanceof Expr.Name name && RANDOM_NAME.matches(name.name()))
          || (n instanceof Expr.Call next
              && next.name().matches("next(Int|Long|Double|Float|Gaussian)"))) {
        return true;
      }
    }
    return false;
  }

  /** The nodes at the level of the wait's loop, or of the whole method for a resubmission. */
  static List<Node> level(MethodAnalysis analysis, Wait wait) {
    return wait.loop() == null ? analysis.bodyFrameNodes() : analysis.loopLevel(wait.loop());
  }

  /**
   * Whether a rescheduling delay follows failures: it grows by a shift or a power, reads a value a
   * catch clause changes ({@code delay.compareAndSet(..)}, {@code pullDelay = ..}, {@code
   * context.setNextDelay(..)} for {@code context.getNextDelay()}), or a failure count.
   */
  private static boolean followsFailures(MethodAnalysis analysis, Expr delay) {
    List<Node> nodes = new ArrayList<>(Nodes.sameFrame(delay));
    for (Node n : Nodes.sameFrame(delay)) {
      if (n instanceof Expr.Name name && name.kind() == Expr.NameKind.LOCAL) {
        for (Expr value : assignedValues(analysis, name.name())) {
          nodes.addAll(Nodes.sameFrame(value));
        }
      }
    }
    for (Node n : nodes) {
      if ((n instanceof Expr.Binary binary
              && binary.operator().equals("<<")
              && !(binary.right() instanceof Expr.Literal))
          || (n instanceof Expr.Call call && call.name().equals("pow"))) {
        return true;
      }
      if (n instanceof Expr.Name name
          && !NamePattern.isConstantName(name.name())
          && (FAILURE_NAME.matches(name.name()) || changedInCatch(analysis, name.name(), null))) {
        return true;
      }
      if (n instanceof Expr.Call call
          && call.args().isEmpty()
          && call.name().startsWith("get")
          && call.receiver() instanceof Expr.Name holder
          && changedInCatch(analysis, holder.name(), "set" + call.name().substring(3))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a catch clause of the method changes a variable or field: assigns it, updates the
   * atomic it holds, or (with {@code setter}) calls that setter on it.
   */
  private static boolean changedInCatch(MethodAnalysis analysis, String variable, String setter) {
    for (Node n : analysis.bodyFrameNodes()) {
      if (!analysis.isInCatchBody(n, null)) {
        continue;
      }
      if (setter == null
          && n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && target.name().equals(variable)) {
        return true;
      }
      if (n instanceof Expr.Call call
          && call.receiver() instanceof Expr.Name target
          && target.name().equals(variable)
          && (setter == null ? UPDATES.contains(call.name()) : call.name().equals(setter))) {
        return true;
      }
    }
    return false;
  }

  private static String unit(Expr.Call call) {
    if (call.name().equals("sleep")
        && call.args().size() == 1
        && call.receiver() instanceof Expr.Name type
        && type.name().equals("Thread")) {
      return isDuration(call.args().get(0)) ? null : "MILLISECONDS";
    }
    if (call.name().equals("parkNanos")) {
      return "NANOSECONDS";
    }
    if (call.name().equals("sleep")
        && call.receiver() instanceof Expr.Name unit
        && unit.qualifier() != null
        && (unit.type().isSubtypeOf("java.util.concurrent.TimeUnit")
            || (!unit.type().isKnown()
                && unit.qualifier() instanceof Expr.Name q
                && q.name().equals("TimeUnit")))) {
      return unit.name();
    }
    if (call.name().equals("sleepUninterruptibly")
        && call.args().size() == 2
        && call.args().get(1) instanceof Expr.Name unit) {
      return unit.name();
    }
    return null;
  }

  private static boolean isDuration(Expr expr) {
    return expr.type().isSubtypeOf("java.time.Duration");
  }

  /** How many calls deep a delay's computation is followed into the methods it calls. */
  private static final int CALL_DEPTH = 2;

  /**
   * Whether a delay has no random part: it is built only of literals, variables, fields and
   * arithmetic, following local variables to their values, and calls of methods whose source the
   * frontend sees (in the unit, another file, or the only implementation of an interface's method
   * there: {@code schedulePolicy.fail()}) when each value they return is built the same way and
   * they draw no random value, up to {@value #CALL_DEPTH} calls deep. A library backoff's delay
   * whose source shows no random part in the configuration it is built with counts too ({@link
   * LibraryBackoffs}: Kafka's {@code ExponentialBackoff} with jitter 0, Apollo's {@code
   * ExponentialSchedulePolicy}). Any other call (a policy's {@code nextDelay()} from a library)
   * could add jitter, so it makes the delay not provably fixed.
   */
  static boolean isDeterministic(MethodAnalysis analysis, Expr delay) {
    return isDeterministic(analysis, delay, new HashSet<>(), CALL_DEPTH);
  }

  private static boolean isDeterministic(
      MethodAnalysis analysis, Node expr, Set<String> seen, int depth) {
    // The objects settings are read from: where they came from does not make the value random.
    Set<Node> holders = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    // An index picks which stored value is read: the values are what the delay is made of.
    Set<Node> indexes = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.ArrayAccess access) {
        if (drawsRandom(access.index())) {
          return false; // delays[random.nextInt(delays.length)]: a random pick
        }
        indexes.addAll(Nodes.sameFrame(access.index()));
      }
    }
    for (Node n : Nodes.sameFrame(expr)) {
      if (indexes.contains(n)) {
        continue;
      }
      if (n instanceof Expr.Call call && !setterValues(analysis, call).isEmpty()) {
        // context.getNextDelay() after context.setNextDelay(1000): the value set
        for (Expr value : setterValues(analysis, call)) {
          if (!isDeterministic(analysis, value, seen, depth)) {
            return false;
          }
        }
      } else if (n instanceof Expr.Call call
          && !(call.args().isEmpty() && UNWRAPS.contains(call.name()))) {
        // (optional.get() unwraps: what it holds is what its receiver was given, followed below)
        boolean getter =
            call.args().isEmpty()
                && call.name().startsWith("get")
                && !COMPUTED_DELAY.matches(call.name());
        if (RANDOM_NAME.matches(call.name())) {
          return false;
        }
        if (!(ARITHMETIC.contains(call.name())
                || getter
                || COUNTER_CALL.matches(call.name())
                || isClockRead(call)
                || LibraryBackoffs.isJitterFreeDelay(analysis, call))
            && !returnsDeterministic(analysis, call, depth)) {
          return false;
        }
        if (getter && call.receiver() != null) {
          holders.add(call.receiver());
        }
      } else if (n instanceof Expr.Lambda || n instanceof Expr.Other) {
        return false;
      } else if (n instanceof Expr.Name name) {
        if (RANDOM_NAME.matches(name.name())) {
          return false;
        }
        if (name.isVariable(name.name())
            && name.kind() == Expr.NameKind.LOCAL
            && !holders.contains(name)) {
          if (!seen.add(name.name())) {
            continue; // already followed: delay = delay * 2
          }
          for (Expr value : assignedValues(analysis, name.name())) {
            if (!isDeterministic(analysis, value, seen, depth)) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }

  /**
   * {@code System.currentTimeMillis()}, {@code System.nanoTime()}: the time is no random part.
   * Clients that failed together read the same time, so a delay less the time already spent ({@code
   * reconnectionDelay - (now - lastAttempt)}) ends at the same moment for all of them.
   */
  private static boolean isClockRead(Expr.Call call) {
    return call.args().isEmpty()
        && (call.name().equals("currentTimeMillis") || call.name().equals("nanoTime"))
        && Nodes.isStaticCallOn(call, "java.lang.System");
  }

  /**
   * Whether a call's result has no random part by its callee's source: the callee draws no random
   * value and every value it returns is deterministic in its own analysis.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean returnsDeterministic(MethodAnalysis analysis, Expr.Call call, int depth) {
    if (depth <= 0) {
      return false;
    }
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null || callee == analysis.method() || callee.body() == null) {
      return false;
    }
    MethodAnalysis inner = analysis.calleeAnalysis(callee);
    if (inner == null || drawsRandom(inner)) {
      return false;
    }
    boolean returns = false;
    for (Node n : inner.bodyFrameNodes()) {
      if (n instanceof Stmt.Return ret) {
        if (ret.value() == null
            || !isDeterministic(inner, ret.value(), new HashSet<>(), depth - 1)) {
          return false;
        }
        returns = true;
      }
    }
    return returns;
  }

  /**
   * For {@code holder.getX()}: the values the method passes to {@code holder.setX(..)}; for a keyed
   * holder's {@code holder.get(key)}: the values the method, its lambdas included, passes to {@code
   * holder.set(key, ..)} ({@code KEY_WAIT_TIME.get(ctx)} after {@code KEY_WAIT_TIME.set(ctx,
   * waitTime)}).
   */
  private static List<Expr> setterValues(MethodAnalysis analysis, Expr.Call getter) {
    if (getter.name().equals("get")
        && getter.args().size() == 1
        && getter.args().get(0) instanceof Expr.Name key
        && getter.receiver() instanceof Expr.Name holder) {
      List<Expr> values = new ArrayList<>();
      for (Node n : analysis.bodyNodes()) {
        if (n instanceof Expr.Call call
            && call.name().equals("set")
            && call.args().size() == 2
            && call.args().get(0) instanceof Expr.Name setKey
            && setKey.name().equals(key.name())
            && call.receiver() instanceof Expr.Name target
            && target.name().equals(holder.name())) {
          values.add(call.args().get(1));
        }
      }
      return values;
    }
    if (!getter.args().isEmpty()
        || getter.name().length() <= 3
        || !getter.name().startsWith("get")
        || !(getter.receiver() instanceof Expr.Name holder)) {
      return List.of();
    }
    String setter = "set" + getter.name().substring(3);
    List<Expr> values = new ArrayList<>();
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Expr.Call call
          && call.name().equals(setter)
          && call.args().size() == 1
          && call.receiver() instanceof Expr.Name target
          && target.name().equals(holder.name())) {
        values.add(call.args().get(0));
      }
    }
    return values;
  }

  /** Every value given to a local: initialiser, simple and compound assignments. */
  static List<Expr> assignedValues(MethodAnalysis analysis, String variable) {
    List<Expr> values = new ArrayList<>(analysis.valuesOf(variable));
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Assign assign
          && !assign.operator().equals("=")
          && assign.target() instanceof Expr.Name target
          && target.isVariable(variable)) {
        values.add(assign.value());
      }
    }
    return values;
  }
}
