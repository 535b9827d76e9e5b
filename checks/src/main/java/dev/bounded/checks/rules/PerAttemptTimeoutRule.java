package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.analysis.RetryingMethods;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Failure mode C: inside a retry loop, each attempt waits with a fresh, fixed timeout ({@code
 * future.get(5, SECONDS)}), and no deadline was computed before the loop. Three attempts then take
 * up to three timeouts plus backoff: the retries silently outlive the caller's deadline.
 *
 * <p>Not reported: waits bounded by what a deadline has left ({@code deadline.remainingNanos()},
 * {@code deadline - System.nanoTime()}, {@code Duration.between(now, end)}, {@code Math.min(t,
 * remaining)}), and loops preceded by a deadline computation.
 *
 * <p>Fix, for waits that take {@code (long, TimeUnit)}: one {@code Deadline} before the loop (plain
 * {@code System.nanoTime()} arithmetic when the runtime is not on the class path) and every such
 * wait bounded by its remaining time.
 */
public final class PerAttemptTimeoutRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "PerAttemptTimeout";

  static final String DEADLINE_TYPE = "dev.bounded.runtime.Deadline";

  /**
   * A method that takes a timeout.
   *
   * @param owner the type declaring it
   * @param name its name
   * @param arity its number of arguments
   * @param timeoutArg the index of the timeout amount
   * @param unitArg the index of its {@code TimeUnit}, or -1 when the timeout is a Duration or int
   */
  record TimedMethod(String owner, String name, int arity, int timeoutArg, int unitArg) {}

  private static final List<TimedMethod> TIMED_METHODS =
      List.of(
          new TimedMethod("java.util.concurrent.Future", "get", 2, 0, 1),
          new TimedMethod("java.util.concurrent.CompletableFuture", "orTimeout", 2, 0, 1),
          new TimedMethod("java.util.concurrent.CompletableFuture", "completeOnTimeout", 3, 1, 2),
          new TimedMethod("java.net.http.HttpRequest.Builder", "timeout", 1, 0, -1),
          new TimedMethod("java.net.Socket", "connect", 2, 1, -1),
          new TimedMethod("java.util.concurrent.locks.Lock", "tryLock", 2, 0, 1),
          new TimedMethod("java.util.concurrent.BlockingQueue", "poll", 2, 0, 1),
          new TimedMethod("java.util.concurrent.BlockingQueue", "offer", 3, 1, 2),
          new TimedMethod("java.util.concurrent.CountDownLatch", "await", 2, 0, 1),
          new TimedMethod("java.util.concurrent.ExecutorService", "awaitTermination", 2, 0, 1),
          new TimedMethod("java.util.concurrent.Semaphore", "tryAcquire", 2, 0, 1),
          new TimedMethod("java.util.concurrent.locks.Condition", "await", 2, 0, 1),
          new TimedMethod("java.util.concurrent.CyclicBarrier", "await", 2, 0, 1),
          new TimedMethod("java.net.URLConnection", "setConnectTimeout", 1, 0, -1),
          new TimedMethod("java.net.URLConnection", "setReadTimeout", 1, 0, -1),
          new TimedMethod("java.net.Socket", "setSoTimeout", 1, 0, -1),
          new TimedMethod(
              "org.apache.http.conn.socket.ConnectionSocketFactory", "connectSocket", 6, 0, -1),
          new TimedMethod(
              "org.apache.hc.client5.http.socket.ConnectionSocketFactory",
              "connectSocket",
              6,
              0,
              -1),
          // Project Reactor: a timeout operator armed on each attempt's publisher, and a block
          // bounded by a Duration (azure-storage-common's RequestRetryPolicy: responseMono
          // .timeout(tryTimeout) in every recursive attempt).
          new TimedMethod("reactor.core.publisher.Mono", "timeout", 1, 0, -1),
          new TimedMethod("reactor.core.publisher.Flux", "timeout", 1, 0, -1),
          new TimedMethod("reactor.core.publisher.Mono", "block", 1, 0, -1),
          new TimedMethod("reactor.core.publisher.Mono", "blockOptional", 1, 0, -1),
          new TimedMethod("reactor.core.publisher.Flux", "blockFirst", 1, 0, -1),
          new TimedMethod("reactor.core.publisher.Flux", "blockLast", 1, 0, -1));

  /**
   * Parameter names that say the argument is a timeout ({@code timeout}, {@code readTimeoutMs}).
   */
  private static final NamePattern TIMEOUT_PARAMETER =
      NamePattern.containing("(?i).*time_?out.*", "timeout", "time_out");

  /** Result types of calls that compute a time value rather than wait. */
  private static final NamePattern TIME_VALUE =
      NamePattern.containing(
          "(?i).*(deadline|duration|instant|timeout|time|clock|ticker).*",
          "deadline",
          "duration",
          "instant",
          "time",
          "clock",
          "ticker");

  /** Calls that read what a deadline has left. */
  private static final NamePattern REMAINING =
      NamePattern.containing("(?i).*(remaining|timeleft).*", "remaining", "timeleft");

  /** Calls that read a clock. */
  private static final Set<String> CLOCK_READS =
      Set.of("nanoTime", "currentTimeMillis", "now", "millis", "instant", "read");

  /**
   * Calls without arguments whose names speak of time: a project's own clock. Not a count of
   * attempts, though its name has "time" in it ({@code config.retryTimes()}, {@code maxTimes()}).
   */
  private static final NamePattern CLOCK_SHAPE =
      NamePattern.containing(
          "(?i)(?!.*(timeout|interval|delay|duration|period|retr|attempt|count))(?!.*times$)"
              + ".*(time|millis|nanos|clock|elapsed|now|ticks).*",
          "time",
          "millis",
          "nanos",
          "clock",
          "elapsed",
          "now",
          "ticks");

  /**
   * Names that hold a deadline: {@code deadline}, {@code endTime}, {@code until}, {@code expiry}.
   */
  private static final NamePattern DEADLINE_NAME =
      NamePattern.containing(
          "(?i).*deadline.*|end(time|nanos|millis|at)?|until|expir\\w*",
          "deadline",
          "end",
          "until",
          "expir");

  private static final Map<String, String> DURATION_FACTORIES =
      Map.of(
          "NANOSECONDS", "ofNanos",
          "MILLISECONDS", "ofMillis",
          "SECONDS", "ofSeconds",
          "MINUTES", "ofMinutes",
          "HOURS", "ofHours",
          "DAYS", "ofDays");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    List<LoopInfo> loops = new ArrayList<>(analysis.retryLoops());
    loops.addAll(failoversByResult(analysis));
    List<LoopInfo> background = new ArrayList<>();
    if (!loops.isEmpty()) {
      for (UnboundedLoops.Unbounded unbounded : UnboundedLoops.find(analysis)) {
        if (unbounded.ending() == UnboundedLoops.Ending.STOP_FLAG) {
          background.add(unbounded.loop());
        }
      }
    }
    for (LoopInfo loop : loops) {
      if (hasDeadlineBefore(analysis, loop) || background.contains(loop)) {
        // A reconnect loop ended only by success or a stop flag: no caller waits on it with a
        // deadline, and a timeout per attempt is what it needs (UnboundedBackgroundRetry reports
        // that it never gives up).
        continue;
      }
      List<Expr.Call> timed = new ArrayList<>();
      List<Expr.Call> throughCallee = new ArrayList<>();
      List<String> calleeWaits = new ArrayList<>();
      List<Expr.Call> throughArgument = new ArrayList<>();
      List<String> argumentWaits = new ArrayList<>();
      for (Node n : analysis.loopLevel(loop)) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        if (isFreshTimeout(analysis, call, config)) {
          timed.add(call);
        } else {
          String wait = timeoutInCallee(analysis, call, config);
          if (wait != null) {
            throughCallee.add(call);
            calleeWaits.add(wait);
          } else {
            String carried = timeoutCarriedByArgument(analysis, call, config);
            if (carried != null) {
              throughArgument.add(call);
              argumentWaits.add(carried);
            }
          }
        }
      }
      List<Expr.Call> configured = sendsConfiguredBeforeLoop(analysis, loop, config);
      Stmt.LocalVar clock = clockStartedEachAttempt(analysis, loop);
      if (clock != null) {
        findings.add(
            new Finding(
                NAME,
                clock.span(),
                "Each attempt of this retry loop starts its timeout clock afresh ("
                    + clock.name()
                    + "): n attempts wait up to n timeouts plus backoff and outlive the caller's"
                    + " deadline. Compute one deadline before the loop and bound each attempt by"
                    + " what it has left",
                List.of()));
      }
      for (Expr.Call call : configured) {
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "Each attempt of this retry loop sends an object configured with a timeout before"
                    + " the loop ("
                    + shortText(analysis, call)
                    + "), so every attempt gets the full timeout again: n attempts wait up to n"
                    + " timeouts plus backoff and outlive the caller's deadline. Compute one"
                    + " deadline before the loop and give each attempt what it has left",
                List.of()));
      }
      List<Fix> fix = timed.isEmpty() ? List.of() : fix(analysis, loop, timed);
      for (Expr.Call call : timed) {
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "Each attempt of this retry loop waits with a fresh timeout ("
                    + shortText(analysis, call)
                    + "): n attempts wait up to n timeouts plus backoff and outlive the caller's"
                    + " deadline. Compute one Deadline before the loop and bound each wait by"
                    + " deadline.remainingNanos()",
                call == timed.get(0) ? fix : List.of()));
      }
      for (int i = 0; i < throughArgument.size(); i++) {
        Expr.Call call = throughArgument.get(i);
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "Each attempt of this retry loop hands "
                    + call.name()
                    + "() the same timeout, which it applies afresh ("
                    + argumentWaits.get(i)
                    + "): n attempts wait up to n timeouts plus backoff and outlive the caller's"
                    + " deadline. Compute one Deadline before the loop and pass what it has left",
                List.of()));
      }
      for (int i = 0; i < throughCallee.size(); i++) {
        Expr.Call call = throughCallee.get(i);
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "Each attempt of this retry loop calls "
                    + call.name()
                    + "(), which waits with a fresh timeout ("
                    + calleeWaits.get(i)
                    + "): n attempts wait up to n timeouts plus backoff and outlive the caller's"
                    + " deadline. Compute one Deadline before the loop and pass what it has left",
                List.of()));
      }
    }
    findings.addAll(recursionsWithTheSameTimeout(analysis));
    findings.addAll(asyncRecursionsWithFreshTimeouts(analysis, config));
    findings.addAll(waitsUntilDone(analysis, config));
    findings.addAll(timeoutsHandedToRetryingHelper(analysis, config));
    return findings;
  }

  /**
   * A fresh timeout inside a lambda handed to a method of the project that retries ({@code
   * retry(attempt -> rest.url(url).readTimeoutSeconds(config.getReadTimeout()).get())}), to a retry
   * library, or to a method of the project that hands it to a retry library ({@link
   * RetriedArguments}: {@code execute(() -> stub.withDeadlineAfter(timeout, unit).grant(..))}):
   * each attempt waits the whole timeout again. Not reported when the method has a deadline of its
   * own, which the lambda may consult.
   */
  private static List<Finding> timeoutsHandedToRetryingHelper(
      MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (!(n instanceof Expr.Call helper)
          || helper.args().stream().noneMatch(a -> a instanceof Expr.Lambda)) {
        continue;
      }
      boolean retries =
          CallNames.isRetryHelperName(helper.name())
              && RetryingMethods.of(analysis, helper) != null;
      for (int k = 0; k < helper.args().size(); k++) {
        if (!(helper.args().get(k) instanceof Expr.Lambda lambda)
            || !(retries || RetriedArguments.runsPerAttempt(analysis, helper, k))) {
          continue;
        }
        for (Node m : Nodes.sameFrame(lambda.body())) {
          if (m instanceof Expr.Call call
              && isFreshTimeout(analysis, call, config)
              && !mentionsDeadline(call)) {
            findings.add(
                new Finding(
                    NAME,
                    call.nameSpan(),
                    "This operation is handed to "
                        + helper.name()
                        + "(), which retries it, and each attempt waits with a fresh timeout ("
                        + shortText(analysis, call)
                        + "): n attempts wait up to n timeouts plus backoff and outlive the"
                        + " caller's deadline. Compute one Deadline before the retries and bound"
                        + " each attempt's wait by what it has left",
                    List.of()));
            break; // one finding per operation: its other timeouts are the same defect
          }
        }
      }
    }
    return findings;
  }

  /** Whether an argument of the call is computed from something named for a deadline. */
  private static boolean mentionsDeadline(Expr.Call call) {
    for (Expr arg : call.args()) {
      for (Node n : Nodes.sameFrame(arg)) {
        if ((n instanceof Expr.Name name && DEADLINE_NAME.matches(name.name()))
            || (n instanceof Expr.Call inner
                && (inner.name().startsWith("remaining") || DEADLINE_NAME.matches(inner.name())))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * For-each loops over nodes or addresses that try each until one succeeds, decided by a result
   * rather than a catch ({@code for (String url : urls) { if (probe(url)) { ..; break; } }}, {@code
   * connect(node); if (isConnected()) break;}): every node gets the whole timeout.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static List<LoopInfo> failoversByResult(MethodAnalysis analysis) {
    List<LoopInfo> failovers = new ArrayList<>();
    for (LoopInfo loop : analysis.loops()) {
      if (loop.isRetryLoop()
          || loop.kind() != LoopInfo.Kind.FOR_EACH
          || !loop.evidence().contains(LoopInfo.Evidence.OVER_NODES)
          || !loop.evidence().contains(LoopInfo.Evidence.EXITS_ON_SUCCESS)
          || loop.evidence().contains(LoopInfo.Evidence.TAKES_ITEMS)) {
        continue;
      }
      for (Node n : analysis.loopLevel(loop)) {
        if (n instanceof Stmt.If check
            && leavesOnSuccess(check.then())
            && !analysis.isInCatchBody(check, loop.node())
            && Nodes.sameFrame(check.condition()).stream()
                .anyMatch(m -> m instanceof Expr.Call c && !COMPARES.matcher(c.name()).matches())) {
          failovers.add(loop);
          break;
        }
      }
    }
    return failovers;
  }

  /**
   * Calls that compare or look up a value: {@code if (addr.equals(target)) {..; break;}} finds the
   * element to work on; it does not test an attempt's result.
   */
  private static final java.util.regex.Pattern COMPARES =
      java.util.regex.Pattern.compile(
          "equals\\w*|contains\\w*|startsWith|endsWith|matches|compareTo|isEmpty|hashCode");

  /** Whether a branch always leaves the loop by a break or return (not by throwing). */
  private static boolean leavesOnSuccess(Stmt branch) {
    if (Flow.canCompleteNormally(branch)) {
      return false;
    }
    boolean leaves = false;
    for (Node n : Nodes.sameFrame(branch)) {
      if (n instanceof Stmt.Throw) {
        return false;
      }
      leaves |= n instanceof Stmt.Return || n instanceof Stmt.Break;
    }
    return leaves;
  }

  /** Names of calls that set a timeout on a request, a connection or a client. */
  private static final java.util.regex.Pattern TIMEOUT_SETTER =
      java.util.regex.Pattern.compile("(?i)(set|with)\\w*time_?out\\w*");

  /**
   * Calls in the loop that take, as an argument, a local configured with a timeout before the loop
   * ({@code request.setReadTimeout(5000)}; then {@code client.doGet(request)} in each attempt):
   * each attempt applies the whole timeout again.
   */
  private static List<Expr.Call> sendsConfiguredBeforeLoop(
      MethodAnalysis analysis, LoopInfo loop, RuleConfig config) {
    if (loop.isWholeMethod() || !loop.span().isKnown()) {
      return List.of();
    }
    Set<String> configured = new LinkedHashSet<>();
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (n instanceof Expr.Call set
          && n.span().isKnown()
          && n.span().end() <= loop.span().start()
          && set.receiver() instanceof Expr.Name target
          && target.qualifier() == null
          && target.kind() == Expr.NameKind.LOCAL
          && TIMEOUT_SETTER.matcher(set.name()).matches()
          && !set.args().isEmpty()
          && set.args().stream().allMatch(PerAttemptTimeoutRule::isAmount)
          && set.args().stream().noneMatch(a -> isFromDeadline(analysis, a, 0) || isNoLimit(a))) {
        configured.add(target.name());
      }
    }
    List<Expr.Call> sends = new ArrayList<>();
    if (configured.isEmpty()) {
      return sends;
    }
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call && !isFreshTimeout(analysis, call, config)) {
        for (Expr arg : call.args()) {
          if (arg instanceof Expr.Name name
              && name.qualifier() == null
              && configured.contains(name.name())) {
            sends.add(call);
            break;
          }
        }
      }
    }
    return sends;
  }

  /**
   * A clock read into a local at the start of each attempt ({@code long start =
   * System.currentTimeMillis();} in the loop body) that a comparison with a timeout then bounds
   * ({@code now - start > timeout}): the attempt's timeout starts afresh every round.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static Stmt.LocalVar clockStartedEachAttempt(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.isWholeMethod() || !loop.span().isKnown()) {
      return null;
    }
    for (Node n : analysis.loopLevel(loop)) {
      if (!(n instanceof Stmt.LocalVar start)
          || start.init() == null
          || !(start.init() instanceof Expr.Call read)
          || !read.args().isEmpty()
          || !CLOCK_READS.contains(read.name())) {
        continue;
      }
      for (Node m : Nodes.sameFrame(loop.body())) {
        if (m instanceof Expr.Binary test
            && isComparison(test.operator())
            && ((elapsedSince(test.left(), start.name()) && isTimeoutAmount(test.right()))
                || (elapsedSince(test.right(), start.name()) && isTimeoutAmount(test.left())))) {
          return start;
        }
      }
    }
    return null;
  }

  /** {@code now - start}, {@code (end - start)}: the time spent since {@code start}. */
  private static boolean elapsedSince(Expr expr, String start) {
    return expr instanceof Expr.Binary difference
        && difference.operator().equals("-")
        && difference.right() instanceof Expr.Name name
        && name.isVariable(start);
  }

  /** A timeout-named amount ({@code timeout}, {@code this.sendTimeoutMillis}). */
  private static boolean isTimeoutAmount(Expr expr) {
    return expr instanceof Expr.Name name && TIMEOUT_PARAMETER.matches(name.name());
  }

  /**
   * A method that calls itself with its own timeout parameter, unchanged ({@code return
   * checkoutResource(timeout);}): the next attempt waits the caller's whole timeout again, after
   * time was already spent.
   */
  private static List<Finding> recursionsWithTheSameTimeout(MethodAnalysis analysis) {
    List<MethodModel.Param> params = analysis.method().params();
    if (hasDeadlineParameter(analysis.method())) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (!(n instanceof Expr.Call call) || !analysis.isSelfCall(call)) {
        continue;
      }
      for (int i = 0; i < call.args().size() && i < params.size(); i++) {
        MethodModel.Param param = params.get(i);
        if (call.args().get(i) instanceof Expr.Name name
            && name.qualifier() == null
            && name.name().equals(param.name())
            && TIMEOUT_PARAMETER.matches(param.name())
            && isAmountType(param.type())
            && !assignedIn(analysis.method().body(), param.name())) {
          findings.add(
              new Finding(
                  NAME,
                  call.nameSpan(),
                  "This retry calls "
                      + call.name()
                      + "() again with the caller's whole timeout ("
                      + param.name()
                      + "): each attempt waits it afresh, after time was already spent, and the"
                      + " retries outlive the caller's deadline. Pass what is left of it (compute"
                      + " one deadline on entry and hand down its remaining time)",
                  List.of()));
          break;
        }
      }
    }
    return findings;
  }

  /**
   * A retry by asynchronous recursion ({@link AsyncRetries}: the method calls itself from a failure
   * handler of its attempt, {@code responseMono.onErrorResume(e -> attemptAsync(.., attempt + 1))})
   * whose own frame, each attempt's work, waits with a fresh timeout ({@code responseMono =
   * responseMono.timeout(tryTimeout)}) or calls a method that does: every attempt gets the whole
   * timeout again. Not when the method takes a deadline, or the timeout is one of its parameters
   * (the recursion decides what it hands down).
   */
  private static List<Finding> asyncRecursionsWithFreshTimeouts(
      MethodAnalysis analysis, RuleConfig config) {
    if (hasDeadlineParameter(analysis.method())
        || analysis.retryLoops().stream().anyMatch(LoopInfo::isWholeMethod)
        || !AsyncRetries.retriesOnFailure(analysis)) {
      return List.of();
    }
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      String wait = null;
      if (isFreshTimeout(analysis, call, config)) {
        if (!takesTimeoutFromParameters(analysis, call, config)) {
          wait = shortText(analysis, call);
        }
      } else {
        wait = timeoutInCallee(analysis, call, config);
      }
      if (wait != null) {
        return List.of(
            new Finding(
                NAME,
                call.nameSpan(),
                "Each attempt of this asynchronous retry (the method calls itself when an attempt"
                    + " fails) "
                    + (wait.equals(shortText(analysis, call))
                        ? "waits with a fresh timeout ("
                        : "calls " + call.name() + "(), which waits with a fresh timeout (")
                    + wait
                    + "): n attempts wait up to n timeouts plus backoff and outlive the caller's"
                    + " deadline. Compute one deadline on entry and hand down what it has left",
                List.of()));
      }
    }
    return List.of();
  }

  private static boolean isAmountType(dev.bounded.checks.model.TypeRef type) {
    String name = type.name();
    return name.equals("int")
        || name.equals("long")
        || name.equals("java.lang.Integer")
        || name.equals("java.lang.Long")
        || name.equals("java.time.Duration");
  }

  /**
   * A loop that goes round while a timed wait with the caller's timeout times out ({@code while
   * (!pool.awaitTermination(timeout, unit)) {}}): the caller's timeout bounds one round, not the
   * wait.
   */
  private static List<Finding> waitsUntilDone(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (LoopInfo loop : analysis.loops()) {
      if (loop.isWholeMethod()
          || loop.isRetryLoop()
          || !(loop.condition() instanceof Expr.Unary not)
          || !not.operator().equals("!")
          || !(not.operand() instanceof Expr.Call wait)) {
        continue;
      }
      TimedMethod method = timedMethod(wait, config);
      if (method == null
          || method.timeoutArg() < 0
          || !(wait.args().get(method.timeoutArg()) instanceof Expr.Name amount)
          || amount.kind() != Expr.NameKind.PARAMETER
          || hasDeadlineBefore(analysis, loop)
          || !isFreshTimeout(analysis, wait, config)) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              wait.nameSpan(),
              "This loop waits again with the caller's whole timeout each time "
                  + wait.name()
                  + "() times out ("
                  + shortText(analysis, wait)
                  + "): the timeout bounds one round, not the wait, which can last forever."
                  + " Compute one deadline before the loop and wait for what it has left",
              List.of()));
    }
    return findings;
  }

  /**
   * Returns the fresh timeout a method sets when the loop calls it (one level deep): {@code
   * connect()} whose body calls {@code socket.setSoTimeout(readTimeout)}; or {@code null}. The
   * callee may be in another file the frontend sees, or be the only implementation there of the
   * interface method called ({@code adminBiz.registry(..)} running {@code AdminBizClient.registry},
   * which posts with the client's {@code timeout}). One level only: two calls deep was measured
   * (stop 20) and found no labelled positive on either half, while each of its 8 new findings was
   * judged a false alarm (a wait deep in a callee is mostly on a path the retry does not take
   * again).
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  private static String timeoutInCallee(
      MethodAnalysis analysis, Expr.Call call, RuleConfig config) {
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null || callee == analysis.method()) {
      return null;
    }
    if (callee.body() == null
        || hasDeadlineParameter(callee)
        || !(callsTimedMethod(callee, config) || callsTimeoutSetter(callee))) {
      return null; // nothing to judge: the callee's analysis is not built
    }
    // Timeouts the callee takes as parameters come from the caller: the caller's call carries
    // them, and is judged by its own arguments.
    MethodAnalysis inner = analysis.calleeAnalysis(callee);
    if (inner == null) {
      return null;
    }
    for (Node n : Nodes.sameFrame(callee.body())) {
      if (n instanceof Expr.Call wait
          && (isFreshTimeout(inner, wait, config) || setsTimeoutOnNewObject(inner, wait))
          && !takesTimeoutFromParameters(inner, wait, config)
          // while (!lock.tryLock(100, MILLISECONDS)) { if (!isAlive()) throw ..; }: a poll slice
          // the callee repeats until its condition holds, not a bound on the attempt.
          && !isPollSlice(inner, wait)) {
        return shortText(inner, wait);
      }
    }
    return null;
  }

  /**
   * Returns the wait that applies, afresh, a timeout the loop's call hands its callee as an
   * argument ({@code executeAndDecode(template, options)}, whose callees set {@code
   * options.readTimeoutMillis()} on the connection), or {@code null}. Not when the argument is what
   * a deadline has left, means no limit, is computed afresh each round, or is an object the method
   * configures from a deadline ({@code request.setTimeout(deadline.remaining())}).
   */
  private static String timeoutCarriedByArgument(
      MethodAnalysis analysis, Expr.Call call, RuleConfig config) {
    List<String> applied = TimeoutArguments.of(analysis, call, config);
    for (int j = 0; j < applied.size(); j++) {
      Expr arg = call.args().get(j);
      if (applied.get(j) != null
          && !isFromDeadline(analysis, arg, 0)
          && !isNoLimit(arg)
          && !(arg instanceof Expr.Literal literal
              && !(literal.value() instanceof Number n && n.longValue() != 0))
          && !isReadEachRound(analysis, arg)
          && !configuredFromDeadline(analysis, arg)) {
        return applied.get(j);
      }
    }
    return null;
  }

  /** Whether the method calls a setter on the argument's variable with a deadline's remainder. */
  private static boolean configuredFromDeadline(MethodAnalysis analysis, Expr arg) {
    if (!(arg instanceof Expr.Name variable) || !variable.isVariable(variable.name())) {
      return false;
    }
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Call set
          && set.receiver() instanceof Expr.Name target
          && target.isVariable(variable.name())
          && set.args().stream().anyMatch(a -> isFromDeadline(analysis, a, 0))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a callee's wait sits in a loop of the callee that goes round until a condition holds
   * ({@code while}, {@code do}, {@code for}; not a walk over items) and is not itself a retry loop.
   */
  static boolean isPollSlice(MethodAnalysis inner, Expr.Call wait) {
    LoopInfo loop = inner.innermostLoop(wait);
    return loop != null
        && !loop.isRetryLoop()
        && (loop.kind() == LoopInfo.Kind.WHILE
            || loop.kind() == LoopInfo.Kind.DO_WHILE
            || loop.kind() == LoopInfo.Kind.FOR);
  }

  /** Whether the method's own frame calls a setter named for a timeout. */
  private static boolean callsTimeoutSetter(MethodModel method) {
    for (Node n : Nodes.sameFrame(method.body())) {
      if (n instanceof Expr.Call call && TIMEOUT_SETTER.matcher(call.name()).matches()) {
        return true;
      }
    }
    return false;
  }

  /**
   * A timeout set, by a setter named for one, on an object the method creates itself ({@code
   * HttpRequest request = new HttpRequest(url); request.setSysConnectTimeout(5_000);}): every call
   * of the method builds its request with the whole timeout again. Read by the setter's name, so
   * both frontends see it whatever the request's library; the amount must not be what a deadline
   * has left, nor mean no limit.
   */
  private static boolean setsTimeoutOnNewObject(MethodAnalysis analysis, Expr.Call set) {
    if (!TIMEOUT_SETTER.matcher(set.name()).matches()
        || set.args().size() != 1
        || !isAmount(set.args().get(0))
        || isFromDeadline(analysis, set.args().get(0), 0)
        || isNoLimit(set.args().get(0))
        || !(set.receiver() instanceof Expr.Name target)
        || target.qualifier() != null
        || target.kind() != Expr.NameKind.LOCAL) {
      return false;
    }
    List<Expr> values = analysis.valuesOf(target.name());
    return !values.isEmpty() && values.stream().allMatch(v -> v instanceof Expr.New);
  }

  /** Whether the method's own frame calls a method that takes a timeout. */
  private static boolean callsTimedMethod(MethodModel method, RuleConfig config) {
    for (Node n : Nodes.sameFrame(method.body())) {
      if (n instanceof Expr.Call call && timedMethod(call, config) != null) {
        return true;
      }
    }
    return false;
  }

  /** Whether a callee's wait takes its timeout from the callee's own parameters. */
  private static boolean takesTimeoutFromParameters(
      MethodAnalysis analysis, Expr.Call wait, RuleConfig config) {
    TimedMethod method = timedMethod(wait, config);
    List<Expr> args =
        method == null || method.timeoutArg() < 0
            ? wait.args()
            : List.of(wait.args().get(method.timeoutArg()));
    for (Expr arg : args) {
      for (MethodModel.Param param : analysis.method().params()) {
        if (Nodes.mentions(arg, param.name())) {
          return true;
        }
        for (Node n : Nodes.sameFrame(arg)) {
          if (n instanceof Expr.Name local
              && local.isVariable(local.name())
              && analysis.valuesOf(local.name()).stream()
                  .anyMatch(v -> Nodes.mentions(v, param.name()))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  static boolean hasDeadlineParameter(MethodModel method) {
    for (MethodModel.Param param : method.params()) {
      if (param.type().simpleName().equals("Deadline") || isDeadlineName(param.name())) {
        return true;
      }
    }
    return false;
  }

  static boolean isFreshTimeout(MethodAnalysis analysis, Expr.Call call, RuleConfig config) {
    TimedMethod method = timedMethod(call, config);
    if (method == null) {
      return false;
    }
    List<Expr> timeoutArgs = new ArrayList<>();
    if (method.timeoutArg() >= 0) {
      timeoutArgs.add(call.args().get(method.timeoutArg()));
    } else {
      timeoutArgs.addAll(call.args());
    }
    for (Expr arg : timeoutArgs) {
      if (isFromDeadline(analysis, arg, 0) || isNoLimit(arg) || isReadEachRound(analysis, arg)) {
        return false;
      }
    }
    return !isShutdownPoll(call, timeoutArgs);
  }

  /**
   * A shutdown waited for in constant slices ({@code awaitTermination(100, MILLISECONDS)} a few
   * times before {@code shutdownNow()}): the slices are the intended total, not a caller's budget
   * spent per attempt. A timeout the caller passes in is still reported.
   */
  private static boolean isShutdownPoll(Expr.Call call, List<Expr> timeoutArgs) {
    if (!call.name().equals("awaitTermination")) {
      return false;
    }
    for (Expr arg : timeoutArgs) {
      if (!(arg instanceof Expr.Literal
          || (arg instanceof Expr.Name constant && NamePattern.isConstantName(constant.name())))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns the arguments of a call that take a timeout: the amount of a timed wait, or every
   * argument of a configured method.
   *
   * @return the arguments, empty when the call takes no timeout
   */
  static List<Expr> timeoutArguments(Expr.Call call, RuleConfig config) {
    TimedMethod method = timedMethod(call, config);
    if (method == null) {
      return List.of();
    }
    return method.timeoutArg() >= 0 ? List.of(call.args().get(method.timeoutArg())) : call.args();
  }

  private static TimedMethod timedMethod(Expr.Call call, RuleConfig config) {
    for (TimedMethod m : TIMED_METHODS) {
      if (call.args().size() == m.arity()
          && call.isCallTo(m.owner(), m.name())
          && (!m.owner().startsWith("reactor.") || isDurationOrUnknown(call.args().get(0)))) {
        return m;
      }
    }
    for (String configured : config.timeoutMethods()) {
      int hash = configured.indexOf('#');
      if (!call.args().isEmpty()
          && call.isCallTo(configured.substring(0, hash), configured.substring(hash + 1))) {
        return new TimedMethod(configured, call.name(), call.args().size(), -1, -1);
      }
    }
    // withDeadlineAfter(5, SECONDS) on a gRPC stub, CallOptions or Context: a deadline that many
    // units after now, i.e. a fresh timeout, whatever the receiver's type.
    if (call.name().equals("withDeadlineAfter")
        && call.args().size() >= 2
        && isTimeUnit(call.args().get(1))) {
      return new TimedMethod("", call.name(), call.args().size(), 0, 1);
    }
    // With types: an argument bound to a parameter whose name says timeout, of a call that waits
    // (not one that computes a deadline or a duration from it).
    List<String> names = call.method().parameterNames();
    if (names.size() == call.args().size() && !TIME_VALUE.matches(call.type().simpleName())) {
      for (int i = 0; i < names.size(); i++) {
        if (TIMEOUT_PARAMETER.matches(names.get(i)) && isAmount(call.args().get(i))) {
          int unit = i + 1 < names.size() && isTimeUnit(call.args().get(i + 1)) ? i + 1 : -1;
          return new TimedMethod(
              call.method().owner().name(), call.name(), call.args().size(), i, unit);
        }
      }
    }
    return null;
  }

  /**
   * A {@code Duration}, or an argument of a type the frontend does not know: Reactor's {@code
   * timeout(Publisher)} is a signal, not an amount of time.
   */
  private static boolean isDurationOrUnknown(Expr arg) {
    String type = arg.type().name();
    return type.isEmpty() || type.equals("java.time.Duration");
  }

  /** A number or Duration argument: not a boolean, a string, or the literal zero (no limit). */
  private static boolean isAmount(Expr arg) {
    if (arg instanceof Expr.Literal literal) {
      return literal.value() instanceof Number n && n.longValue() != 0;
    }
    String type = arg.type().name();
    return type.isEmpty()
        || type.equals("int")
        || type.equals("long")
        || type.equals("java.lang.Integer")
        || type.equals("java.lang.Long")
        || type.equals("java.time.Duration");
  }

  private static boolean isTimeUnit(Expr arg) {
    return arg.type().isSubtypeOf("java.util.concurrent.TimeUnit")
        || (arg instanceof Expr.Name name
            && name.qualifier() instanceof Expr.Name q
            && q.name().equals("TimeUnit"));
  }

  /**
   * Whether the timeout is a local computed afresh each round from something read in the loop
   * ({@code ttl = tryAcquire(..)}; {@code wait(ttl)}), or a budget the loop decrements ({@code
   * timeoutMs -= elapsed}): not a fixed per-attempt timeout, and what it means is the code's own
   * business.
   */
  private static boolean isReadEachRound(MethodAnalysis analysis, Expr arg) {
    if (!(arg instanceof Expr.Name local) || !local.isVariable(local.name())) {
      return false;
    }
    LoopInfo loop = analysis.innermostLoop(arg);
    if (loop == null || loop.isWholeMethod() || !loop.span().isKnown()) {
      return false;
    }
    for (Expr value : analysis.valuesOf(local.name())) {
      if (value.span().isKnown()
          && loop.span().contains(value.span())
          && Nodes.preOrder(value).stream().anyMatch(n -> n instanceof Expr.Call)) {
        return true;
      }
    }
    // timeoutMs -= (now - start): a budget the rounds spend, so each wait gets what is left.
    for (Node n : Nodes.sameFrame(loop.body())) {
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && target.name().equals(local.name())
          && (assign.operator().equals("-=")
              || (assign.operator().equals("=")
                  && assign.value() instanceof Expr.Binary minus
                  && minus.operator().equals("-")
                  && Nodes.mentions(minus.left(), local.name())))) {
        return true;
      }
    }
    return false;
  }

  /** {@code Long.MAX_VALUE} and the like: a wait without a limit, not a per-attempt timeout. */
  private static boolean isNoLimit(Expr expr) {
    return expr instanceof Expr.Name name && name.name().equals("MAX_VALUE");
  }

  /** Whether a timeout expression is computed from what a deadline has left. */
  static boolean isFromDeadline(MethodAnalysis analysis, Expr expr, int depth) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Call call
          && (REMAINING.matches(call.name())
              || call.name().equals("between")
              || call.name().equals("until"))) {
        return true;
      }
      if (n instanceof Expr.Binary binary
          && binary.operator().equals("-")
          && (readsClock(analysis, binary.left()) || readsClock(analysis, binary.right()))) {
        return true;
      }
      if (n instanceof Expr.Name name && name.isVariable(name.name()) && depth < 3) {
        for (Expr value : analysis.valuesOf(name.name())) {
          if (isFromDeadline(analysis, value, depth + 1)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean readsClock(MethodAnalysis analysis, Expr expr) {
    return readsClock(analysis, expr, 0);
  }

  /**
   * Whether an expression reads a clock: {@code System.nanoTime()}, {@code Instant.now()}, a
   * project's clock helper by its shape (a call without arguments whose name speaks of time: {@code
   * Time.currentElapsedTime()}, {@code time.milliseconds()}), or a local assigned from one.
   */
  private static boolean readsClock(MethodAnalysis analysis, Expr expr, int depth) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Call call
          && (CLOCK_READS.contains(call.name())
              || (call.args().isEmpty() && CLOCK_SHAPE.matches(call.name())))) {
        return true;
      }
      if (n instanceof Expr.Name name && name.isVariable(name.name()) && depth < 3) {
        for (Expr value : analysis.valuesOf(name.name())) {
          if (readsClock(analysis, value, depth + 1)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Whether a deadline is available before the loop: a parameter or local that holds one, or a
   * computation such as {@code System.nanoTime() + timeout} or {@code Deadline.after(...)}.
   */
  private static boolean hasDeadlineBefore(MethodAnalysis analysis, LoopInfo loop) {
    if (boundedByElapsedTime(analysis, loop)) {
      return true;
    }
    for (MethodModel.Param param : analysis.method().params()) {
      if (param.type().simpleName().equals("Deadline") || isDeadlineName(param.name())) {
        return true;
      }
    }
    int loopStart = loop.span().start();
    for (Node n : analysis.bodyNodes()) {
      if (!n.span().isKnown() || n.span().end() > loopStart) {
        continue;
      }
      if (n instanceof Stmt.LocalVar local
          && (isDeadlineName(local.name())
              || (local.init() != null && computesDeadline(analysis, local.init())))) {
        return true;
      }
      if (n instanceof Expr.Assign assign && computesDeadline(analysis, assign.value())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the loop stops once a time budget is spent: its condition, or a condition that leaves
   * it, compares a clock read ({@code System.currentTimeMillis() - start < timeout}) with a bound.
   */
  private static boolean boundedByElapsedTime(MethodAnalysis analysis, LoopInfo loop) {
    List<Expr> conditions = new ArrayList<>();
    if (loop.condition() != null) {
      conditions.add(loop.condition());
    }
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Stmt.If check && leaves(check.then())) {
        conditions.add(check.condition());
      }
    }
    for (Expr condition : conditions) {
      for (Node n : Nodes.sameFrame(condition)) {
        if (n instanceof Expr.Binary test
            && isComparison(test.operator())
            && (readsClock(analysis, test.left()) || readsClock(analysis, test.right()))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean leaves(Stmt stmt) {
    for (Node n : Nodes.sameFrame(stmt)) {
      if (n instanceof Stmt.Break || n instanceof Stmt.Throw || n instanceof Stmt.Return) {
        return true;
      }
    }
    return false;
  }

  private static boolean isComparison(String operator) {
    return switch (operator) {
      case "<", "<=", ">", ">=" -> true;
      default -> false;
    };
  }

  private static boolean isDeadlineName(String name) {
    return DEADLINE_NAME.matches(name);
  }

  private static boolean computesDeadline(MethodAnalysis analysis, Expr expr) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Call call) {
        if (call.receiver() instanceof Expr.Name type && type.name().equals("Deadline")) {
          return true;
        }
        if (isDeadlineName(call.name())) {
          return true;
        }
        if (call.name().startsWith("plus")
            && call.receiver() != null
            && readsClock(analysis, call.receiver())) {
          return true;
        }
      }
      if (n instanceof Expr.Binary binary
          && binary.operator().equals("+")
          && (readsClock(analysis, binary.left()) || readsClock(analysis, binary.right()))) {
        return true;
      }
    }
    return false;
  }

  static String shortText(MethodAnalysis analysis, Expr.Call call) {
    StringBuilder text = new StringBuilder(call.name()).append('(');
    for (int i = 0; i < call.args().size(); i++) {
      Expr arg = call.args().get(i);
      text.append(i == 0 ? "" : ", ")
          .append(arg.span().isKnown() ? analysis.context().text(arg.span()) : "...");
    }
    String s = text.append(')').toString();
    return s.length() > 60 ? s.substring(0, 57) + "..." : s;
  }

  /**
   * One deadline before the loop; every (amount, unit) wait with the same timeout bounded by it.
   */
  private static List<Fix> fix(MethodAnalysis analysis, LoopInfo loop, List<Expr.Call> timed) {
    String amount = null;
    String unit = null;
    List<Expr.Call> convertible = new ArrayList<>();
    for (Expr.Call call : timed) {
      TimedMethod method = timedMethod(call, RuleConfig.DEFAULT);
      if (method == null || method.unitArg() < 0) {
        return List.of(); // a Duration or int-millis timeout: zero would mean "none" or be refused
      }
      Expr a = call.args().get(method.timeoutArg());
      Expr u = call.args().get(method.unitArg());
      if (!a.span().isKnown() || !u.span().isKnown() || !hoistable(analysis, loop, a, u)) {
        return List.of();
      }
      String aText = analysis.context().text(a.span());
      String uText = analysis.context().text(u.span());
      if (amount == null) {
        amount = aText;
        unit = uText;
      } else if (!amount.equals(aText) || !unit.equals(uText)) {
        return List.of(); // different timeouts: the right total is the author's call
      }
      convertible.add(call);
    }
    Stmt statement = loop.statement();
    if (statement == null || !statement.span().isKnown()) {
      return List.of();
    }
    String source = analysis.context().source();
    int lineStart = source.lastIndexOf('\n', statement.span().start() - 1) + 1;
    String before = source.substring(lineStart, statement.span().start());
    if (!before.isBlank() && !before.strip().matches("[A-Za-z_$][\\w$]*\\s*:")) {
      return List.of();
    }
    String indent = Source.indentAt(source, statement.span().start());
    boolean runtime = analysis.context().hasType(DEADLINE_TYPE);
    Set<String> imports = new LinkedHashSet<>();
    imports.add("java.util.concurrent.TimeUnit");
    String declaration;
    String remaining;
    if (runtime) {
      String name = analysis.freshLocalName("deadline");
      declaration =
          "Deadline " + name + " = Deadline.after(" + duration(amount, unit, imports) + ");";
      remaining = name + ".remainingNanos(), TimeUnit.NANOSECONDS";
      imports.add(DEADLINE_TYPE);
    } else {
      String name = analysis.freshLocalName("deadlineNanos");
      declaration = "long " + name + " = System.nanoTime() + " + unit + ".toNanos(" + amount + ");";
      remaining = "Math.max(0L, " + name + " - System.nanoTime()), TimeUnit.NANOSECONDS";
    }
    List<Edit> edits = new ArrayList<>();
    edits.add(Edit.insert(lineStart, indent + declaration + "\n"));
    for (Expr.Call call : convertible) {
      TimedMethod method = timedMethod(call, RuleConfig.DEFAULT);
      Expr a = call.args().get(method.timeoutArg());
      Expr u = call.args().get(method.unitArg());
      // Within 100 columns where possible: else the arguments move to a continuation line.
      edits.add(
          Source.fitting(
              source, a.span().start(), u.span().end(), List.of(remaining, "\n" + remaining)));
    }
    return List.of(
        new Fix(
            runtime
                ? "Compute one Deadline before the loop; wait for what it has left"
                : "Compute one deadline (System.nanoTime) before the loop; wait for what it has left",
            edits,
            imports));
  }

  private static String duration(String amount, String unit, Set<String> imports) {
    imports.add("java.time.Duration");
    String constant = unit.startsWith("TimeUnit.") ? unit.substring("TimeUnit.".length()) : unit;
    String factory = DURATION_FACTORIES.get(constant);
    if (factory != null) {
      return "Duration." + factory + "(" + amount + ")";
    }
    return "Duration.of(" + amount + ", " + unit + ".toChronoUnit())";
  }

  /** Whether the timeout's expressions mean the same before the loop as inside it. */
  private static boolean hoistable(MethodAnalysis analysis, LoopInfo loop, Expr... exprs) {
    for (Expr expr : exprs) {
      for (Node n : Nodes.preOrder(expr)) {
        if (n instanceof Expr.Name name
            && name.qualifier() == null
            && name.isVariable(name.name())) {
          if (name.kind() == Expr.NameKind.PARAMETER && !assignedIn(loop, name.name())) {
            continue;
          }
          if (!declaredBefore(analysis, loop, name.name()) || assignedIn(loop, name.name())) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static boolean declaredBefore(MethodAnalysis analysis, LoopInfo loop, String variable) {
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Stmt.LocalVar local
          && local.name().equals(variable)
          && local.span().isKnown()
          && local.span().end() <= loop.span().start()) {
        return true;
      }
    }
    return false;
  }

  private static boolean assignedIn(LoopInfo loop, String variable) {
    return assignedIn(loop.node(), variable);
  }

  private static boolean assignedIn(Node root, String variable) {
    for (Node n : Nodes.preOrder(root)) {
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && target.isVariable(variable)) {
        return true;
      }
      if (n instanceof Expr.Unary unary
          && unary.operand() instanceof Expr.Name target
          && target.isVariable(variable)
          && (unary.operator().equals("++") || unary.operator().equals("--"))) {
        return true;
      }
    }
    return false;
  }
}
