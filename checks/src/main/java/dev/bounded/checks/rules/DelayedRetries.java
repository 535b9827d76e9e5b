package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Retries not written as loops: work handed to a scheduler to run again after a delay, from a catch
 * clause ({@code catch (IOException e) { timer.schedule(resend, 1000); }}) or from a failure
 * callback ({@code onFailure(Throwable t)}, {@code handleError(..)}, {@code exceptionCaught(..)})
 * or a helper only such callbacks call. What {@link Backoffs} (their delays are backoffs) and
 * {@link UnboundedLoops} (nothing may cap them) share.
 */
final class DelayedRetries {
  /**
   * A call that runs work later.
   *
   * @param call the call
   * @param delay its delay argument
   * @param unit the {@code TimeUnit} constant's name when known, else {@code null}
   */
  record Delayed(Expr.Call call, Expr delay, String unit) {}

  /** The names of {@code java.util.concurrent.TimeUnit}'s constants. */
  private static final Set<String> UNITS =
      Set.of("NANOSECONDS", "MICROSECONDS", "MILLISECONDS", "SECONDS", "MINUTES", "HOURS", "DAYS");

  private DelayedRetries() {}

  /** Returns the call's delay if it schedules work to run later, else {@code null}. */
  static Delayed delayed(Expr.Call call) {
    List<Expr> args = call.args();
    switch (call.name()) {
      case "schedule", "newTimeout" -> {
        if (args.size() == 3 && unitName(args.get(2)) != null && isTimeAmount(args.get(1))) {
          return new Delayed(call, args.get(1), unitName(args.get(2)));
        }
        if (call.name().equals("schedule") && args.size() == 2 && isMillis(args.get(1))) {
          return new Delayed(call, args.get(1), "MILLISECONDS"); // java.util.Timer
        }
        return null;
      }
      case "setTimer" -> {
        return args.size() == 2 && isMillis(args.get(0))
            ? new Delayed(call, args.get(0), "MILLISECONDS") // Vert.x
            : null;
      }
      case "postDelayed" -> {
        return args.size() == 2 && isMillis(args.get(1))
            ? new Delayed(call, args.get(1), "MILLISECONDS")
            : null;
      }
      default -> {
        if (!CallNames.isDelayedSchedule(call.name()) || args.size() < 2) {
          return null;
        }
        Expr last = args.get(args.size() - 1);
        if (unitName(last) != null && isTimeAmount(args.get(args.size() - 2))) {
          return new Delayed(call, args.get(args.size() - 2), unitName(last));
        }
        return isTimeAmount(last) ? new Delayed(call, last, null) : null;
      }
    }
  }

  /** {@code TimeUnit.SECONDS} or a statically imported {@code SECONDS}. */
  private static String unitName(Expr expr) {
    if (expr instanceof Expr.Name name
        && UNITS.contains(name.name())
        && (!name.type().isKnown() || name.type().isSubtypeOf("java.util.concurrent.TimeUnit"))) {
      return name.name();
    }
    return null;
  }

  /** A number or a {@code Duration}, or a value whose type the frontend does not know. */
  private static boolean isTimeAmount(Expr expr) {
    if (expr instanceof Expr.Literal literal) {
      return literal.value() instanceof Integer || literal.value() instanceof Long;
    }
    String type = expr.type().name();
    return type.isEmpty()
        || type.equals("int")
        || type.equals("long")
        || type.equals("java.lang.Integer")
        || type.equals("java.lang.Long")
        || type.equals("double") // (long) (Math.pow(2, n) * 1000): the cast is not in the model
        || type.equals("float")
        || type.equals("java.time.Duration");
  }

  /** An amount of milliseconds: an integer, not a {@code Date} or a {@code Duration}. */
  private static boolean isMillis(Expr expr) {
    return isTimeAmount(expr) && !expr.type().name().equals("java.time.Duration");
  }

