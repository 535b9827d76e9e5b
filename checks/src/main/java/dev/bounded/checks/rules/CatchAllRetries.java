package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.analysis.UnitFacts;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Finds retrying catch clauses of broad types that do not classify the failure: what the two
 * unclassified-retry rules share.
 */
final class CatchAllRetries {
  /** Names of calls that decide whether a failure is worth retrying. */
  private static final NamePattern CLASSIFIER =
      NamePattern.containing(
          "(?i).*(retr|rethrow|transient|recoverable|classif|fatal|should|throwif|propagateif).*",
          "retr",
          "rethrow",
          "transient",
          "recoverable",
          "classif",
          "fatal",
          "should",
          "throwif",
          "propagateif");

  /** Calls that hand a failure to a retry engine's policy (besides the propagating calls). */
  private static final NamePattern DELEGATE =
      NamePattern.startingWith("on\\w*Error|register\\w*", "on", "register");

  private CatchAllRetries() {}

  /**
   * A clause that retries every failure of a broad type.
   *
   * @param clause the clause
   * @param loop the retry or background loop it goes round, or {@code null} when the clause
   *     schedules the work to run again later instead
   * @param typeIndex which of its types is the broad one
   */
  record Match(Stmt.Catch clause, LoopInfo loop, int typeIndex) {
    Span typeSpan() {
      return clause.typeSpans().get(typeIndex);
    }

    String typeName() {
      return clause.types().get(typeIndex).name();
    }

    /**
     * Whether the loop belongs to a caller: the clause is in an attempt helper that the loop
     * repeats ({@link MethodAnalysis#callerLoopsRetrying}).
     */
    @SuppressWarnings("ReferenceEquality") // loops are compared by identity
    boolean inCaller(MethodAnalysis analysis) {
      return loop != null && analysis.loops().stream().noneMatch(l -> l == loop);
    }
  }

  /**
   * Returns the retrying clauses in retry loops that catch one of {@code broadTypes} and do not
   * look at what they caught. A clause is not reported when an earlier clause of the same try
   * already catches {@code witness}, the kind of failure that should not be retried.
   */
  static List<Match> find(MethodAnalysis analysis, Set<String> broadTypes, String witness) {
    return find(analysis, type -> broadTypes.contains(type.name()), witness, false);
  }

  /**
   * Like {@link #find(MethodAnalysis, Set, String)}, with the broad types given by a test, and with
   * {@code background} also in background loops that retry ({@link LoopInfo#isBackgroundRetry()}).
   */
  static List<Match> find(
      MethodAnalysis analysis, Predicate<TypeRef> broad, String witness, boolean background) {
    List<Match> matches = new ArrayList<>();
    for (Stmt.Catch clause : analysis.catches()) {
      int index = broadTypeIndex(clause, broad);
      if (index < 0) {
        continue;
      }
      LoopInfo loop = analysis.loopOf(clause);
      boolean inLoop =
          loop != null
              && retries(loop, background)
              && analysis.goesRoundAgain(clause, loop)
              // Clean-up inside another handler (try { transport.stop(); } catch (Exception
              // ignored) {}): the handler around it decides the retry, not this clause.
              && !analysis.isInCatchBody(analysis.tryOf(clause), loop.node());
      // An attempt helper's clause: a loop of another method repeats this one after it.
      LoopInfo callerLoop = null;
      if (loop == null && !schedulesRetry(clause)) {
        for (LoopInfo candidate : analysis.callerLoopsRetrying(clause)) {
          if (retries(candidate, background) && !stopsLoop(analysis, clause, candidate)) {
            callerLoop = candidate;
            break;
          }
        }
      }
      if (!(inLoop || callerLoop != null || schedulesRetry(clause))
          || onlyWaits(analysis.tryOf(clause))
          || classifies(analysis, clause)
          || earlierClauseTakes(analysis, clause, witness)) {
        continue;
      }
      matches.add(new Match(clause, inLoop ? loop : callerLoop, index));
    }
    return matches;
  }

