package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Finds retry loops that nothing bounds: no attempt cap, no deadline, no policy that decides. What
 * {@link UnboundedRetryRule} and {@link UnboundedBackgroundRetryRule} share: the first reports the
 * loops that only success ends, the second those that a stop flag ends too.
 */
final class UnboundedLoops {
  /** Calls whose names say they bound a retry: by time, by count, or by a policy's decision. */
  private static final NamePattern BOUND_CALL =
      NamePattern.containing(
          "(?i).*(expire|deadline|timeout|timedout|elapsed|remaining|exhaust|giveup|canretry"
              + "|shouldretry|allowretry|retryallowed|maxretr|maxattempt|shouldstop|budget"
              + "|tryacquire|nanotime|currenttimemillis|attempt|retries|limit).*",
          "expire",
          "deadline",
          "timeout",
          "timedout",
          "elapsed",
          "remaining",
          "exhaust",
          "giveup",
          "retr",
          "shouldstop",
          "budget",
          "tryacquire",
          "nanotime",
          "currenttimemillis",
          "attempt",
          "limit");

  /** Calls whose names say a component is still running: a stop flag. */
  private static final NamePattern STOP_CALL =
      NamePattern.containing(
          "(?i)(is)?(running|closed|closing|stopped|stopping|shutdown|shuttingdown|active|open"
              + "|alive|started|terminated|cancelled|canceled|interrupted)",
          "running",
          "closed",
          "closing",
          "stopped",
          "stopping",
          "shutdown",
          "shuttingdown",
          "active",
          "open",
          "alive",
          "started",
          "terminated",
          "cancelled",
          "canceled",
          "interrupted");

  /** Names of the hooks through which a retry engine's policy judges a failure. */
  private static final NamePattern POLICY_HOOK =
      NamePattern.startingWith(
          "on\\w*(Error|Failure|Exception|Throwable)|register\\w*|handle\\w*"
              + "|record\\w*(Error|Failure|Exception)|(re)?throw\\w*|propagate\\w*",
          "on",
          "register",
          "handle",
          "record",
          "rethrow",
          "throw",
          "propagate");

  /** How a loop without a cap ends. */
  enum Ending {
    /** Only success (or a failure the loop does not retry) ends it. */
    SUCCESS_ONLY,
    /** A stop flag, a closed check or interruption ends it too: a background loop. */
    STOP_FLAG
  }

  /** An unbounded retry loop and how it ends. */
  record Unbounded(LoopInfo loop, Ending ending) {}

  /**
   * A resubmission after a failure that nothing caps: the call that schedules the work again (or
   * calls the helper that does), and how the retries end.
   */
  record Resubmission(Expr.Call call, Ending ending, boolean inHandler) {}

  /**
   * Checks of a value or a configuration, not a policy's decision to give up: {@code if
   * (servers.isEmpty()) throw ..} ends the loop only when there is nothing to retry against.
   */
  private static final NamePattern CONFIGURATION_CHECK =
      NamePattern.startingWith(
          "isEmpty|isNull|nonNull|isBlank|isPresent|contains\\w*|equals\\w*",
          "is",
          "nonnull",
          "contains",
          "equals");

  /** Names of calls by which a policy computes the next delay. */
  private static final NamePattern POLICY_DELAY =
      NamePattern.containing(
          "(?i).*(next|backoff|policy|compute|delayfor).*",
          "next",
          "backoff",
          "policy",
          "compute",
          "delayfor");

  private UnboundedLoops() {}

  /** Returns the method's retry loops that nothing bounds, in source order. */
  static List<Unbounded> find(MethodAnalysis analysis) {
    List<Unbounded> found = new ArrayList<>();
    for (LoopInfo loop : analysis.loops()) {
      if (!isCandidate(analysis, loop)) {
        continue;
      }
      Ending ending = ending(analysis, loop);
      if (ending != null) {
        found.add(new Unbounded(loop, ending));
      }
    }
    return found;
  }

  /**
   * Returns the loops that wait again after every timeout, with nothing else to end them: {@code
   * while (!pool.awaitTermination(10, SECONDS)) {}}. A timed wait repeated without a cap is an
   * untimed wait: the caller's own timeout means nothing.
   */
  static List<LoopInfo> reWaits(MethodAnalysis analysis) {
    List<LoopInfo> found = new ArrayList<>();
    for (LoopInfo loop : analysis.loops()) {
      if ((loop.kind() == LoopInfo.Kind.WHILE || loop.kind() == LoopInfo.Kind.DO_WHILE)
          && loop.condition() instanceof Expr.Unary not
          && not.operator().equals("!")
          && not.operand() instanceof Expr.Call wait
          && CallNames.TIMED_WAITS.contains(wait.name())
          && wait.args().size() >= 2
          && !endsOtherwise(loop.body())) {
        found.add(loop);
      }
    }
    return found;
  }