  /**
   * Tells whether the method is a failure callback: a handler by its name with a failure among its
   * parameters ({@code onException(Throwable e)}, {@code handleError(EtcdException e, ..)}).
   */
  static boolean isFailureHandler(MethodModel method) {
    if (!CallNames.isFailureHandlerName(method.name())) {
      return false;
    }
    for (MethodModel.Param param : method.params()) {
      if (isFailureType(param.type())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a parameter's type is a failure: a {@code Throwable}, or named like one. */
  static boolean isFailureType(TypeRef type) {
    String name = type.simpleName();
    return type.isSubtypeOf("java.lang.Throwable")
        || name.endsWith("Exception")
        || name.endsWith("Error")
        || name.equals("Throwable");
  }

  /**
   * Tells whether the method runs on a failure path: it is a failure callback, or a method of the
   * unit that only failure callbacks call ({@code reschedule()} called from {@code onError(t)}).
   */
  static boolean onFailurePath(MethodAnalysis analysis) {
    MethodModel method = analysis.method();
    if (isFailureHandler(method)) {
      return true;
    }
    if (method.isConstructor()) {
      return false;
    }
    List<MethodModel> callers =
        analysis.context().unit().memo(Callers.class, Callers::new).of(method);
    if (callers.isEmpty()) {
      return false;
    }
    for (MethodModel caller : callers) {
      if (!isFailureHandler(caller)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns the method's delayed schedulings that retry: in a catch clause, or anywhere in a method
   * on a failure path. Not those in lambdas (they run later, elsewhere).
   */
  static List<Delayed> retries(MethodAnalysis analysis) {
    List<Delayed> found = new ArrayList<>();
    Boolean failurePath = null;
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      Delayed delayed = delayed(call);
      if (delayed == null || analysis.isSelfReschedule(call)) {
        continue; // a task rescheduling itself is a loop of its own (LoopInfo.Kind.RESCHEDULE)
      }
      if (analysis.isInCatchBody(call, null)) {
        if (!afterStateCheck(analysis, call) && !alsoScheduledOtherwise(analysis, call)) {
          found.add(delayed);
        }
        continue;
      }
      if (failurePath == null) {
        failurePath = onFailurePath(analysis);
      }
      if (failurePath && !fromCaller(analysis, delayed.delay())) {
        found.add(delayed);
      }
    }
    List<Expr.Call> inLambdas = inFailureLambdas(analysis);
    for (Expr.Call call : inLambdas) {
      Delayed delayed = delayed(call);
      if (delayed != null && !alsoScheduledOtherwise(analysis, call)) {
        found.add(delayed);
      }
    }
    return found;
  }

  /**
   * Whether the catch clause around {@code node} only catches what checks of the component's own
   * state throw: every call of its try block is to a method of the unit that makes no call but to
   * build the exception it throws ({@code makeSureStateOK()}: {@code if (state != RUNNING) throw
   * new ClientException(..)}). Work scheduled again after such a failure re-checks local state; it
   * sends nothing to a dependency, so there is no wave of clients for a backoff to spread.
   */
  static boolean afterStateCheck(MethodAnalysis analysis, Node node) {
    Stmt.Catch clause = enclosingCatch(analysis, node);
    if (clause == null) {
      return false;
    }
    List<Expr.Call> calls = Nodes.calls(analysis.tryOf(clause).body());
    if (calls.isEmpty()) {
      return false;
    }
    for (Expr.Call call : calls) {
      if (!isStateCheck(analysis, call)) {
        return false;
      }
    }
    return true;
  }

  /** The catch clause whose body holds {@code node} (not across a lambda), or {@code null}. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static Stmt.Catch enclosingCatch(MethodAnalysis analysis, Node node) {
    Node child = node;
    for (Node p = analysis.parent(node); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Catch clause) {
        return clause.body() == child ? clause : null;
      }
      if (p instanceof Expr.Lambda) {
        return null;
      }
    }
    return null;
  }

  /**
   * A call to a method of the unit that only reads state and throws: no loop, no try, no lambda,
   * and no call outside the exception it throws.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean isStateCheck(MethodAnalysis analysis, Expr.Call call) {
    MethodModel callee = analysis.context().unit().declarationOf(call);
    if (callee == null || callee == analysis.method() || callee.body() == null) {
      return false;
    }
    Set<Node> thrown = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (Node n : Nodes.preOrder(callee.body())) {
      if (n instanceof Stmt.Loop || n instanceof Stmt.Try || n instanceof Expr.Lambda) {
        return false;
      }
      if (n instanceof Stmt.Throw t && t.value() != null) {
        thrown.addAll(Nodes.calls(t.value()));
        thrown.add(t);
      }
    }
    if (thrown.isEmpty()) {
      return false;
    }
    for (Expr.Call inner : Nodes.calls(callee.body())) {
      if (!thrown.contains(inner)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the method also makes the same scheduling, written the same, outside its catch clauses
   * and failure callbacks ({@code newTimeout(this, period, SECONDS)} in the branch that needs no
   * watcher), with a delay that is a period ({@link #isPeriod}): the failure path then starts the
   * component's ordinary periodic work (a fallback to polling), it does not retry what failed. A
   * delay named for failures ({@code delayWhenException}) shared with other branches is still a
   * retry's.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean alsoScheduledOtherwise(MethodAnalysis analysis, Expr.Call scheduling) {
    Delayed delayed = delayed(scheduling);
    String text = withoutSpaces(analysis, scheduling);
    if (text == null || delayed == null || !isPeriod(delayed.delay())) {
      return false;
    }
    for (Node n : analysis.bodyFrameNodes()) {
      if (n != scheduling
          && n instanceof Expr.Call other
          && other.name().equals(scheduling.name())
          && !analysis.isInCatchBody(other, null)
          && text.equals(withoutSpaces(analysis, other))) {
        return true;
      }
    }
    return false;
  }

  /** Names of values that hold the period of a component's ordinary work. */
  private static final java.util.regex.Pattern PERIOD =
      java.util.regex.Pattern.compile("(?i).*(period|interval|poll|refresh).*");

  /** Names of values that follow failures. */
  private static final java.util.regex.Pattern FAILURE =
      java.util.regex.Pattern.compile("(?i).*(fail|error|exception|retr|backoff|back_off).*");

  /**
   * Whether a delay reads a period ({@code conf.getPatternAutoDiscoveryPeriod()}, {@code
   * pollInterval}) and nothing named for failures ({@code delayWhenException}).
   */
  private static boolean isPeriod(Expr delay) {
    boolean period = false;
    for (Node n : Nodes.sameFrame(delay)) {
      String name =
          n instanceof Expr.Name read
              ? read.name()
              : n instanceof Expr.Call call ? call.name() : "";
      if (FAILURE.matcher(name).matches()) {
        return false;
      }
      period |= PERIOD.matcher(name).matches();
    }
    return period;
  }

  private static String withoutSpaces(MethodAnalysis analysis, Expr.Call call) {
    if (!call.span().isKnown()) {
      return null;
    }
    return analysis.context().text(call.span()).replaceAll("\\s+", "");
  }

  /**
   * Returns the calls that run on the failure path of a callback lambda: the body of {@code
   * exceptionally(failure -> ..)}, the {@code failure != null} branch of {@code whenComplete((r,
   * failure) -> ..)} and {@code handle(..)} (not in the lambdas' own nested lambdas).
   */
  static List<Expr.Call> inFailureLambdas(MethodAnalysis analysis) {
    List<Expr.Call> found = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call callback)
          || !(CallNames.COMPLETION_CALLBACKS.contains(callback.name())
              || CallNames.FAILURE_CALLBACKS.contains(callback.name()))
          || callback.args().isEmpty()
          || !(callback.args().get(0) instanceof Expr.Lambda lambda)) {
        continue;
      }
      boolean whole = CallNames.FAILURE_CALLBACKS.contains(callback.name());
      int index = whole ? 0 : 1;
      if (lambda.params().size() <= index) {
        continue;
      }
      String failure = lambda.params().get(index);
      for (Node m : Nodes.sameFrame(lambda.body())) {
        if (m instanceof Expr.Call call
            && m != lambda
            && (whole || onFailureBranch(analysis, call, lambda, failure))) {
          found.add(call);
        }
      }
    }
    return found;
  }

  /** Whether a call in the lambda runs only when {@code failure} is set. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean onFailureBranch(
      MethodAnalysis analysis, Node call, Expr.Lambda lambda, String failure) {
    Node child = call;
    for (Node p = analysis.parent(call); p != null && p != lambda; p = analysis.parent(p)) {
      if (p instanceof Stmt.If check
          && check.condition() instanceof Expr.Binary test
          && (test.operator().equals("!=") || test.operator().equals("=="))
          && (isNamed(test.left(), failure) || isNamed(test.right(), failure))
          && (isNull(test.left()) || isNull(test.right()))) {
        boolean set = test.operator().equals("!=");
        return set ? check.then() == child : check.otherwise() == child;
      }
      child = p;
    }
    return false;
  }

  static boolean isNamed(Expr expr, String name) {
    return expr instanceof Expr.Name n && n.name().equals(name) && n.qualifier() == null;
  }

  static boolean isNull(Expr expr) {
    return expr instanceof Expr.Literal literal && literal.value() == null;
  }

  /**
   * Whether a helper's delay is its caller's ({@code executeLater(request, delay)}): the wait is
   * judged at the call that passes it, not twice.
   */
  private static boolean fromCaller(MethodAnalysis analysis, Expr delay) {
    if (isFailureHandler(analysis.method())) {
      return false;
    }
    for (MethodModel.Param param : analysis.method().params()) {
      if (Nodes.mentions(delay, param.name())) {
        return true;
      }
    }
    return false;
  }

  /** Which methods of the unit call which: computed once per unit. */
  static final class Callers {
    private final IdentityHashMap<MethodModel, List<MethodModel>> callers = new IdentityHashMap<>();

    @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
    Callers(UnitIndex unit) {
      for (MethodModel caller : unit.methods()) {
        if (caller.body() == null) {
          continue;
        }
        for (Expr.Call call : Nodes.calls(caller.body())) {
          MethodModel callee = unit.declarationOf(call);
          if (callee != null && callee != caller) {
            List<MethodModel> list = callers.computeIfAbsent(callee, k -> new ArrayList<>());
            if (list.isEmpty() || list.get(list.size() - 1) != caller) {
              list.add(caller);
            }
          }
        }
      }
    }

    List<MethodModel> of(MethodModel method) {
      return callers.getOrDefault(method, List.of());
    }
  }
}