  /**
   * Whether a helper's clause stops the caller's loop rather than letting it go round: it writes a
   * field the loop's stop check reads, itself or through a method of the unit one call deep ({@code
   * catch (Exception e) { setExitStatus(new Event(STOPPED_BY_ERROR, e)); }} with {@code while
   * (!isDone())} and {@code isDone()} reading {@code exitEvent}, which {@code setExitStatus} sets).
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  private static boolean stopsLoop(MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    if (loop.condition() == null) {
      return false;
    }
    UnitIndex unit = analysis.context().unit();
    Set<String> read = new HashSet<>();
    for (Node n : Nodes.sameFrame(loop.condition())) {
      if (n instanceof Expr.Name name && name.kind() == Expr.NameKind.FIELD) {
        read.add(name.name());
      } else if (n instanceof Expr.Call call && call.args().isEmpty() && call.receiver() == null) {
        MethodModel check = unit.declarationOf(call);
        if (check == null || check.body() == null) {
          continue;
        }
        for (Node m : Nodes.preOrder(check.body())) {
          if (m instanceof Expr.Name name && name.kind() == Expr.NameKind.FIELD) {
            read.add(name.name());
          }
        }
      }
    }
    if (read.isEmpty()) {
      return false;
    }
    if (writesAny(clause.body(), read)) {
      return true;
    }
    for (Expr.Call call : Nodes.calls(clause.body())) {
      MethodModel callee = call.receiver() == null ? unit.declarationOf(call) : null;
      if (callee != null
          && callee != analysis.method()
          && callee.body() != null
          && writesAny(callee.body(), read)) {
        return true;
      }
    }
    return false;
  }

  /** Whether code writes one of the fields ({@code exitEvent.set(event)}, {@code done = true}). */
  private static boolean writesAny(Node code, Set<String> fields) {
    for (Node n : Nodes.preOrder(code)) {
      String written = UnitFacts.writtenField(n);
      if (written != null && fields.contains(written)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a loop retries what its clauses catch: a retry loop, or with {@code background} a loop
   * only a stop ends; a worker that takes the next item after a failure retries nothing.
   */
  private static boolean retries(LoopInfo loop, boolean background) {
    return loop.isRetryLoop()
        || (background
            && loop.endsOnlyWhenStopped()
            && !loop.evidence().contains(LoopInfo.Evidence.TAKES_ITEMS));
  }

  /**
   * Whether the try block only waits ({@code try { Thread.sleep(interval); } catch (Throwable t)
   * {}}, also under a test such as {@code if (!toStop)}): the clause guards the pause between
   * rounds, not an attempt, so it retries nothing.
   */
  private static boolean onlyWaits(Stmt.Try t) {
    List<Expr.Call> calls = Nodes.calls(t.body());
    if (calls.isEmpty() || !t.resources().isEmpty()) {
      return false;
    }
    for (Expr.Call call : calls) {
      if (!CallNames.SLEEPS.contains(call.name())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the handler hands the work to a scheduler to run again after a delay ({@code
   * timer.schedule(nextAttempt, retryDelay)}, {@code executor.schedule(this::connect, 5, SECONDS)},
   * {@code reconnectLater(t)}): a retry not written as a loop ({@link DelayedRetries}).
   */
  private static boolean schedulesRetry(Stmt.Catch clause) {
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Expr.Call call && runsAgainLater(call)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the retries of failure callbacks that take every {@code Throwable} and do not look at
   * it: the first call that runs the work again ({@link #runsAgainLater}, a call of the method
   * itself; not an {@code offer}/{@code add}, which in a callback hands the failure on) in a
   * failure handler taking a {@code Throwable} ({@code onException(Throwable e)}), in the body of
   * {@code exceptionally(e -> ..)}, or on the failure branch of {@code whenComplete((r, e) -> ..)},
   * unless a test of what failed decides it (the call sits in a branch of an {@code if} on the
   * failure's type or a predicate of it, and the other branch does not retry).
   */
  static List<Expr.Call> unclassifiedCallbackRetries(MethodAnalysis analysis) {
    List<Expr.Call> found = new ArrayList<>();
    MethodModel method = analysis.method();
    if (DelayedRetries.isFailureHandler(method)) {
      for (MethodModel.Param param : method.params()) {
        if (isThrowable(param.type())) {
          Expr.Call retry = firstRetry(analysis, method.body(), param.name());
          if (retry != null) {
            found.add(retry);
          }
        }
      }
    } else if (method.body() != null) {
      // A completion handler by its shape: handleStreamComplete(Throwable error) { .. if (error !=
      // null) executor.schedule(() -> open(command), delay, MILLISECONDS); }
      String failure = UnboundedLoops.failureParameter(analysis);
      for (MethodModel.Param param : method.params()) {
        if (param.name().equals(failure) && isThrowable(param.type())) {
          Expr.Call retry = firstRetry(analysis, method.body(), failure);
          if (retry != null
              && DelayedRetries.delayed(retry) != null
              && !analysis.isInCatchBody(retry, null)
              && UnboundedLoops.onFailurePathOf(analysis, retry, failure)) {
            found.add(retry);
          }
        }
      }
    }
    for (Node n : Nodes.preOrder(method.body())) {
      if (!(n instanceof Expr.Call callback)
          || callback.args().isEmpty()
          || !(callback.args().get(0) instanceof Expr.Lambda lambda)) {
        continue;
      }
      int index =
          CallNames.FAILURE_CALLBACKS.contains(callback.name())
              ? 0
              : CallNames.COMPLETION_CALLBACKS.contains(callback.name()) ? 1 : -1;
      if (index < 0 || lambda.params().size() <= index) {
        continue;
      }
      Expr.Call retry = firstRetry(analysis, lambda.body(), lambda.params().get(index));
      if (retry != null
          && (index == 0
              || DelayedRetries.onFailureBranch(
                  analysis, retry, lambda, lambda.params().get(index)))) {
        found.add(retry);
      }
    }
    return found;
  }

  private static boolean isThrowable(TypeRef type) {
    return type.name().equals("java.lang.Throwable") || type.simpleName().equals("Throwable");
  }

  /**
   * The first call under {@code root} that runs the work again without {@code failure} deciding.
   */
  private static Expr.Call firstRetry(MethodAnalysis analysis, Node root, String failure) {
    if (guardedByClassifier(analysis, root, failure)) {
      return null;
    }
    for (Node n : Nodes.sameFrame(root)) {
      if (n instanceof Expr.Call call
          && (runsAgainLater(call) || analysis.isSelfCall(call))
          && !decidedByFailure(analysis, call, root, failure)) {
        return call;
      }
    }
    return null;
  }

  /**
   * Whether a test of what failed decides the retry: the call is in the then-branch of an {@code
   * if} whose condition tests the failure's type or hands it to a predicate ({@code e instanceof
   * TimeoutException}, {@code isRetriable(e)}; a null test only says that it failed), and the other
   * branch does not retry too.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean decidedByFailure(
      MethodAnalysis analysis, Node call, Node root, String failure) {
    Node child = call;
    for (Node p = analysis.parent(call); p != null && child != root; p = analysis.parent(p)) {
      if (p instanceof Stmt.If check
          && check.then() == child
          && testsWhatFailed(analysis, check.condition(), failure)
          && !retriesUnclassified(analysis, check.otherwise(), failure)) {
        return true;
      }
      child = p;
    }
    return false;
  }

  /**
   * Whether the other branch of a test of what failed runs the work again for a failure no test
   * chose: it retries, unless it is the next link of an else-if chain on the failure ({@code else
   * if (t instanceof TimeoutException) retry(); else fail(t);}) whose last branch does not retry.
   */
  private static boolean retriesUnclassified(
      MethodAnalysis analysis, Stmt otherwise, String failure) {
    Stmt next = otherwise;
    if (next instanceof Stmt.Block block && block.statements().size() == 1) {
      next = block.statements().get(0);
    }
    if (next instanceof Stmt.If link && testsWhatFailed(analysis, link.condition(), failure)) {
      return retriesUnclassified(analysis, link.otherwise(), failure);
    }
    return otherwise != null
        && Nodes.calls(otherwise).stream().anyMatch(CatchAllRetries::runsAgainLater);
  }

  /**
   * Whether the callback leaves early when a classifier says the failure is not worth retrying: an
   * {@code if} that returns or throws, on a condition that calls a classifier with the failure
   * ({@code !isRetriableError(e.getCause())}), directly or through a local computed so. A test of
   * one type ({@code e instanceof AlreadyClosedException}) still retries every other {@code
   * Throwable}.
   */
  private static boolean guardedByClassifier(MethodAnalysis analysis, Node root, String failure) {
    for (Node n : Nodes.sameFrame(root)) {
      if (n instanceof Stmt.If check
          && !Flow.canCompleteNormally(check.then())
          && callsClassifier(analysis, check.condition(), failure)) {
        return true;
      }
    }
    return false;
  }

  private static boolean callsClassifier(MethodAnalysis analysis, Expr condition, String failure) {
    if (callsClassifier(condition, failure)) {
      return true;
    }
    for (Node n : Nodes.preOrder(condition)) {
      if (n instanceof Expr.Name local && local.kind() == Expr.NameKind.LOCAL) {
        for (Expr value : analysis.valuesOf(local.name())) {
          if (callsClassifier(value, failure)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean callsClassifier(Expr expr, String failure) {
    for (Node n : Nodes.preOrder(expr)) {
      if (n instanceof Expr.Call call
          && CLASSIFIER.matches(call.name())
          && call.args().stream().anyMatch(a -> Nodes.mentions(a, failure))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the condition tests what failed: the failure's type or a predicate of it, directly or
   * through a local computed from it ({@code toRetry = connection.connectionFailed(e)}).
   */
  private static boolean testsWhatFailed(MethodAnalysis analysis, Expr condition, String failure) {
    if (testsWhatFailed(condition, failure)) {
      return true;
    }
    for (Node n : Nodes.preOrder(condition)) {
      if (n instanceof Expr.Name local && local.kind() == Expr.NameKind.LOCAL) {
        for (Expr value : analysis.valuesOf(local.name())) {
          if (testsWhatFailed(value, failure)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean testsWhatFailed(Expr condition, String failure) {
    for (Node n : Nodes.preOrder(condition)) {
      if (n instanceof Expr.InstanceOf test && Nodes.mentions(test.expr(), failure)) {
        return true;
      }
      if (n instanceof Expr.Call call
          && ((call.receiver() != null && Nodes.mentions(call.receiver(), failure))
              || call.args().stream().anyMatch(a -> Nodes.mentions(a, failure)))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a call on a failure path hands the work back to run again: a delayed scheduling ({@code
   * timer.schedule(task, delay)}), a call named for it ({@code reconnectLater(t)}, {@code
   * executePullRequestLater(request, delay)}, {@code retryFailedTask(task)}).
   */
  static boolean runsAgainLater(Expr.Call call) {
    return DelayedRetries.delayed(call) != null
        || CallNames.isDelayedSchedule(call.name())
        || CallNames.isResubmission(call.name());
  }

  private static int broadTypeIndex(Stmt.Catch clause, Predicate<TypeRef> broad) {
    for (int i = 0; i < clause.types().size(); i++) {
      if (broad.test(clause.types().get(i))) {
        return i;
      }
    }
    return -1;
  }

  /** Whether an earlier clause of the same try takes {@code witness} before this one can. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean earlierClauseTakes(
      MethodAnalysis analysis, Stmt.Catch clause, String witness) {
    for (Stmt.Catch earlier : analysis.tryOf(clause).catches()) {
      if (earlier == clause) {
        return false;
      }
      if (earlier.catches(witness)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the handler looks at the failure before retrying: an {@code instanceof} on it, a
   * condition that reads it, or a classifier call such as {@code isRetryable(e)}.
   */
  static boolean classifies(MethodAnalysis analysis, Stmt.Catch clause) {
    String e = clause.parameter();
    boolean catchesErrors = clause.types().stream().anyMatch(CatchAllRetries::isErrorOrAbove);
    boolean handedOn = false;
    String storedIn = null;
    // By identity: model nodes are records, whose equals and hashCode walk the whole subtree.
    Set<Node> testedInIf = Collections.newSetFromMap(new IdentityHashMap<>());
    // The failure under another name: E exception = (E) e; if (!retry.apply(exception)) throw e;
    Set<String> names = new HashSet<>();
    names.add(e);
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Stmt.LocalVar alias
          && alias.init() instanceof Expr.Name value
          && value.isVariable(e)) {
        names.add(alias.name());
      }
      // The failure unwrapped: Throwable cause = FutureUtil.unwrapCompletionException(e).
      if (n instanceof Stmt.LocalVar alias
          && alias.init() instanceof Expr.Call unwrap
          && UNWRAPS.matcher(unwrap.name()).matches()
          && (unwrap.args().stream().anyMatch(a -> Interrupts.isVariable(a, e))
              || (unwrap.receiver() != null && Interrupts.isVariable(unwrap.receiver(), e)))) {
        names.add(alias.name());
      }
    }
    boolean testedElsewhere = testsFailureBeforeGivingUp(analysis, clause, names);
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (!testedElsewhere && onGiveUpPath(analysis, n, clause.body())) {
        // if (attempt < retries) { sleep(); } else if (e instanceof VaultException) throw ..:
        // once the handler has given up, a test of the failure only picks what to throw.
        continue;
      }
      if (n instanceof Stmt.If check && onlyPermissiveTests(analysis, check.condition(), names)) {
        // if (isRetryableException(e) && ..) retry: a classifier that refuses a few named types
        // and retries every other failure sorts out nothing the rules care about.
        testedInIf.addAll(Nodes.sameFrame(check.condition()));
        continue;
      }
      if (n instanceof Stmt.If check && mentionsAny(check.condition(), names)) {
        // Classification only if some kinds of failure leave: a branch that goes round for every
        // other failure as well does not classify. A clause that catches Errors classifies only
        // if an Error can take the branch that leaves: `if (t instanceof IOException) break;`
        // lets I/O failures leave and sends every Error round again.
        Truth error = catchesErrors ? errorTakes(analysis, check.condition(), e) : Truth.UNKNOWN;
        if ((leavesOrHandsOn(check.then(), e) && error != Truth.NO)
            || (check.otherwise() != null
                && leavesOrHandsOn(check.otherwise(), e)
                && error != Truth.YES)) {
          return true;
        }
        testedInIf.addAll(Nodes.sameFrame(check.condition()));
      }
      if (n instanceof Expr.InstanceOf test
          && Nodes.mentions(test.expr(), e)
          && !testedInIf.contains(test)) {
        return true;
      }
      if (n instanceof Stmt.Switch choice && Nodes.mentions(choice.selector(), e)) {
        return true;
      }
      if (n instanceof Expr.Call call
          && call.args().stream().anyMatch(a -> Nodes.mentions(a, e))
          && !testedInIf.contains(call)) {
        if ((CLASSIFIER.matches(call.name()) && !returnsAValue(call))
            || DELEGATE.matches(call.name())
            || Interrupts.isPropagatingCall(call.name())) {
          return true; // a classifier, or a policy that rethrows what it will not retry
        }
        if (!call.method().thrown().isEmpty()) {
          return true; // handed to code that may rethrow it: the policy decides
        }
        handedOn = true;
      }
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name local
          && local.isVariable(local.name())
          && Nodes.mentions(assign.value(), e)) {
        storedIn = local.name();
      }
    }
    // Handed to a policy, then a conditional exit asks it: registerThrowable(e); if
    // (shouldRethrow())
    if (handedOn && hasClassifiedExit(analysis, clause.body())) {
      return true;
    }
    // Stored, then judged after the try: attempt = new Attempt(e); ... if
    // (stop.shouldStop(attempt))
    return storedIn != null && judgedAfterTry(analysis, clause, storedIn);
  }

  /** Calls that give the failure's own cause: the caught wrapper unwrapped. */
  private static final java.util.regex.Pattern UNWRAPS =
      java.util.regex.Pattern.compile("(?i)\\w*unwrap\\w*|getCause|getRootCause|rootCause");

  /**
   * Failures a classifier that names them does sort out: programming errors, errors, cancellation
   * and interruption, or a type above them. A classifier that refuses one of them classifies.
   */
  private static final Set<String> SORTED_OUT =
      Set.of(
          "Throwable",
          "Exception",
          "RuntimeException",
          "Error",
          "VirtualMachineError",
          "NullPointerException",
          "IllegalArgumentException",
          "IllegalStateException",
          "ClassCastException",
          "UnsupportedOperationException",
          "CancellationException",
          "InterruptedException",
          "InterruptedIOException");

  /**
   * Whether a condition reads the failure only through calls to permissive classifiers ({@link
   * #isPermissiveClassifier}), and reads it at least once.
   */
  private static boolean onlyPermissiveTests(
      MethodAnalysis analysis, Expr condition, Set<String> names) {
    boolean tested = false;
    Set<Node> inCalls = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Call call
          && call.args().stream().anyMatch(a -> mentionsAny(a, names))) {
        if (!isPermissiveClassifier(analysis, call)) {
          return false;
        }
        tested = true;
        for (Expr arg : call.args()) {
          inCalls.addAll(Nodes.sameFrame(arg));
        }
      }
    }
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Name name && names.contains(name.name()) && !inCalls.contains(n)) {
        return false; // read directly as well: e instanceof .., e.getCause() ..
      }
    }
    return tested;
  }

  /**
   * Whether a call goes to a classifier whose source is seen and that answers {@code true} for
   * every failure but a few named ones: its last statement is {@code return true}, and every other
   * return is a {@code return false} under an {@code instanceof} test of types other than {@link
   * #SORTED_OUT} ({@code if (e instanceof ContentTooLongException) return false; return true;}).
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean isPermissiveClassifier(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null
        || callee.body() == null
        || callee.body().statements().isEmpty()
        || !(callee.body().statements().get(callee.body().statements().size() - 1)
            instanceof Stmt.Return last)
        || !isBoolean(last.value(), true)) {
      return false;
    }
    boolean refuses = false;
    for (Node n : Nodes.sameFrame(callee.body())) {
      if (n instanceof Expr.InstanceOf test && SORTED_OUT.contains(test.tested().simpleName())) {
        return false;
      }
      if (n instanceof Stmt.Return returned && returned != last) {
        if (!isBoolean(returned.value(), false)) {
          return false;
        }
        refuses = true;
      }
      if (n instanceof Stmt.Switch || n instanceof Expr.Lambda) {
        return false;
      }
    }
    return refuses;
  }

  private static boolean isBoolean(Expr value, boolean expected) {
    return value instanceof Expr.Literal literal
        && Boolean.valueOf(expected).equals(literal.value());
  }

  /**
   * Whether an {@code if} of the handler, outside the branches that give up, tests the failure or a
   * local computed from it ({@code rootCause = getRootCause(exc); wasCommError =
   * wasCommError(rootCause); if (wasCommError || ..)}): then the handler looks at what failed
   * before it retries, and a type test where it gives up still counts.
   */
  private static boolean testsFailureBeforeGivingUp(
      MethodAnalysis analysis, Stmt.Catch clause, Set<String> names) {
    Set<String> derived = new HashSet<>(names);
    for (int round = 0; round < 2; round++) {
      for (Node n : Nodes.sameFrame(clause.body())) {
        if (n instanceof Stmt.LocalVar local
            && local.init() != null
            && mentionsAny(local.init(), derived)) {
          derived.add(local.name());
        }
      }
    }
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Stmt.If check
          && !onGiveUpPath(analysis, check, clause.body())
          && mentionsAny(check.condition(), derived)
          && !Flow.leaves(check.then())
          && (check.otherwise() == null || !Flow.leaves(check.otherwise()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the node sits in a branch of an {@code if} of the handler that leaves on every path:
   * what runs there has already given up the retry.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean onGiveUpPath(MethodAnalysis analysis, Node node, Stmt body) {
    Node child = node;
    for (Node p = analysis.parent(node); p != null && child != body; p = analysis.parent(p)) {
      if (p instanceof Stmt.If check
          && (check.then() == child || check.otherwise() == child)
          && Flow.leaves((Stmt) child)) {
        return true;
      }
      child = p;
    }
    return false;
  }

  private static boolean mentionsAny(Expr expr, Set<String> names) {
    for (String name : names) {
      if (Nodes.mentions(expr, name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a branch leaves, or hands the failure on to whoever waits for the outcome ({@code
   * result.completeWithError(e)}, {@code future.completeExceptionally(e)}) and does not run the
   * work again.
   */
  private static boolean leavesOrHandsOn(Stmt branch, String e) {
    if (Flow.leaves(branch)) {
      return true;
    }
    boolean handsOn = false;
    for (Node n : Nodes.sameFrame(branch)) {
      if (n instanceof Expr.Call call) {
        if (runsAgainLater(call)) {
          return false;
        }
        handsOn |=
            Interrupts.isPropagatingCall(call.name())
                && call.args().stream().anyMatch(a -> Nodes.mentions(a, e));
      }
    }
    return handsOn;
  }

  /** Three-valued: whether every, no or some failures of a kind make a condition true. */
  private enum Truth {
    YES,
    NO,
    UNKNOWN;

    Truth not() {
      return this == YES ? NO : this == NO ? YES : UNKNOWN;
    }
  }

  private static boolean isErrorOrAbove(TypeRef type) {
    String name = type.simpleName();
    return name.equals("Throwable") || name.equals("Error");
  }

  /**
   * Whether an {@code Error} caught as {@code e} makes {@code condition} true: {@code e instanceof
   * IOException} is false for every Error, {@code e instanceof Error} true, a call or a test of an
   * Error subtype unknown. Exception types are told by their names (an Error's ends in {@code
   * Error}), so both frontends answer alike without a class path.
   */
  private static Truth errorTakes(MethodAnalysis analysis, Expr condition, String e) {
    if (condition instanceof Expr.InstanceOf test
        && test.expr() instanceof Expr.Name name
        && name.name().equals(e)) {
      String tested = testedName(analysis, test);
      if (tested.equals("Throwable") || tested.equals("Error")) {
        return Truth.YES;
      }
      return tested.endsWith("Exception") ? Truth.NO : Truth.UNKNOWN;
    }
    if (condition instanceof Expr.Unary not && not.operator().equals("!")) {
      return errorTakes(analysis, not.operand(), e).not();
    }
    if (condition instanceof Expr.Binary both
        && (both.operator().equals("&&") || both.operator().equals("||"))) {
      Truth left = errorTakes(analysis, both.left(), e);
      Truth right = errorTakes(analysis, both.right(), e);
      boolean and = both.operator().equals("&&");
      Truth dominant = and ? Truth.NO : Truth.YES;
      if (left == dominant || right == dominant) {
        return dominant;
      }
      return left == Truth.UNKNOWN || right == Truth.UNKNOWN ? Truth.UNKNOWN : dominant.not();
    }
    return Truth.UNKNOWN;
  }

  /**
   * The simple name of the type an {@code instanceof} tests: from its type where known, else as
   * written (a type neither on the class path nor in the scanned files).
   */
  private static String testedName(MethodAnalysis analysis, Expr.InstanceOf test) {
    if (test.tested().isKnown() || !test.span().isKnown()) {
      return test.tested().simpleName();
    }
    String text = analysis.context().text(test.span());
    int keyword = text.lastIndexOf("instanceof");
    if (keyword < 0) {
      return "";
    }
    String written = text.substring(keyword + "instanceof".length()).strip();
    int end = 0;
    while (end < written.length()
        && (Character.isJavaIdentifierPart(written.charAt(end)) || written.charAt(end) == '.')) {
      end++;
    }
    written = written.substring(0, end);
    return written.substring(written.lastIndexOf('.') + 1);
  }

  /**
   * A call named like a classifier that turns the failure into a value other than a decision
   * ({@code failure = createOrPassthroughFatal(e)}, a wrapped exception): it looks at nothing the
   * loop acts on. A boolean, a void call (which may throw) or an unknown type still classifies.
   */
  private static boolean returnsAValue(Expr.Call call) {
    if (!call.type().isKnown()) {
      return false;
    }
    String type = call.type().name();
    return !type.equals("boolean") && !type.equals("java.lang.Boolean") && !type.equals("void");
  }

  private static boolean hasClassifiedExit(MethodAnalysis analysis, Stmt body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Stmt.If check && !Flow.canCompleteNormally(check.then())) {
        for (Expr.Call call : Nodes.calls(check.condition())) {
          if (CLASSIFIER.matches(call.name()) && !isPermissiveClassifier(analysis, call)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean judgedAfterTry(MethodAnalysis analysis, Stmt.Catch clause, String local) {
    Stmt.Try t = analysis.tryOf(clause);
    if (!(analysis.parent(t) instanceof Stmt.Block block)) {
      return false;
    }
    boolean after = false;
    for (Stmt s : block.statements()) {
      if (after) {
        for (Expr.Call call : Nodes.calls(s)) {
          boolean judge =
              CLASSIFIER.matches(call.name())
                  || call.name().equals("apply")
                  || call.name().equals("test");
          if (judge && call.args().stream().anyMatch(a -> Nodes.mentions(a, local))) {
            return true;
          }
        }
      }
      after |= s == t;
    }
    return false;
  }
}