  /** Whether a loop body can end the loop or consults a count, a clock or a policy. */
  private static boolean endsOtherwise(Stmt body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Stmt.Break
          || n instanceof Stmt.Return
          || n instanceof Stmt.Throw
          || (n instanceof Expr.Call call && BOUND_CALL.matches(call.name()))
          || (n instanceof Expr.Name name && BOUND_CALL.matches(name.name()))
          || (n instanceof Expr.Binary binary && isOrdering(binary))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isOrdering(Expr.Binary binary) {
    return switch (binary.operator()) {
      case "<", "<=", ">", ">=" -> true;
      default -> false;
    };
  }

  /**
   * Returns the resubmissions after a failure that nothing caps, in source order: in a failure
   * callback ({@code onException(Throwable e)}), a delayed scheduling of the work, or a call to a
   * helper of the unit that schedules it; in any method, a delayed scheduling in a catch clause. A
   * count, a clock, a comparison or a policy's delay anywhere in the method bounds them (one
   * finding per method: its first resubmission).
   */
  static List<Resubmission> resubmissions(MethodAnalysis analysis) {
    boolean handler = DelayedRetries.isFailureHandler(analysis.method());
    String completionFailure = handler ? null : failureParameter(analysis);
    boolean onCompletionFailure = false;
    Expr.Call first = null;
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Call call) || analysis.isSelfReschedule(call)) {
        continue;
      }
      DelayedRetries.Delayed delayed = DelayedRetries.delayed(call);
      if (delayed != null
          && !handler
          && !analysis.isInCatchBody(call, null)
          && onFailurePathOf(analysis, call, completionFailure)) {
        // a completion handler's failure branch: handleStreamComplete(Throwable error) { .. if
        // (error != null) executor.schedule(() -> open(command), delay, MILLISECONDS); }
        if (!Backoffs.isDeterministic(analysis, delayed.delay()) && !policyFree(delayed.delay())) {
          return List.of(); // a policy computes the delay: it may well give up
        }
        first = first == null ? call : first;
        onCompletionFailure = true;
      } else if (delayed != null && (handler || analysis.isInCatchBody(call, null))) {
        if (!Backoffs.isDeterministic(analysis, delayed.delay()) && !policyFree(delayed.delay())) {
          return List.of(); // a policy computes the delay: it may well give up
        }
        first = first == null ? call : first;
      } else if (handler && schedulesLater(analysis, call)) {
        first = first == null ? call : first;
      } else if (CallNames.isResubmission(call.name())
          && (handler || analysis.isInCatchBody(call, null))
          && !analysis.isSelfCall(call)
          && !analysis.isInRetryLoop(call)
          && !afterCollision(analysis, call)) {
        first = first == null ? call : first; // retryFailedTask(key, task): queued again
      }
    }
    for (Expr.Call call : DelayedRetries.inFailureLambdas(analysis)) {
      if (DelayedRetries.delayed(call) != null
          || CallNames.isResubmission(call.name())
          || analysis.isSelfCall(call)) {
        first = first == null || call.span().start() < first.span().start() ? call : first;
      }
    }
    boolean reissued = false;
    for (Expr.Call call : reissuesWithItself(analysis)) {
      if (first == null || call.span().start() < first.span().start()) {
        first = call;
        reissued = true; // a completion callback's failure path: a handler, not a catch clause
      }
    }
    if (first == null
        || boundedMethod(analysis)
        || boundedHelper(analysis, first)
        || decidedByJudgedFailure(analysis, first)) {
      return List.of();
    }
    // A worker loop's stop check around the resubmission: while (isStarted()) { .. }
    LoopInfo around = analysis.innermostLoop(first);
    boolean stop =
        around != null
            && around.condition() != null
            && !around.isWholeMethod()
            && readsStopFlag(analysis, around, around.condition());
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Stmt.If check) {
        for (Node m : Nodes.sameFrame(check.condition())) {
          stop |= m instanceof Expr.Call c && isStopCall(c);
          stop |= m instanceof Expr.Name name && STOP_CALL.matches(name.name());
        }
      }
    }
    return List.of(
        new Resubmission(
            first,
            stop ? Ending.STOP_FLAG : Ending.SUCCESS_ONLY,
            handler || reissued || onCompletionFailure));
  }

  /**
   * The name of the method's failure parameter ({@code Throwable error}, {@code Exception e}) when
   * it has exactly one, else {@code null}.
   */
  static String failureParameter(MethodAnalysis analysis) {
    String failure = null;
    for (MethodModel.Param param : analysis.method().params()) {
      if (DelayedRetries.isFailureType(param.type())) {
        if (failure != null) {
          return null;
        }
        failure = param.name();
      }
    }
    return failure;
  }

  /**
   * Whether {@code call} runs only when the method's failure parameter is set: after {@code if
   * (error == null) return;} opening the body, or in the then-branch of a test of the failure
   * ({@code if (error != null)}, {@code if (error instanceof IOException)}).
   */
  static boolean onFailurePathOf(MethodAnalysis analysis, Node call, String failure) {
    if (failure == null || analysis.method().body() == null) {
      return false;
    }
    return leavesWhenNull(analysis.method().body(), failure)
        || underFailureTest(analysis, call, Set.of(failure));
  }

  /** Names of time bounds: {@code timeout}, {@code deadline}. */
  private static final Pattern TIME_BOUND = Pattern.compile("(?i).*(timeout|deadline).*");

  /** Names written as constants: {@code INFINITE}, {@code UNLIMITED_ATTEMPTS}. */
  private static final Pattern CONSTANT = Pattern.compile("[A-Z][A-Z0-9_]*");

  /** Types whose default (a field declared without an initialiser) is {@code 0}. */
  private static final Set<String> NUMBERS = Set.of("int", "long", "short", "byte");

  /**
   * A give-up test that is off unless configured: the test, the cap it reads and the cap's default
   * as written.
   */
  record OffByDefault(Node at, String cap, String initial) {}

  /**
   * Returns the tests of the method that would give up retrying but are off by default: the cap (or
   * the timeout) is checked only when set ({@code reconnectLimit != INFINITE && connectFailures >=
   * reconnectLimit}, {@code timeout > 0 && elapsed > timeout}), and the field it reads starts unset
   * ({@code private int maxReconnectAttempts = INFINITE;}, or an {@code int} field with no
   * initialiser that no constructor sets). Unless a user configures a cap, such a test never fires.
   * A cap is named for attempts, retries or reconnects; a time bound (named for a timeout or a
   * deadline) counts only inside a loop.
   */
  static List<OffByDefault> offByDefault(MethodAnalysis analysis) {
    List<OffByDefault> found = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Stmt.If check && Flow.leaves(check.then())) {
        OffByDefault off = offWhenUnset(analysis, check, check.condition());
        if (off != null) {
          found.add(off);
        }
      }
    }
    return found;
  }

  /**
   * {@code if (cap != UNSET && count >= cap) giveUp();}: the give-up's own condition asks first
   * whether the cap is set, which it is not by default.
   */
  private static OffByDefault offWhenUnset(MethodAnalysis analysis, Stmt.If check, Expr condition) {
    List<Expr> conjuncts = new ArrayList<>();
    operands(condition, "&&", conjuncts);
    for (Expr over : conjuncts) {
      Expr.Name cap = cappedFromAbove(over);
      if (cap == null || !isCapName(analysis, check, cap.name())) {
        continue;
      }
      for (Expr set : conjuncts) {
        if (set == over || !(set instanceof Expr.Binary test)) {
          continue;
        }
        Object initial = defaultOf(analysis, cap, 0);
        Boolean holds = initial == null ? null : evaluate(analysis, test, cap.name(), initial);
        if (Boolean.FALSE.equals(holds)) {
          return new OffByDefault(check, cap.name(), initialText(analysis, cap));
        }
      }
    }
    return null;
  }

  /**
   * The cap a comparison holds once a count passes: {@code count >= cap}, {@code cap < count},
   * {@code now - start > timeout}; {@code null} for other shapes.
   */
  private static Expr.Name cappedFromAbove(Expr expr) {
    if (!(expr instanceof Expr.Binary compared)) {
      return null;
    }
    Expr cap =
        switch (compared.operator()) {
          case ">", ">=" -> compared.right();
          case "<", "<=" -> compared.left();
          default -> null;
        };
    Expr count = cap == compared.right() ? compared.left() : compared.right();
    if (!(cap instanceof Expr.Name name) || count instanceof Expr.Literal) {
      return null;
    }
    return name;
  }

  private static boolean isNamed(Expr expr, String name) {
    return expr instanceof Expr.Name n && n.name().equals(name);
  }

  /**
   * Whether a name is a cap: named for attempts, retries or reconnects; or for a timeout or a
   * deadline, tested inside a loop.
   */
  private static boolean isCapName(MethodAnalysis analysis, Node at, String name) {
    return CallNames.isAttemptCapName(name)
        || (TIME_BOUND.matcher(name).matches() && analysis.innermostLoop(at) != null);
  }

  private static void operands(Expr expr, String operator, List<Expr> out) {
    if (expr instanceof Expr.Binary binary && binary.operator().equals(operator)) {
      operands(binary.left(), operator, out);
      operands(binary.right(), operator, out);
    } else {
      out.add(expr);
    }
  }

  /** A literal number, a negated one, or a name written as a constant. */
  private static boolean isConstant(Expr expr) {
    return (expr instanceof Expr.Literal literal && literal.value() instanceof Number)
        || (expr instanceof Expr.Unary minus
            && minus.operator().equals("-")
            && minus.operand() instanceof Expr.Literal)
        || (expr instanceof Expr.Name name && CONSTANT.matcher(name.name()).matches());
  }

  /**
   * Evaluates a comparison of the cap with a constant, the cap holding {@code initial}: {@code
   * null} if either side is not known.
   */
  private static Boolean evaluate(
      MethodAnalysis analysis, Expr.Binary test, String cap, Object initial) {
    Expr other;
    boolean capLeft;
    if (isNamed(test.left(), cap) && isConstant(test.right())) {
      other = test.right();
      capLeft = true;
    } else if (isNamed(test.right(), cap) && isConstant(test.left())) {
      other = test.left();
      capLeft = false;
    } else {
      return null;
    }
    Object constant = defaultOf(analysis, other, 0);
    if (constant == null) {
      return null;
    }
    if (initial instanceof Long a && constant instanceof Long b) {
      long left = capLeft ? a : b;
      long right = capLeft ? b : a;
      return switch (test.operator()) {
        case "==" -> left == right;
        case "!=" -> left != right;
        case "<" -> left < right;
        case "<=" -> left <= right;
        case ">" -> left > right;
        case ">=" -> left >= right;
        default -> null;
      };
    }
    if (initial instanceof String a && constant instanceof String b && a.equals(b)) {
      return switch (test.operator()) {
        case "==" -> true;
        case "!=" -> false;
        default -> null;
      };
    }
    return null;
  }

  /** The cap's default as written, for the message. */
  private static String initialText(MethodAnalysis analysis, Expr.Name cap) {
    Object initial = defaultOf(analysis, cap, 0);
    return initial instanceof String constant ? constant : String.valueOf(initial);
  }

  /**
   * The value an expression has before anyone configures anything: a number ({@link Long}), a
   * constant of another class by its name ({@link String}), or {@code null} if unknown. A field
   * holds its initialiser, or {@code 0} when an {@code int} or {@code long} field has none and no
   * constructor sets it; a local holds what every assignment gives it; a call of a helper of the
   * unit without arguments returns what every {@code return} of it does.
   */
  private static Object defaultOf(MethodAnalysis analysis, Expr expr, int depth) {
    if (depth > 6 || expr == null) {
      return null;
    }
    if (expr instanceof Expr.Literal literal) {
      return literal.value() instanceof Integer || literal.value() instanceof Long
          ? ((Number) literal.value()).longValue()
          : null;
    }
    if (expr instanceof Expr.Unary minus && minus.operator().equals("-")) {
      return defaultOf(analysis, minus.operand(), depth + 1) instanceof Long value ? -value : null;
    }
    if (expr instanceof Expr.Name name) {
      if (name.isVariable(name.name())) {
        return agreed(analysis, analysis.valuesOf(name.name()), depth);
      }
      boolean own =
          name.qualifier() == null
              || (name.qualifier() instanceof Expr.Name self && self.name().equals("this"));
      if (name.kind() == Expr.NameKind.FIELD && own) {
        return fieldDefault(analysis, name.name(), depth);
      }
      if (name.qualifier() != null && CONSTANT.matcher(name.name()).matches()) {
        return name.name(); // FixedBackOff.UNLIMITED_ATTEMPTS: known by its name only
      }
      return null;
    }
    if (expr instanceof Expr.Call call && call.args().isEmpty()) {
      MethodModel callee = helperOf(analysis, call);
      MethodAnalysis helper = callee == null ? null : analysis.unitFacts().analysisOf(callee);
      if (helper == null) {
        return null;
      }
      List<Expr> returned = new ArrayList<>();
      for (Node n : helper.bodyFrameNodes()) {
        if (n instanceof Stmt.Return ret) {
          returned.add(ret.value());
        }
      }
      return agreed(helper, returned, depth);
    }
    return null;
  }

  /** The one default all the values share, or {@code null}. */
  private static Object agreed(MethodAnalysis analysis, List<Expr> values, int depth) {
    Object shared = null;
    for (Expr value : values) {
      Object initial = defaultOf(analysis, value, depth + 1);
      if (initial == null || (shared != null && !shared.equals(initial))) {
        return null;
      }
      shared = initial;
    }
    return shared;
  }

  /**
   * A field's default: its initialiser, or a number type's {@code 0}; unknown when a constructor
   * sets it.
   */
  private static Object fieldDefault(MethodAnalysis analysis, String field, int depth) {
    MethodModel declaring = declaringMethod(analysis, field);
    if (declaring == null) {
      return null; // a field the class inherits, or of a class the unit does not hold
    }
    SourceContext context = analysis.context().unit().contextOf(declaring);
    if (setByConstructor(analysis, declaring.owner(), field)) {
      return null; // this.maxRetries = config.maxRetries(): configured, whatever it starts as
    }
    Expr initialiser = context.fieldInitialiser(field);
    if (initialiser != null) {
      if (CONSTANT.matcher(field).matches()) {
        Object value = defaultOf(analysis, initialiser, depth + 1);
        return value != null ? value : field;
      }
      Object value = defaultOf(analysis, initialiser, depth + 1);
      if (value == null
          && initialiser instanceof Expr.Name constant
          && CONSTANT.matcher(constant.name()).matches()) {
        return constant.name();
      }
      return value;
    }
    String type = context.fieldType(field);
    if (type == null || !NUMBERS.contains(type)) {
      return null;
    }
    return 0L;
  }

  /**
   * A method of the class that declares a field the method reads: the method itself when its class
   * declares it; else, for a method of an anonymous, local or member class ({@code new Runnable() {
   * .. maxReconnectAttempts .. }}), a method of the enclosing class that does, looked up outward
   * (the unit's method whose declaration holds it, or, for a member class, a method of the class
   * its name is nested in). {@code null} if no class of the unit around the method declares it.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static MethodModel declaringMethod(MethodAnalysis analysis, String field) {
    UnitIndex unit = analysis.context().unit();
    MethodModel method = analysis.method();
    for (int level = 0; method != null && level < 4; level++) {
      SourceContext context = level == 0 ? analysis.context() : unit.contextOf(method);
      if (context.fieldType(field) != null || context.fieldInitialiser(field) != null) {
        return method;
      }
      method = enclosingMethod(unit, method);
    }
    return null;
  }

  /**
   * The method of the unit around a method's class: the smallest declaration that holds it (an
   * anonymous or local class), or a method of the class a member class's name is nested in.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static MethodModel enclosingMethod(UnitIndex unit, MethodModel method) {
    if (!method.span().isKnown()) {
      return null;
    }
    MethodModel around = null;
    for (MethodModel m : unit.methods()) {
      if (m != method
          && m.span().isKnown()
          && !m.span().equals(method.span())
          && m.span().contains(method.span())
          && (around == null || around.span().contains(m.span()))) {
        around = m;
      }
    }
    if (around != null) {
      return around;
    }
    int dot = method.owner().lastIndexOf('.');
    if (dot <= 0) {
      return null;
    }
    String outer = method.owner().substring(0, dot);
    for (MethodModel m : unit.methods()) {
      if (m.owner().equals(outer)) {
        return m;
      }
    }
    return null;
  }

  /** Whether a constructor or initialiser of the class {@code owner} assigns the field. */
  private static boolean setByConstructor(MethodAnalysis analysis, String owner, String field) {
    for (MethodModel m : analysis.context().unit().methods()) {
      if (!(m.isConstructor() || m.name().equals(MethodModel.INITIALISERS))
          || !m.owner().equals(owner)
          || m.body() == null) {
        continue;
      }
      for (Node n : Nodes.preOrder(m.body())) {
        if (n instanceof Expr.Assign assign
            && assign.target() instanceof Expr.Name target
            && target.name().equals(field)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A periodic task that retries the failed work catch clauses park in a field: the scheduling call
   * and the field.
   */
  record Failback(Expr.Call call, String parked) {}

  /**
   * Returns the periodic schedulings of the method whose task retries parked failures: the task
   * calls a helper of the unit that walks a collection held in a field ({@code for (URL url : new
   * HashSet<>(failedRegistered)) { super.register(url); failedRegistered.remove(url); }}), and a
   * catch clause of the unit puts failed work into that field ({@code catch (Exception e) {
   * failedRegistered.add(url); }}). Nothing counts an item's tries or its age, so a request the
   * dependency keeps refusing is retried every period for the life of the component. A helper that
   * compares anything but a size with zero, or reads a count, a clock or a limit (other than in a
   * log call), bounds it.
   */
  static List<Failback> failbacks(MethodAnalysis analysis) {
    List<Failback> found = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call call) || !CallNames.PERIODIC_SCHEDULES.contains(call.name())) {
        continue; /* Fast path: not a periodic scheduling. */
      }
      for (Expr.Call inner : taskCalls(analysis, call)) {
        MethodModel helper = helperOf(analysis, inner);
        MethodAnalysis walked = helper == null ? null : analysis.unitFacts().analysisOf(helper);
        String parked = walked == null ? null : parkedFieldWalked(analysis, walked);
        if (parked != null) {
          found.add(new Failback(call, parked));
          break;
        }
      }
    }
    return found;
  }

  /** The calls of a task given to a scheduling: a lambda's, or an anonymous class's {@code run}. */
  private static List<Expr.Call> taskCalls(MethodAnalysis analysis, Expr.Call scheduling) {
    List<Expr.Call> calls = new ArrayList<>();
    for (Expr arg : scheduling.args()) {
      if (arg instanceof Expr.Lambda lambda) {
        calls.addAll(Nodes.calls(lambda.body()));
      } else if (arg instanceof Expr.New task && task.hasBody() && task.span().isKnown()) {
        for (MethodModel m : analysis.context().unit().methods()) {
          if (m.isTaskBody()
              && m.span().isKnown()
              && task.span().contains(m.span())
              && m.body() != null) {
            calls.addAll(Nodes.calls(m.body()));
          }
        }
      }
    }
    return calls;
  }

  /**
   * The field holding parked failures that a helper walks, if the helper bounds nothing and a catch
   * clause of the unit parks failed work there; else {@code null}.
   */
  private static String parkedFieldWalked(MethodAnalysis analysis, MethodAnalysis helper) {
    for (Node n : helper.bodyNodes()) {
      if ((n instanceof Expr.Binary binary && isOrdering(binary) && !comparesWithZero(binary))
          || (n instanceof Expr.Call c && BOUND_CALL.matches(c.name()) && !inLogCall(helper, c))
          || (n instanceof Expr.Name name
              && BOUND_CALL.matches(name.name())
              && !inLogCall(helper, name))) {
        return null; // counted, timed or limited
      }
    }
    Set<String> parked = parkedInCatches(analysis);
    for (LoopInfo loop : helper.loops()) {
      if (loop.kind() != LoopInfo.Kind.FOR_EACH || loop.iterable() == null) {
        continue;
      }
      for (Expr origin : helper.origins(loop.iterable())) {
        for (Node m : Nodes.preOrder(origin)) {
          if (m instanceof Expr.Name field
              && field.kind() == Expr.NameKind.FIELD
              && parked.contains(field.name())) {
            return field.name();
          }
        }
      }
    }
    return null;
  }

  /** {@code failed.size() > 0}: a test for work, not a cap. */
  private static boolean comparesWithZero(Expr.Binary binary) {
    return isZero(binary.left()) || isZero(binary.right());
  }

  private static boolean isZero(Expr expr) {
    return expr instanceof Expr.Literal literal
        && literal.value() instanceof Number number
        && number.longValue() == 0;
  }

  /** Whether a node is an argument of a logging call, in the same frame. */
  private static boolean inLogCall(MethodAnalysis analysis, Node node) {
    for (Node p = analysis.parent(node); p != null; p = analysis.parent(p)) {
      if (p instanceof Expr.Call call && LOGGING.matcher(call.name()).matches()) {
        return true;
      }
      if (p instanceof Stmt || p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  /**
   * The fields into which a catch clause of the unit puts failed work: {@code failed.add(url)},
   * {@code failedSubscribed.put(url, listeners)}, or a call given the field ({@code
   * addToFailedMap(failedSubscribed, url, listener)}).
   */
  private static Set<String> parkedInCatches(MethodAnalysis analysis) {
    return analysis
        .context()
        .unit()
        .memo(
            ParkedFields.class,
            unit -> {
              Set<String> parked = new HashSet<>();
              for (MethodModel m : unit.methods()) {
                MethodAnalysis a = m.body() == null ? null : analysis.unitFacts().analysisOf(m);
                if (a == null) {
                  continue;
                }
                for (Stmt.Catch clause : a.catches()) {
                  for (Expr.Call call : Nodes.calls(clause.body())) {
                    if ((CallNames.ENQUEUES.contains(call.name()) || call.name().equals("put"))
                        && call.receiver() instanceof Expr.Name field
                        && field.kind() == Expr.NameKind.FIELD) {
                      parked.add(field.name());
                    }
                    for (Expr arg : call.args()) {
                      if (arg instanceof Expr.Name field && field.kind() == Expr.NameKind.FIELD) {
                        parked.add(field.name());
                      }
                    }
                  }
                }
              }
              return new ParkedFields(parked);
            })
        .names();
  }

  /** The unit's fields into which catch clauses put failed work, computed once per unit. */
  private record ParkedFields(Set<String> names) {}

  /** Calls that run a task they are given. */
  private static final Set<String> TASK_SINKS = Set.of("submit", "execute", "schedule");

  /** Calls that manage a callback's registration rather than run an operation again. */
  private static final Pattern REGISTRATION =
      Pattern.compile(
          "(?i)(add|remove|register|unregister|deregister|cancel|log|debug|info|warn|error|trace)"
              + "\\w*");

  /**
   * The calls on a completion callback's failure path that hand the callback itself to the
   * operation again: {@code kafkaLog.send(key, value, this)} in {@code onCompletion(metadata,
   * exception)} after {@code if (exception == null) return;}, directly or in a task given to an
   * executor ({@code retryExecutor.submit(() -> kafkaLog.send(key, value, this))}). The callback
   * re-issues the work it observed, once per failure. Calls that add or remove listeners, or log,
   * are not re-issues.
   */
  static List<Expr.Call> reissuesWithItself(MethodAnalysis analysis) {
    String failure = null;
    for (MethodModel.Param param : analysis.method().params()) {
      if (DelayedRetries.isFailureType(param.type())) {
        failure = param.name();
      }
    }
    if (failure == null || analysis.method().body() == null) {
      return List.of();
    }
    boolean leavesWithoutFailure = leavesWhenNull(analysis.method().body(), failure);
    Set<String> failures = derivedFrom(analysis, failure);
    List<Expr.Call> found = new ArrayList<>();
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      List<Expr.Call> candidates = new ArrayList<>();
      candidates.add(call);
      if (TASK_SINKS.contains(call.name())) {
        for (Expr arg : call.args()) {
          if (arg instanceof Expr.Lambda lambda) {
            for (Node m : Nodes.sameFrame(lambda.body())) {
              if (m instanceof Expr.Call inner) {
                candidates.add(inner);
              }
            }
          }
        }
      }
      for (Expr.Call candidate : candidates) {
        if (passesThis(candidate)
            && !REGISTRATION.matcher(candidate.name()).matches()
            && (leavesWithoutFailure || underFailureTest(analysis, call, failures))) {
          found.add(candidate);
        }
      }
    }
    return found;
  }

  private static boolean passesThis(Expr.Call call) {
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Name name && name.name().equals("this") && name.qualifier() == null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the body starts with {@code if (failure == null) return;} (or a block that returns).
   */
  private static boolean leavesWhenNull(Stmt.Block body, String failure) {
    if (body.statements().isEmpty()
        || !(body.statements().get(0) instanceof Stmt.If check)
        || !(check.condition() instanceof Expr.Binary test)
        || !test.operator().equals("==")
        || !(DelayedRetries.isNamed(test.left(), failure)
            || DelayedRetries.isNamed(test.right(), failure))
        || !(DelayedRetries.isNull(test.left()) || DelayedRetries.isNull(test.right()))) {
      return false;
    }
    return !Flow.canCompleteNormally(check.then());
  }

  /**
   * Whether {@code call} runs only under an {@code if} whose condition reads the failure, or a
   * local made from it ({@code Status status = Status.fromThrowable(throwable); if
   * (status.getCode() != UNKNOWN && ..)}).
   */
  private static boolean underFailureTest(
      MethodAnalysis analysis, Node call, Set<String> failures) {
    Node child = call;
    for (Node p = analysis.parent(call); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.If check && check.then() == child) {
        if (check.condition() instanceof Expr.Binary test
            && test.operator().equals("==")
            && (DelayedRetries.isNull(test.left()) || DelayedRetries.isNull(test.right()))) {
          continue; // if (failure == null): the success branch
        }
        for (String failure : failures) {
          if (Nodes.mentions(check.condition(), failure)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * The failure and the locals of the method whose every value is made from it ({@code final Status
   * status = Status.fromThrowable(throwable);}).
   */
  private static Set<String> derivedFrom(MethodAnalysis analysis, String failure) {
    Set<String> names = new HashSet<>();
    names.add(failure);
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Stmt.LocalVar local
          && local.init() != null
          && !names.contains(local.name())
          && Nodes.mentions(local.init(), failure)) {
        boolean derived = true;
        for (Expr value : analysis.valuesOf(local.name())) {
          derived &= Nodes.mentions(value, failure);
        }
        if (derived) {
          names.add(local.name());
        }
      }
    }
    return names;
  }

  /**
   * Whether the resubmission runs only under a flag that a call given the failure decides ({@code
   * toRetry = connection.connectionFailed(exception); .. if (toRetry) reconnectLater(exception);}):
   * the failure is handed to a component that judges it and says whether to go on, a policy's
   * decision. A flag set otherwise ({@code if (!closed)}) decides nothing about the failure.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean decidedByJudgedFailure(MethodAnalysis analysis, Expr.Call call) {
    Set<String> failures = new HashSet<>();
    for (MethodModel.Param param : analysis.method().params()) {
      if (param.type().isSubtypeOf("java.lang.Throwable")
          || param.type().simpleName().endsWith("Exception")
          || param.type().simpleName().equals("Throwable")) {
        failures.add(param.name());
      }
    }
    for (Stmt.Catch clause : analysis.catches()) {
      failures.add(clause.parameter());
    }
    Node child = call;
    for (Node p = analysis.parent(call); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Expr.Lambda) {
        return false;
      }
      if (!(p instanceof Stmt.If check)
          || check.then() != child
          || !(check.condition() instanceof Expr.Name flag)
          || flag.kind() != Expr.NameKind.LOCAL) {
        continue;
      }
      boolean judged = false;
      for (Expr value : analysis.valuesOf(flag.name())) {
        if (value instanceof Expr.Literal) {
          continue;
        }
        if (!(value instanceof Expr.Call verdict) || !mentionsAny(verdict, failures)) {
          return false;
        }
        judged = true;
      }
      return judged;
    }
    return false;
  }

  private static boolean mentionsAny(Expr.Call call, Set<String> names) {
    for (Expr arg : call.args()) {
      for (String name : names) {
        if (Nodes.mentions(arg, name)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a delay computed by calls is free of a policy's decision ({@code nextBackOff()}). */
  private static boolean policyFree(Expr delay) {
    for (Node n : Nodes.sameFrame(delay)) {
      if (n instanceof Expr.Call call && POLICY_DELAY.matches(call.name())) {
        return false;
      }
    }
    return true;
  }

  /** A call to a helper of the unit that schedules work to run later ({@code reschedule()}). */
  private static boolean schedulesLater(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = helperOf(analysis, call);
    if (callee == null) {
      return false;
    }
    for (Node n : Nodes.sameFrame(callee.body())) {
      if (n instanceof Expr.Call inner && DelayedRetries.delayed(inner) != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the resubmission is a call to a helper of the unit that consults a count, a clock, a
   * deadline or a policy itself before it schedules the work ({@code onNetworkError(e) { retry(e);
   * }} with {@code retry} testing {@code iteration > maxRetries} and the total deadline first): the
   * helper bounds the retries, and its own scheduling is judged there.
   */
  private static boolean boundedHelper(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = helperOf(analysis, call);
    if (callee == null) {
      return false;
    }
    // The helper must decide: a comparison or a bounding call. A clock read alone only records
    // when the work was queued again (retryFailedTask:
    // task.setLastProcessTime(currentTimeMillis())).
    for (Node n : analysis.unitFacts().analysisOf(callee).bodyNodes()) {
      if ((n instanceof Expr.Binary binary && isOrdering(binary))
          || (n instanceof Expr.Call c && BOUND_CALL.matches(c.name()) && !isClockRead(c))
          || (n instanceof Expr.Name name && BOUND_CALL.matches(name.name()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isClockRead(Expr.Call call) {
    return call.name().equals("nanoTime") || call.name().equals("currentTimeMillis");
  }

  /** The method of the unit, other than the caller, that a call runs and whose body is seen. */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static MethodModel helperOf(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = analysis.context().unit().declarationOf(call);
    return callee == null || callee == analysis.method() || callee.body() == null ? null : callee;
  }

  /**
   * Whether the method consults a count, a clock, a deadline or a policy anywhere. Inside a loop, a
   * value only handed on there ({@link #onlyPassedOn}: the timeout of one wait, {@code if
   * (!future.get(CONNECT_TIMEOUT, MILLISECONDS)) connected = false;}) bounds one attempt, not the
   * resubmissions.
   */
  private static boolean boundedMethod(MethodAnalysis analysis) {
    for (Node n : analysis.bodyNodes()) {
      if ((n instanceof Expr.Call call && BOUND_CALL.matches(call.name()))
          || (n instanceof Expr.Name name && BOUND_CALL.matches(name.name()))) {
        LoopInfo loop = analysis.innermostLoop(n);
        if (loop == null || loop.isWholeMethod() || !onlyPassedOn(analysis, n, loop)) {
          return true;
        }
      }
      if (n instanceof Expr.Binary binary && isOrdering(binary)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A retry loop, or a loop that retries failures, waits between rounds and is ended by a stop flag
   * (a background reconnect loop, which need not leave on success).
   */
  private static boolean isCandidate(MethodAnalysis analysis, LoopInfo loop) {
    if ((loop.evidence().contains(LoopInfo.Evidence.COUNTS_ATTEMPTS)
            && !countsOnlyFromZero(analysis, loop))
        || loop.evidence().contains(LoopInfo.Evidence.POLICY_DECIDED)
        || loop.evidence().contains(LoopInfo.Evidence.FAILOVER)
        || loop.kind() == LoopInfo.Kind.FOR_EACH
        || loop.kind() == LoopInfo.Kind.FOR_EACH_LAMBDA) {
      return false;
    }
    if (onlyInterruptionRetried(analysis, loop)) {
      return false; // an uninterruptible wait, not a retry of a failing call
    }
    if (onlyReceiveTimeoutsRetried(analysis, loop)) {
      return false; // a read that polls with a timeout, not a retry of a failing call
    }
    if (onlyCollisionsResolved(analysis, loop)) {
      return false; // a fresh name after a name clash, not a retry of a failing call
    }
    boolean caught =
        loop.evidence().contains(LoopInfo.Evidence.RETRYING_CATCH)
            || loop.evidence().contains(LoopInfo.Evidence.CAUGHT_IN_HELPER);
    if (loop.isRetryLoop()) {
      return caught;
    }
    return caught
        && loop.evidence().contains(LoopInfo.Evidence.SLEEPS)
        && !loop.evidence().contains(LoopInfo.Evidence.TAKES_ITEMS)
        && loop.condition() != null
        && readsStopFlag(analysis, loop, loop.condition());
  }

  /**
   * Whether the loop's counters ({@code n++}) are compared only with zero ({@code if (n > 0 && n %
   * size == 0)}: a round count for logging): counting up from zero caps nothing.
   */
  private static boolean countsOnlyFromZero(MethodAnalysis analysis, LoopInfo loop) {
    Set<String> counters = new HashSet<>();
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Unary step
          && step.operator().equals("++")
          && step.operand() instanceof Expr.Name name
          && name.isVariable(name.name())) {
        counters.add(name.name());
      }
    }
    boolean compared = false;
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Binary binary && isOrdering(binary)) {
        for (String counter : counters) {
          boolean left = Nodes.mentions(binary.left(), counter);
          boolean right = Nodes.mentions(binary.right(), counter);
          if (left == right) {
            continue;
          }
          Expr bound = left ? binary.right() : binary.left();
          if (!(bound instanceof Expr.Literal literal
              && literal.value() instanceof Number number
              && number.longValue() == 0)) {
            return false;
          }
          compared = true;
        }
      }
    }
    return compared;
  }

  /**
   * Names of failures that report a clash with what already exists ({@code
   * ObjectAlreadyExistsException}, {@code NodeExistsException}, {@code DuplicateKeyException}): a
   * definite answer about the data, not a transient failure of the dependency.
   */
  private static final java.util.regex.Pattern COLLISION =
      java.util.regex.Pattern.compile("\\w*(Exists|Duplicate\\w*|Collision)(Exception|Error)");

  private static boolean catchesOnlyCollisions(Stmt.Catch clause) {
    for (var type : clause.types()) {
      if (!COLLISION.matcher(type.simpleName()).matches()) {
        return false;
      }
    }
    return !clause.types().isEmpty();
  }

  /**
   * Whether every clause that goes round again catches only a name clash and changes something
   * before the next round ({@code catch (ObjectAlreadyExistsException e) {
   * trigger.setKey(newTriggerKey()); }}): the loop draws a fresh name until one is free, which ends
   * after a round or two; it does not retry a failing dependency. A clause that changes nothing
   * would clash for ever, and is still reported.
   */
  static boolean onlyCollisionsResolved(MethodAnalysis analysis, LoopInfo loop) {
    return everyRetryingCatch(
        analysis, loop, clause -> catchesOnlyCollisions(clause) && changesSomething(clause.body()));
  }

  private static boolean changesSomething(Stmt body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Expr.Assign
          || (n instanceof Expr.Call call && !LOGGING.matcher(call.name()).matches())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the call is in a catch clause that catches only a name clash ({@code catch
   * (ObjectAlreadyExistsException e) { scheduler.rescheduleJob(key, trigger); }}): the handler
   * falls back once to replacing what exists; the work is not run again after a failure.
   */
  private static boolean afterCollision(MethodAnalysis analysis, Expr.Call call) {
    for (Node p = analysis.parent(call); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.Catch clause) {
        return catchesOnlyCollisions(clause);
      }
      if (p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  /** Whether the only failure the loop goes round again after is {@code InterruptedException}. */
  static boolean onlyInterruptionRetried(MethodAnalysis analysis, LoopInfo loop) {
    return everyRetryingCatch(
        analysis,
        loop,
        clause ->
            clause.types().stream()
                .allMatch(type -> type.name().equals("java.lang.InterruptedException")));
  }

  /**
   * Whether the loop has a catch clause that goes round again, and every such clause (of this loop,
   * not of a loop inside it) passes the test.
   */
  private static boolean everyRetryingCatch(
      MethodAnalysis analysis, LoopInfo loop, Predicate<Stmt.Catch> test) {
    boolean any = false;
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Stmt.Catch clause
          && analysis.loopOf(clause) == loop
          && analysis.goesRoundAgain(clause, loop)) {
        if (!test.test(clause)) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  /** Failures that say only that nothing arrived in time. */
  private static final Set<String> RECEIVE_TIMEOUTS =
      Set.of("SocketTimeoutException", "TimeoutException");

  /**
   * Whether the only failure the loop goes round again after is a receive's timeout, caught with
   * nothing done but logging: {@code while (true) { try { if (in.read() == -1) return; } catch
   * (SocketTimeoutException e) { } }}. A read, receive, accept or poll that timed out failed
   * nothing; the next round waits again for data (ended by the end of the stream or another
   * failure), which is a timed wait, not a retry.
   */
  static boolean onlyReceiveTimeoutsRetried(MethodAnalysis analysis, LoopInfo loop) {
    return everyRetryingCatch(
        analysis,
        loop,
        clause ->
            clause.types().stream().allMatch(type -> RECEIVE_TIMEOUTS.contains(type.simpleName()))
                && onlyLogs(clause.body())
                && receives(analysis.tryOf(clause).body()));
  }

  /** Whether a block calls nothing but logging. */
  private static boolean onlyLogs(Node body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Expr.Call call && !LOGGING.matcher(call.name()).matches()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a try block receives: {@code read..}, {@code receive..}, {@code accept}, {@code poll}.
   */
  private static boolean receives(Node body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Expr.Call call
          && (call.name().startsWith("read")
              || call.name().startsWith("receive")
              || call.name().equals("accept")
              || call.name().equals("poll"))) {
        return true;
      }
    }
    return false;
  }

  /** How the loop ends, or {@code null} if something bounds it. */
  private static Ending ending(MethodAnalysis analysis, LoopInfo loop) {
    boolean stopFlag = loop.evidence().contains(LoopInfo.Evidence.STOP_FLAG);
    if (loop.condition() != null && !Flow.isTrue(loop.condition())) {
      if (bounds(analysis, loop.condition(), true)) {
        return null;
      }
      stopFlag = readsStopFlag(analysis, loop, loop.condition());
    }
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call
          && BOUND_CALL.matches(call.name())
          && !onlyPassedOn(analysis, call, loop)) {
        return null; // a clock, a deadline or a policy is consulted
      }
      if (n instanceof Expr.Name name
          && BOUND_CALL.matches(name.name())
          && !onlyPassedOn(analysis, name, loop)) {
        return null;
      }
      if (n instanceof Stmt.If guard && !Flow.canCompleteNormally(guard.then())) {
        boolean givesUp = analysis.isInCatchBody(guard, loop.node()) || throwsOut(guard.then());
        if (bounds(analysis, guard.condition(), givesUp)) {
          return null;
        }
        stopFlag |= readsStopFlag(analysis, loop, guard.condition());
      }
      if (n instanceof Stmt.Catch clause && handsFailureToPolicy(clause)) {
        return null;
      }
    }
    return stopFlag ? Ending.STOP_FLAG : Ending.SUCCESS_ONLY;
  }

  /** Names of calls that log: what they are given decides nothing. */
  private static final java.util.regex.Pattern LOGGING =
      java.util.regex.Pattern.compile(
          "log\\w*|trace|debug|info|warn|warning|error|fatal|print\\w*|add(Info|Warn|Error)");

  /**
   * Whether a value is only handed on in the loop: to a wait, a setter or a log call ({@code
   * SECONDS.sleep(BEAT_TIMEOUT)}, {@code request.setReadTimeout(READ_TIMEOUT)}, {@code log.warn(..,
   * elapsed)}), into a local that goes only there ({@code long start = System.currentTimeMillis()}
   * read only by {@code setRunTime(end - start)}), to a call whose result nobody reads and whose
   * name speaks of no bound ({@code socket.connect(address, connectionTimeout)}, {@code
   * strategy.connectFailed(start, index)}), into an array record ({@code attemptStartTimes[i] =
   * start}), or to a test that only waits first ({@link #onlyWaits}). It sets how long one wait or
   * attempt lasts, or is reported, but no decision to leave the loop reads it.
   */
  private static boolean onlyPassedOn(MethodAnalysis analysis, Node node, LoopInfo loop) {
    return onlyPassedOn(analysis, node, loop, new HashSet<>());
  }

  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean onlyPassedOn(
      MethodAnalysis analysis, Node node, LoopInfo loop, Set<String> followed) {
    if (node instanceof Expr.Call setter && isSetter(setter.name())) {
      return true; // request.setReadTimeout(..): configures an attempt
    }
    Node child = node;
    for (Node p = analysis.parent(node);
        p != null && p != loop.node();
        child = p, p = analysis.parent(p)) {
      if (p instanceof Expr.Call call && call.receiver() != child) {
        String name = call.name();
        if (isSleep(name) || LOGGING.matcher(name).matches() || isSetter(name)) {
          return true;
        }
        if (analysis.parent(call) instanceof Stmt.ExprStmt && !BOUND_CALL.matches(name)) {
          // connect(address, timeoutMillis), strategy.connectFailed(start, ..): a call whose
          // result nobody reads is given the value; no decision to leave the loop reads it
          return true;
        }
      }
      // attemptStartTimes[i] = start: a record of the attempt, read (if at all) where it is read
      if (p instanceof Expr.Assign assign
          && assign.value() == child
          && assign.target() instanceof Expr.ArrayAccess) {
        return true;
      }
      if (p instanceof Expr.ArrayAccess access
          && access.array() == child
          && analysis.parent(p) instanceof Expr.Assign assign
          && assign.target() == p) {
        return true; // the record written: attemptStartTimes[i] = ..
      }
      if (p instanceof Stmt.If check && check.condition() == child) {
        return (check.otherwise() == null && onlyWaits(check.then())) || neverLeaves(check);
      }
      // long start = System.currentTimeMillis(): judged by where the local goes
      if (p instanceof Stmt.LocalVar local && local.init() == child) {
        return usesOnlyPassedOn(analysis, local.name(), loop, followed);
      }
      if (p instanceof Expr.Assign assign
          && assign.value() == child
          && assign.target() instanceof Expr.Name target
          && target.isVariable(target.name())
          && target.kind() == Expr.NameKind.LOCAL) {
        return usesOnlyPassedOn(analysis, target.name(), loop, followed);
      }
      if (p instanceof Stmt || p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  /**
   * Whether every read of a local in the loop is only handed on ({@code jec.setJobRunTime(end -
   * start)}): a clock read to report how long an attempt took bounds nothing.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean usesOnlyPassedOn(
      MethodAnalysis analysis, String local, LoopInfo loop, Set<String> followed) {
    if (!followed.add(local)) {
      return true; // already being judged
    }
    boolean read = false;
    for (Node n : analysis.loopLevel(loop)) {
      if (!(n instanceof Expr.Name name) || !name.isVariable(local)) {
        continue;
      }
      if (analysis.parent(n) instanceof Expr.Assign assign && assign.target() == n) {
        continue; // end = ..: a write, not a read
      }
      if (!onlyPassedOn(analysis, n, loop, followed)) {
        return false;
      }
      read = true;
    }
    return read;
  }

  private static boolean isSetter(String name) {
    return name.length() > 3 && name.startsWith("set") && Character.isUpperCase(name.charAt(3));
  }

  /**
   * Whether a branch waits and goes on, never leaving: {@code if (!limiter.tryAcquire(5, SECONDS))
   * { SECONDS.sleep(5); }} holds the loop back; it does not end it.
   */
  private static boolean onlyWaits(Stmt branch) {
    boolean waits = false;
    for (Node n : Nodes.sameFrame(branch)) {
      if (n instanceof Stmt.Break
          || n instanceof Stmt.Return
          || n instanceof Stmt.Throw
          || n instanceof Stmt.Continue) {
        return false;
      }
      waits |= n instanceof Expr.Call call && isSleep(call.name());
    }
    return waits;
  }

  /**
   * Whether an {@code if} cannot end the loop: no branch leaves, throws, continues or stops, and
   * only locals are given values ({@code if (timeToSleep <= 0) { timeToSleep = 100L; }}). What it
   * decides is how long to wait, not whether to go on.
   */
  private static boolean neverLeaves(Stmt.If check) {
    List<Node> branches = new ArrayList<>(Nodes.sameFrame(check.then()));
    if (check.otherwise() != null) {
      branches.addAll(Nodes.sameFrame(check.otherwise()));
    }
    for (Node n : branches) {
      if (n instanceof Stmt.Break
          || n instanceof Stmt.Return
          || n instanceof Stmt.Throw
          || n instanceof Stmt.Continue) {
        return false;
      }
      if (n instanceof Expr.Assign assign
          && !(assign.target() instanceof Expr.Name target
              && target.kind() == Expr.NameKind.LOCAL)) {
        return false; // a field or an element: perhaps a stop flag, perhaps a record
      }
      if (n instanceof Expr.Call call && !isSleep(call.name())) {
        return false; // a call may stop the component
      }
    }
    return true;
  }

  /** A sleep, or a method named for one: {@code sleepUnlessStopped(ms)}, {@code sleepQuietly}. */
  private static boolean isSleep(String name) {
    return CallNames.SLEEPS.contains(name) || name.startsWith("sleep");
  }

  /**
   * Whether an exit condition bounds the retries: it compares numbers (a count or a time), or, when
   * {@code policyCalls}, asks a call that is neither about the caught failure nor a stop flag (a
   * policy's decision to give up).
   */
  private static boolean bounds(MethodAnalysis analysis, Expr condition, boolean policyCalls) {
    Expr tested = condition;
    while (tested instanceof Expr.Unary not && not.operator().equals("!")) {
      tested = not.operand();
    }
    if (tested instanceof Expr.Call check && CONFIGURATION_CHECK.matches(check.name())) {
      return false; // if (servers.isEmpty()) throw ..: nothing to retry against, no cap
    }
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Binary binary
          && switch (binary.operator()) {
            case "<", "<=", ">", ">=" -> true;
            default -> false;
          }) {
        return true;
      }
      if (policyCalls
          && n instanceof Expr.Call call
          && !isStopCall(call)
          && !readsFlagField(call)
          && !mentionsCaughtFailure(analysis, call)
          && !isCurrentThread(call)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a call asks whether the component was stopped: a running or closed check ({@code
   * isRunning()}, {@code isClosed()}), or the component's own {@code isDone()} (no receiver, no
   * argument: its exit state, not a future's result).
   */
  private static boolean isStopCall(Expr.Call call) {
    return STOP_CALL.matches(call.name())
        || (call.name().equals("isDone") && call.receiver() == null && call.args().isEmpty());
  }

  /** Whether the condition reads a stop flag: a field the loop does not set, or a running check. */
  private static boolean readsStopFlag(MethodAnalysis analysis, LoopInfo loop, Expr condition) {
    Set<String> assigned = assignedOutsideCatches(analysis, loop);
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Call call && isStopCall(call)) {
        return true;
      }
      if (n instanceof Expr.Name name
          && name.kind() == Expr.NameKind.FIELD
          && !assigned.contains(name.name())
          && !name.type().isKnown()) {
        return true;
      }
      if (n instanceof Expr.Name name
          && name.kind() == Expr.NameKind.FIELD
          && !assigned.contains(name.name())
          && (name.type().name().equals("boolean")
              || name.type().isSubtypeOf("java.util.concurrent.atomic.AtomicBoolean"))) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> assignedOutsideCatches(MethodAnalysis analysis, LoopInfo loop) {
    Set<String> assigned = new HashSet<>();
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && !analysis.isInCatchBody(n, loop.node())) {
        assigned.add(target.name());
      }
      if (n instanceof Expr.Call call
          && (call.name().equals("set") || call.name().equals("compareAndSet"))
          && call.receiver() instanceof Expr.Name target
          && !analysis.isInCatchBody(n, loop.node())) {
        assigned.add(target.name()); // done.set(true): a success flag
      }
    }
    return assigned;
  }

  /** {@code closed.get()}: reading a flag held in a field, not asking a policy. */
  private static boolean readsFlagField(Expr.Call call) {
    return call.args().isEmpty()
        && (call.name().equals("get") || call.name().equals("getAsBoolean"))
        && call.receiver() instanceof Expr.Name field
        && field.kind() == Expr.NameKind.FIELD;
  }

  /** Whether a branch throws: giving up, rather than leaving on success. */
  private static boolean throwsOut(Stmt branch) {
    for (Node n : Nodes.sameFrame(branch)) {
      if (n instanceof Stmt.Throw) {
        return true;
      }
    }
    return false;
  }

  /** {@code Thread.currentThread()}: the receiver of an interruption check. */
  private static boolean isCurrentThread(Expr.Call call) {
    return call.name().equals("currentThread");
  }

  private static boolean mentionsCaughtFailure(MethodAnalysis analysis, Expr.Call call) {
    Stmt.Catch clause = null;
    for (Node p = analysis.parent(call); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.Catch c) {
        clause = c;
        break;
      }
    }
    return clause != null && Nodes.mentions(call, clause.parameter());
  }

  /**
   * A handler that passes the failure to a call that may throw it: one that declares so, or one
   * shaped like a retry engine's hook ({@code context.onRuntimeError(e)}, {@code
   * registerThrowable(e)}, {@code handleFailure(e)}, {@code throwIfFatal(e)}): a policy decides.
   */
  private static boolean handsFailureToPolicy(Stmt.Catch clause) {
    for (Expr.Call call : Nodes.calls(clause.body())) {
      if (!call.args().stream().anyMatch(a -> Nodes.mentions(a, clause.parameter()))) {
        continue;
      }
      if ((call.method().resolved() && !call.method().thrown().isEmpty())
          || POLICY_HOOK.matches(call.name())) {
        return true;
      }
    }
    return false;
  }
}
