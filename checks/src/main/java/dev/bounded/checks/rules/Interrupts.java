package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.analysis.StopFlags;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import dev.bounded.checks.model.UnitIndex;
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
          "completeWithError",
          "setException",
          "obtrudeException",
          "onError",
          "onFailure",
          "onException",
          "onThrowable",
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
   * named directly, or caught through a supertype when the body can throw it (a call declares it or
   * a subtype, or a {@code throw} creates it) and no earlier clause of the same try takes it.
   */
  static boolean receivesInterrupt(MethodAnalysis analysis, Stmt.Catch clause) {
    return receivesInterrupt(analysis, clause, false);
  }

  /**
   * Like {@link #receivesInterrupt(MethodAnalysis, Stmt.Catch)}, and with {@code
   * throughBroadCallees} a broad catch also receives an interrupt from a call declared to throw a
   * supertype of it: {@code throws Exception}, {@code throws Throwable}, a generic {@code throws E}
   * ({@code Callable.call}, users' functional interfaces): whatever the callee does, an interrupt
   * can come out of it.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean receivesInterrupt(
      MethodAnalysis analysis, Stmt.Catch clause, boolean throughBroadCallees) {
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
    List<Node> sources = new ArrayList<>(t.resources());
    sources.add(t.body());
    UnitIndex unit = analysis.context().unit();
    for (Node source : sources) {
      if (mayThrow(
          source,
          INTERRUPTED_EXCEPTION,
          throughBroadCallees,
          call ->
              CompletedFutures.isKnownComplete(analysis, call)
                  || (throughBroadCallees && broadOnlyWithoutInterrupt(unit, call, SEEN_DEPTH)))) {
        return true;
      }
    }
    return false;
  }

  /** How many calls deep a broad {@code throws} clause is checked against the callee's source. */
  private static final int SEEN_DEPTH = 2;

  /**
   * Whether a call declared to throw only a supertype of {@code InterruptedException} ({@code
   * throws Exception}) goes to a method whose source is seen and that cannot throw one: nothing in
   * its body declares or creates it, through callees followed the same way up to {@code depth}
   * calls deep ({@code validateAddress() throws Exception} that only does blocking socket I/O and
   * parsing). A callee not seen, or deeper than that, may throw it.
   */
  private static boolean broadOnlyWithoutInterrupt(UnitIndex unit, Expr.Call call, int depth) {
    if (depth == 0
        || call.method().declaresThrowing(INTERRUPTED_EXCEPTION)
        || !declaresSupertypeOf(call, INTERRUPTED_EXCEPTION)) {
      return false;
    }
    MethodModel callee = unit.declarationInProject(call);
    if (callee == null || callee.body() == null) {
      return false;
    }
    UnitIndex calleeUnit = unit.contextOf(callee).unit();
    java.util.function.Predicate<Expr.Call> seenWithout =
        inner -> broadOnlyWithoutInterrupt(calleeUnit, inner, depth - 1);
    for (Node n : Nodes.preOrder(callee.body())) {
      if (n instanceof Stmt.Throw thrown
          && !(thrown.value() instanceof Expr.New)
          && !rethrowsOnlyWithoutInterrupt(callee.body(), thrown, seenWithout)) {
        return false; // a rethrow (throw e, throw wrap(e)) may carry what a try caught
      }
    }
    return !mayThrow(callee.body(), INTERRUPTED_EXCEPTION, true, seenWithout);
  }

  /**
   * Whether a throw statement that creates nothing rethrows only what try blocks that cannot throw
   * an {@code InterruptedException} caught: its value is a catch parameter of an enclosing clause
   * ({@code catch (Throwable e) { conn.close(); throw e; }}), or a local that is only ever given
   * {@code null} or such a parameter ({@code exception = e;} in a failover's catch, {@code throw
   * exception;} after it). A wrapper's result ({@code throw wrap(e)}), a field, or a parameter of a
   * clause whose try can throw one may carry an interrupt.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean rethrowsOnlyWithoutInterrupt(
      Stmt.Block body, Stmt.Throw thrown, java.util.function.Predicate<Expr.Call> seenWithout) {
    if (!(thrown.value() instanceof Expr.Name name) || name.qualifier() != null) {
      return false;
    }
    if (caughtWithoutInterrupt(body, name.name(), thrown, seenWithout)) {
      return true;
    }
    boolean declared = false;
    for (Node n : Nodes.preOrder(body)) {
      Expr value;
      if (n instanceof Stmt.LocalVar local && local.name().equals(name.name())) {
        declared = true;
        value = local.init();
      } else if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && target.qualifier() == null
          && target.name().equals(name.name())) {
        if (!assign.operator().equals("=")) {
          return false;
        }
        value = assign.value();
      } else {
        continue; // a catch parameter of the same name is judged where it is thrown or assigned
      }
      if (value == null || (value instanceof Expr.Literal literal && literal.value() == null)) {
        continue;
      }
      if (!(value instanceof Expr.Name given
          && given.qualifier() == null
          && caughtWithoutInterrupt(body, given.name(), n, seenWithout))) {
        return false;
      }
    }
    return declared;
  }

  /**
   * Whether {@code at} lies in a catch clause whose parameter is {@code parameter} and whose try
   * (its resources and block) cannot throw an {@code InterruptedException}.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean caughtWithoutInterrupt(
      Stmt.Block body,
      String parameter,
      Node at,
      java.util.function.Predicate<Expr.Call> seenWithout) {
    for (Node n : Nodes.preOrder(body)) {
      if (!(n instanceof Stmt.Try t)) {
        continue;
      }
      for (Stmt.Catch clause : t.catches()) {
        if (!clause.parameter().equals(parameter)
            || Nodes.preOrder(clause.body()).stream().noneMatch(inner -> inner == at)) {
          continue;
        }
        for (Node source : t.resources()) {
          if (mayThrow(source, INTERRUPTED_EXCEPTION, true, seenWithout)) {
            return false;
          }
        }
        return !mayThrow(t.body(), INTERRUPTED_EXCEPTION, true, seenWithout);
      }
    }
    return false;
  }

  /**
   * Tells whether code can throw {@code type}: a call declares it (or, with {@code
   * throughBroadCallees}, a supertype of it), or a {@code throw} creates it. Lambda bodies and
   * inner try blocks that catch it are not counted.
   */
  static boolean mayThrow(Node root, String type, boolean throughBroadCallees) {
    return mayThrow(root, type, throughBroadCallees, call -> false);
  }

  /** Like {@link #mayThrow(Node, String, boolean)}, not counting the calls {@code cannotThrow}. */
  private static boolean mayThrow(
      Node root,
      String type,
      boolean throughBroadCallees,
      java.util.function.Predicate<Expr.Call> cannotThrow) {
    if (root instanceof Expr.Lambda) {
      return false;
    }
    if (root instanceof Stmt.Try t) {
      boolean caught = t.catches().stream().anyMatch(c -> c.catches(type));
      if (!caught && mayThrow(t.body(), type, throughBroadCallees, cannotThrow)) {
        return true;
      }
      for (Node child : t.children()) {
        if (child != t.body() && mayThrow(child, type, throughBroadCallees, cannotThrow)) {
          return true;
        }
      }
      return false;
    }
    if (root instanceof Expr.Call call
        && !cannotThrow.test(call)
        && (call.method().declaresThrowing(type)
            || (throughBroadCallees && declaresSupertypeOf(call, type)))) {
      return true;
    }
    if (root instanceof Stmt.Throw thrown
        && thrown.value() instanceof Expr.New created
        && created.type().isSubtypeOf(type)) {
      return true;
    }
    for (Node child : root.children()) {
      if (mayThrow(child, type, throughBroadCallees, cannotThrow)) {
        return true;
      }
    }
    return false;
  }

  private static boolean declaresSupertypeOf(Expr.Call call, String type) {
    for (TypeRef thrown : call.method().thrown()) {
      if (thrown.isSupertypeOf(type)) {
        return true;
      }
    }
    return false;
  }

  /** The exception types that carry an interrupt to the caller. */
  static final List<String> INTERRUPT_TYPES =
      List.of(
          INTERRUPTED_EXCEPTION,
          "java.io.InterruptedIOException",
          "java.nio.channels.ClosedByInterruptException");

  /**
   * Whether a thrown expression is of a type that carries an interrupt ({@code new
   * InterruptedIOException(..)}, a subtype of it, or, when the frontend cannot resolve the type, a
   * class named so): throwing it propagates the interrupt, with or without the cause.
   */
  static boolean isInterruptTyped(Expr thrown) {
    TypeRef type = thrown instanceof Expr.New created ? created.type() : thrown.type();
    if (type.isKnown()) {
      for (String interrupt : INTERRUPT_TYPES) {
        if (type.isSubtypeOf(interrupt)) {
          return true;
        }
      }
    }
    // A library's own interrupt exception, named so (Kafka's InterruptException restores the flag
    // in its constructor): the type tells callers the thread was interrupted.
    return thrown instanceof Expr.New created && created.type().simpleName().contains("Interrupt");
  }

  /** Whether a call declares that it throws an exception type that carries an interrupt. */
  private static boolean declaresInterruptType(Expr.Call call) {
    for (String interrupt : INTERRUPT_TYPES) {
      if (call.method().declaresThrowing(interrupt)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a handler that can go round again still hands an interrupt on: it throws an
   * interrupt-typed exception, passes the exception to a helper declared to throw one ({@code
   * rethrowIfInterrupt(e)}, {@code throwIfInstanceOf(e, InterruptedException.class)}), or leaves
   * when it finds the failure is an interrupt ({@code if (e instanceof InterruptedException) throw
   * ..}, {@code if (Thread.interrupted()) return}).
   */
  static boolean propagatesAsInterrupt(MethodAnalysis analysis, Stmt.Catch clause) {
    if (handsToCallThatMayRethrow(clause)) {
      return true;
    }
    if (catchesDirectly(clause)) {
      // Every interrupt lands here: a path that goes round again retries it, whatever another
      // path throws (if (interruptibly) throw e;).
      return false;
    }
    String e = clause.parameter();
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Expr.Call call
          && call.args().stream().anyMatch(a -> Nodes.mentions(a, e))
          && (declaresInterruptType(call)
              || (call.name().equals("throwIfInstanceOf")
                  && call.args().stream().anyMatch(Interrupts::namesInterruptClass)))) {
        return true;
      }
      if (n instanceof Stmt.If check
          && testsForInterrupt(check.condition(), e)
          && !Flow.canCompleteNormally(check.then())) {
        return true;
      }
      if (n instanceof Expr.Call call && calleeLeavesOnInterrupt(analysis, call, e)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the call hands the caught exception to a method whose source is seen (this unit or
   * another file) that, when it is an interrupt, restores the flag and throws ({@code
   * extractAndWrapCause(e)} starting with {@code if (e instanceof InterruptedException) {
   * Thread.currentThread().interrupt(); throw ..; }}): the handler never gets past the call with an
   * interrupt.
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  private static boolean calleeLeavesOnInterrupt(
      MethodAnalysis analysis, Expr.Call call, String e) {
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null || callee == analysis.method() || callee.body() == null) {
      return false;
    }
    for (int i = 0; i < call.args().size() && i < callee.params().size(); i++) {
      if (!(call.args().get(i) instanceof Expr.Name arg) || !arg.isVariable(e)) {
        continue;
      }
      String handed = callee.params().get(i).name();
      for (Node n : Nodes.sameFrame(callee.body())) {
        if (n instanceof Stmt.If check
            && testsForInterrupt(check.condition(), handed)
            && restoresFlag(check.then())
            && !Flow.canCompleteNormally(check.then())
            && Nodes.sameFrame(check.then()).stream().noneMatch(r -> r instanceof Stmt.Return)) {
          return true; // it throws: a return would hand control back to the handler
        }
      }
    }
    return false;
  }

  /**
   * Whether the handler hands the exception to a call declared to throw an exception type that
   * could be it ({@code retryLoop.takeException(e)} declaring {@code throws Exception}): a retry
   * policy that rethrows what it will not retry. Whether it rethrows an interrupt is the callee's
   * business, which this unit may not see: silent.
   */
  private static boolean handsToCallThatMayRethrow(Stmt.Catch clause) {
    String e = clause.parameter();
    for (Expr.Call call : Nodes.calls(clause.body())) {
      if (call.args().stream().anyMatch(a -> Nodes.mentions(a, e))) {
        for (TypeRef thrown : call.method().thrown()) {
          if (thrown.isSupertypeOf(INTERRUPTED_EXCEPTION)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** {@code e instanceof InterruptedException}, {@code Thread.interrupted()}, and the like. */
  private static boolean testsForInterrupt(Expr condition, String e) {
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.InstanceOf test
          && Nodes.mentions(test.expr(), e)
          && INTERRUPT_TYPES.stream().anyMatch(test.tested()::isSubtypeOf)) {
        return true;
      }
      if (n instanceof Expr.Call call
          && (call.name().equals("interrupted") || call.name().equals("isInterrupted"))) {
        return true;
      }
    }
    return false;
  }

  /** {@code InterruptedException.class} and the other interrupt types' class literals. */
  private static boolean namesInterruptClass(Expr arg) {
    return arg instanceof Expr.Name literal
        && literal.name().equals("class")
        && literal.qualifier() instanceof Expr.Name type
        && CallNames.INTERRUPT_TYPES.contains(type.name());
  }

  /** Whether a call hands an exception on to someone else (a future, a callback, a rethrower). */
  static boolean isPropagatingCall(String name) {
    return PROPAGATING_CALLS.contains(name);
  }

  /**
   * Whether a callee's code restores the current thread's flag: {@code
   * Thread.currentThread().interrupt()}, or a helper named for restoring it ({@code
   * restoreInterrupt()}); not {@code worker.interrupt()} or {@code interruptWorkers()}, which stop
   * other threads.
   */
  private static boolean interruptsCurrentThread(Node body) {
    for (Expr.Call call : callsOnOwnPath(body)) {
      String name = call.name();
      if (name.equals("interrupt")) {
        if (call.receiver() instanceof Expr.Call current
            && current.name().equals("currentThread")) {
          return true;
        }
      } else if (name.toLowerCase(Locale.ROOT).contains("interrupt")
          && !name.startsWith("interrupt")
          && !name.equals("isInterrupted")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the code restores the interrupt flag ({@code Thread.currentThread().interrupt()}) on
   * its own path: a restore in a catch clause nested in it answers that clause's exception only
   * ({@code catch (Exception e) { try { close(); } catch (InterruptedException ie) {
   * Thread.currentThread().interrupt(); } }} loses the interrupt {@code e} may be).
   */
  static boolean restoresFlag(Node body) {
    for (Expr.Call call : callsOnOwnPath(body)) {
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
   * The calls below {@code root} in its frame, outside catch clauses nested in it: what runs
   * whatever the code's own try blocks throw.
   */
  private static List<Expr.Call> callsOnOwnPath(Node root) {
    List<Expr.Call> calls = new ArrayList<>();
    for (Node n :
        Nodes.preOrder(
            root, n -> n == root || !(n instanceof Expr.Lambda || n instanceof Stmt.Catch))) {
      if (n instanceof Expr.Call call) {
        calls.add(call);
      }
    }
    return calls;
  }

  /** How many calls deep a handler's helpers are followed for a restore of the flag. */
  private static final int RESTORE_DEPTH = 2;

  /**
   * Like {@link #restoresFlag(Node)}, and a call to a method whose source the frontend sees (the
   * same unit, another file, or the only implementation there of an interface method) that restores
   * it counts too, up to {@value #RESTORE_DEPTH} calls deep ({@code throw interrupted(e)} where
   * {@code interrupted} restores, then wraps; {@code throw Errors.wrap(e)} in another file, which
   * calls {@code restoreInterrupt(e)}).
   */
  static boolean restoresFlag(MethodAnalysis analysis, Node body) {
    return restoresFlag(analysis.context().unit(), analysis.method(), body, RESTORE_DEPTH);
  }

  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  private static boolean restoresFlag(UnitIndex unit, MethodModel method, Node body, int depth) {
    // The handler's own body may restore through any helper named for it; a callee counts only
    // when it interrupts the current thread (shutdown() that interrupts a worker thread does not).
    if (depth == RESTORE_DEPTH ? restoresFlag(body) : interruptsCurrentThread(body)) {
      return true;
    }
    if (depth == 0) {
      return false;
    }
    for (Expr.Call call : Nodes.calls(body)) {
      MethodModel callee = unit.declarationInProject(call);
      if (callee != null
          && callee != method
          && callee.body() != null
          && restoresFlag(unit.contextOf(callee).unit(), callee, callee.body(), depth - 1)) {
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
        // Rethrown as it is, or as an interrupt. Wrapped in another exception (new
        // RuntimeException(e)) it is not: the type that says "interrupted" is gone, the flag is
        // cleared, and callers that catch the wrapper carry on.
        if ((isVariable(thrown.value(), e) && !onlyForOtherTypes(analysis, thrown, e, clause))
            || isInterruptTyped(thrown.value())) {
          return true;
        }
        // Thrown as built by a helper whose source is not seen (throw Exceptions.bubble(e)): it
        // may restore the flag before wrapping, so nothing is known and the rule stays silent.
        // The helper must be given the exception itself: one given a wrapper built here
        // (extract(e).orElse(new UaException(code, e))) sees no interrupt to restore.
        if (thrown.value() instanceof Expr.Call helper
            && helper.args().stream().anyMatch(a -> isVariable(a, e))
            && analysis.context().unit().declarationInProject(helper) == null
            && !logsWhatItIsGiven(helper, e)) {
          return true;
        }
        if (thrown.value() instanceof Expr.Name local && local.isVariable(local.name())) {
          for (Expr value : analysis.valuesOf(local.name())) {
            if (isVariable(value, e) || isInterruptTyped(value)) {
              return true;
            }
          }
        }
      } else if (n instanceof Stmt.Return returned
          && returned.value() != null
          && Nodes.mentions(returned.value(), e)) {
        return true;
      } else if (n instanceof Expr.Call call
          && declaresInterruptType(call)
          && call.args().stream().anyMatch(a -> Nodes.mentions(a, e))) {
        return true; // a helper that rethrows it as an interrupt: rethrowIfInterrupt(e)
      } else if (n instanceof Expr.Call call && rethrowsWhatItIsGiven(analysis, call, e)) {
        return true; // a sneaky throw: Utils.throwAsUnchecked(e) is throw (E) t
      } else if (n instanceof Expr.Call call
          && PROPAGATING_CALLS.contains(call.name())
          && !causeOfNewWrapper(analysis, call)) {
        // Handed to a failure callback; not when wrapped in an exception that does not say
        // interrupted, which loses the interrupt as throwing that wrapper would.
        for (Expr arg : call.args()) {
          if (Nodes.mentions(arg, e) && !wrapsAway(analysis, arg, e)) {
            return true;
          }
        }
      } else if (n instanceof Expr.Call call
          && STORING_CALLS.contains(call.name())
          && (isField(call.receiver()) || isLocalThrownLater(analysis, call.receiver()))) {
        // Stored in a field that another thread rethrows, or in a local holder the method throws
        // from once every step has run (close all, then throw the first failure).
        for (Expr arg : call.args()) {
          if (Nodes.mentions(arg, e)) {
            return true;
          }
        }
      } else if (recordsInterruptInField(n)) {
        return true; // this.interrupted = true: the object keeps the interrupt for its readers
      } else if (n instanceof Expr.Assign assign
          && (Nodes.mentions(assign.value(), e)
              || (assign.value() instanceof Expr.New && isInterruptTyped(assign.value())))) {
        // Kept for later: in a field for another thread, or for this method's own later throw,
        // which (as a throw here would) loses the interrupt when it throws a wrapper. A local
        // thrown after the remaining steps have run is the close-all idiom: left as it was.
        boolean wrapped = wrapsAway(analysis, assign.value(), e);
        if (isField(assign.target())) {
          if (!wrapped || !fieldThrownLater(analysis, ((Expr.Name) assign.target()).name())) {
            return true;
          }
        } else if (assign.target() instanceof Expr.Name local
            && local.isVariable(local.name())
            && thrownLater(analysis, local.name())) {
          return true; // kept in a local and thrown after the loop or lock
        }
      }
    }
    return false;
  }

  /**
   * Whether a call sets the exception as the cause of a wrapper built here that does not say
   * interrupted ({@code SQLException sx = new SQLException("Pool wait interrupted.");
   * sx.initCause(ex); throw sx;}): the same wrap as {@code new SQLException(.., ex)}, not a
   * hand-over. A wrapper that says interrupted ({@code new InterruptedIOException().initCause(e)})
   * keeps the fact.
   */
  private static boolean causeOfNewWrapper(MethodAnalysis analysis, Expr.Call call) {
    if (!call.name().equals("initCause")) {
      return false;
    }
    List<Expr> wrappers = new ArrayList<>();
    if (call.receiver() instanceof Expr.New created) {
      wrappers.add(created);
    } else if (call.receiver() instanceof Expr.Name local
        && local.qualifier() == null
        && local.isVariable(local.name())) {
      wrappers.addAll(analysis.valuesOf(local.name()));
    }
    if (wrappers.isEmpty()) {
      return false;
    }
    for (Expr wrapper : wrappers) {
      if (!(wrapper instanceof Expr.New) || isInterruptTyped(wrapper)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the clause restores the flag only under a switch that does not test the interrupt:
   * every statement of the handler that restores it is an {@code if} without {@code else} whose
   * condition reads neither the exception nor the thread's state ({@code if
   * (getPoolProperties().getPropagateInterruptState()) { Thread.currentThread().interrupt(); }}).
   * With the switch off, as by default, the interrupt is lost.
   */
  static boolean restoresOnlyUnderSwitch(MethodAnalysis analysis, Stmt.Catch clause) {
    boolean guarded = false;
    for (Stmt statement : clause.body().statements()) {
      if (!restoresFlag(analysis, statement)) {
        continue;
      }
      if (!(statement instanceof Stmt.If check)
          || check.otherwise() != null
          || Nodes.mentions(check.condition(), clause.parameter())) {
        return false;
      }
      if (StopFlags.checksStop(check.condition())) {
        return false; // if (!stopping): the owner's own interrupt is not restored, by design
      }
      boolean readsSetting = false;
      for (Node n : Nodes.preOrder(check.condition())) {
        if (n instanceof Expr.InstanceOf
            || (n instanceof Expr.Call test
                && (test.name().equals("isInterrupted")
                    || test.name().equals("interrupted")
                    || test.name().equals("currentThread")))) {
          return false;
        }
        if (n instanceof Expr.Call getter
            && getter.args().isEmpty()
            && (getter.name().startsWith("get") || getter.name().startsWith("is"))) {
          readsSetting = true;
        }
      }
      if (!readsSetting) {
        return false;
      }
      guarded = true;
    }
    return guarded;
  }

  /**
   * Whether the method itself throws the field later ({@code if (failureCause != null) throw
   * failureCause;}): the field holds this method's failure, not one handed to another thread.
   */
  private static boolean fieldThrownLater(MethodAnalysis analysis, String field) {
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Stmt.Throw thrown) {
        for (Node m : Nodes.preOrder(thrown.value())) {
          if (m instanceof Expr.Name name
              && name.kind() == Expr.NameKind.FIELD
              && name.name().equals(field)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Whether a value stored for later wraps the interrupt in an exception that does not say
   * interrupted, as a {@code throw} of it would: {@code new IOException(e)}, or a helper whose
   * source is seen and that does the same ({@code IOExceptionSupport.create(e)}, which returns
   * {@code new IOException(message, cause)} for anything not already an {@code IOException}).
   * Whoever rethrows the stored wrapper throws an {@code IOException}: the interrupt is gone.
   */
  private static boolean wrapsAway(MethodAnalysis analysis, Expr value, String e) {
    if (value instanceof Expr.New created) {
      return !isInterruptTyped(created)
          && created.args().stream().anyMatch(a -> Nodes.mentions(a, e));
    }
    if (!(value instanceof Expr.Call helper)) {
      return false;
    }
    MethodModel callee = analysis.context().unit().declarationInProject(helper);
    if (callee == null || callee.body() == null || helper.args().size() != callee.params().size()) {
      return false;
    }
    String handed = null;
    for (int i = 0; i < helper.args().size(); i++) {
      if (isVariable(helper.args().get(i), e)) {
        handed = callee.params().get(i).name();
      }
    }
    return handed != null
        && returnsOnlyWrappers(
            analysis.context().unit().contextOf(callee).unit(), callee.body(), handed);
  }

  /**
   * Whether every value a helper returns for an interrupt given as {@code param} is a new exception
   * of a type that does not say interrupted; a return under {@code if (param instanceof
   * IOException)} is not taken by an interrupt. A helper that names interrupts at all may treat
   * them apart.
   */
  private static boolean returnsOnlyWrappers(UnitIndex unit, Stmt.Block body, String param) {
    List<Node> skipped = new ArrayList<>();
    boolean returns = false;
    for (Node n : Nodes.sameFrame(body)) {
      if ((n instanceof Expr.Name name
              && name.name().toLowerCase(Locale.ROOT).contains("interrupt"))
          || (n instanceof Expr.Call call
              && call.name().toLowerCase(Locale.ROOT).contains("interrupt"))) {
        return false;
      }
      if (n instanceof Stmt.If check && testsOtherType(unit, check.condition(), param)) {
        skipped.addAll(Nodes.sameFrame(check.then()));
      }
      if (n instanceof Stmt.Return returned && !containsIdentity(skipped, n)) {
        if (!(returned.value() instanceof Expr.New created) || isInterruptTyped(created)) {
          return false;
        }
        returns = true;
      }
    }
    return returns;
  }

  /**
   * Whether a condition holds only for an exception of a type an interrupt is not: {@code param
   * instanceof IOException}; the same test on its cause ({@code param.getCause() instanceof
   * HystrixBadRequestException}: an {@code InterruptedException} has none); or a call to a helper
   * whose source is seen and whose body is only such a test of its parameter ({@code
   * shouldNotBeWrapped(e)} returning {@code underlying instanceof ExceptionNotWrappedByHystrix}).
   */
  private static boolean testsOtherType(UnitIndex unit, Expr condition, String param) {
    if (condition instanceof Expr.InstanceOf test) {
      return isParamOrCause(test.expr(), param) && !isInterruptSupertype(test.tested());
    }
    if (!(condition instanceof Expr.Call helper) || helper.args().size() != 1) {
      return false;
    }
    MethodModel callee = unit.declarationInProject(helper);
    if (callee == null
        || callee.body() == null
        || callee.params().size() != 1
        || !isParamOrCause(helper.args().get(0), param)
        || callee.body().statements().size() != 1
        || !(callee.body().statements().get(0) instanceof Stmt.Return returned)
        || !(returned.value() instanceof Expr.InstanceOf test)) {
      return false;
    }
    return isVariable(test.expr(), callee.params().get(0).name())
        && !isInterruptSupertype(test.tested());
  }

  /** {@code e}, or its cause ({@code e.getCause()}, {@code e.getCause().getCause()}). */
  private static boolean isParamOrCause(Expr expr, String param) {
    Expr e = expr;
    while (e instanceof Expr.Call cause
        && cause.name().equals("getCause")
        && cause.args().isEmpty()
        && cause.receiver() != null) {
      e = cause.receiver();
    }
    return isVariable(e, param);
  }

  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean containsIdentity(List<Node> nodes, Node node) {
    for (Node n : nodes) {
      if (n == node) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a node records the interrupt in a field named for it ({@code interrupted = true},
   * {@code this.wasInterrupted.set(true)}), or puts a state that says interrupted in a field
   * ({@code status = new OperationStatus(false, "Interrupted", StatusCode.INTERRUPTED)}). The
   * object keeps the fact for whoever reads the field (the test that asserts it, the owner that
   * restores it): nothing is lost. A local set so is the "uninterruptibly" idiom ({@link
   * #remembersInterrupt}), and counts only when restored.
   */
  private static boolean recordsInterruptInField(Node n) {
    Expr field = null;
    Expr value = null;
    if (n instanceof Expr.Assign assign && assign.operator().equals("=")) {
      field = assign.target();
      value = assign.value();
    } else if (n instanceof Expr.Call call
        && (call.name().equals("set") || call.name().equals("lazySet"))
        && call.args().size() == 1) {
      field = call.receiver();
      value = call.args().get(0);
    }
    if (field == null || !isField(field)) {
      return false;
    }
    if (((Expr.Name) field).name().toLowerCase(Locale.ROOT).contains("interrupt")
        && Flow.isTrue(value)) {
      return true;
    }
    // status = new OperationStatus(false, "Interrupted", StatusCode.INTERRUPTED): a state that
    // says interrupted, kept for whoever reads it.
    for (Node m : Nodes.preOrder(value)) {
      if (m instanceof Expr.Name constant
          && NamePattern.isConstantName(constant.name())
          && constant.name().contains("INTERRUPT")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a helper only logs an exception built here around the interrupt and returns it: {@code
   * throw logger.logExceptionAsError(new RuntimeException(e))} is {@code throw new
   * RuntimeException(e)} with a log line. The wrapper was built before the helper saw it, so the
   * helper has no interrupt to restore or rethrow.
   */
  private static boolean logsWhatItIsGiven(Expr.Call helper, String e) {
    if (!LOGS_AND_RETURNS.matcher(helper.name()).matches()) {
      return false;
    }
    for (Expr arg : helper.args()) {
      if (Nodes.mentions(arg, e) && (!(arg instanceof Expr.New) || isInterruptTyped(arg))) {
        return false;
      }
    }
    return true;
  }

  private static final java.util.regex.Pattern LOGS_AND_RETURNS =
      java.util.regex.Pattern.compile("log[A-Z]\\w*");

  /** Types an {@code InterruptedException} is an instance of. */
  private static final Set<String> INTERRUPT_SUPERTYPES =
      Set.of(
          INTERRUPTED_EXCEPTION, "java.lang.Exception", "java.lang.Throwable", "java.lang.Object");

  /**
   * Whether a rethrow of {@code e} runs only when {@code e} is of a type an interrupt is not: it
   * sits in the then-branch of {@code if (e instanceof HystrixRuntimeException)}. Such a rethrow
   * ({@code throw (HystrixRuntimeException) e}) never carries an interrupt out.
   */
  private static boolean onlyForOtherTypes(
      MethodAnalysis analysis, Node thrown, String e, Stmt.Catch clause) {
    Node child = thrown;
    for (Node p = analysis.parent(thrown); p != null && p != clause; p = analysis.parent(p)) {
      if (p instanceof Stmt.If check && check.then() == child) {
        for (Node n : Nodes.sameFrame(check.condition())) {
          if (n instanceof Expr.InstanceOf test
              && isVariable(test.expr(), e)
              && !isInterruptSupertype(test.tested())) {
            return true;
          }
        }
      }
      child = p;
    }
    return false;
  }

  private static boolean isInterruptSupertype(TypeRef tested) {
    if (tested.isKnown()) {
      return INTERRUPT_SUPERTYPES.contains(tested.name())
          || tested.isSubtypeOf(INTERRUPTED_EXCEPTION);
    }
    // Without types: by the simple name, of which only the JDK's four are known supertypes.
    String simple = tested.simpleName();
    return simple.isEmpty()
        || simple.endsWith("InterruptedException")
        || simple.equals("Exception")
        || simple.equals("Throwable")
        || simple.equals("Object");
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
    for (Node n : analysis.bodyFrameNodes()) {
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

  static boolean isVariable(Expr expr, String variable) {
    return expr instanceof Expr.Name name && name.isVariable(variable);
  }

  /**
   * Whether a call hands the exception to a method whose source is seen and whose body throws that
   * very parameter, unconditionally, cast or not ({@code throwAsUnchecked(e)} with the body {@code
   * throw (E) t;}): the exception itself goes on, interrupt included.
   */
  private static boolean rethrowsWhatItIsGiven(MethodAnalysis analysis, Expr.Call call, String e) {
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null
        || callee.body() == null
        || callee.body().statements().isEmpty()
        || call.args().size() != callee.params().size()) {
      return false;
    }
    Stmt last = callee.body().statements().get(callee.body().statements().size() - 1);
    if (!(last instanceof Stmt.Throw thrown)
        || Nodes.sameFrame(callee.body()).stream().anyMatch(r -> r instanceof Stmt.Return)) {
      return false;
    }
    for (int i = 0; i < call.args().size(); i++) {
      if (isVariable(call.args().get(i), e)
          && isVariable(thrown.value(), callee.params().get(i).name())) {
        return true;
      }
    }
    return false;
  }

  /** Whether an expression names a field ({@code failure}, {@code this.failure}). */
  private static boolean isField(Expr expr) {
    return expr instanceof Expr.Name name
        && name.kind() == Expr.NameKind.FIELD
        && !NamePattern.isConstantName(name.name());
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
   * Whether the process ends right after the clause: the handler falls through and the statement
   * that follows its {@code try} is {@code System.exit(..)} or {@code Runtime.getRuntime()
   * .exit/halt(..)} (a command-line tool waiting for its work, then exiting). No code is left to
   * see the flag.
   */
  static boolean exitsProcessAfter(MethodAnalysis analysis, Stmt.Catch clause) {
    if (!Flow.canCompleteNormally(clause.body())) {
      return false;
    }
    return analysis.statementAfter(analysis.tryOf(clause)) instanceof Stmt.ExprStmt next
        && next.expr() instanceof Expr.Call call
        && (call.name().equals("exit") || call.name().equals("halt"))
        && (isNamed(call.receiver(), "System") || isRuntime(call.receiver()));
  }

  private static boolean isNamed(Expr expr, String name) {
    return expr instanceof Expr.Name n && n.name().equals(name);
  }

  private static boolean isRuntime(Expr expr) {
    return expr instanceof Expr.Call call
        && call.name().equals("getRuntime")
        && isNamed(call.receiver(), "Runtime");
  }

  /**
   * Whether the clause ends a thread's or task's body: it is in {@code run()}/{@code call()} (or a
   * lambda given to a thread or an executor) and returns, throws, or leaves every loop around it,
   * so the body ends. The interrupt has done its job: the task stopped, and no caller is left to
   * read the flag.
   */
  static boolean endsTask(MethodAnalysis analysis, Stmt.Catch clause) {
    Expr.Lambda lambda = analysis.enclosingLambda(clause);
    if (lambda == null ? !endsThread(analysis) : !isTaskLambda(analysis, lambda)) {
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
      // Falls through: the body ends only if nothing of substance runs after the try.
      return endsBody(analysis, analysis.tryOf(clause), lambda);
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

  /**
   * Whether control leaving {@code stmt} normally reaches the end of the body ({@code lambda}'s, or
   * the method's) with nothing but logging and returns on the way: the task then ends.
   */
  private static boolean endsBody(MethodAnalysis analysis, Stmt stmt, Expr.Lambda lambda) {
    Node child = stmt;
    for (Node p = analysis.parent(stmt); p != null; child = p, p = analysis.parent(p)) {
      if (p == lambda || p instanceof Expr.Lambda) {
        return p == lambda;
      }
      if (p instanceof Stmt.Loop) {
        return false;
      }
      if (p instanceof Stmt.Block block) {
        boolean after = false;
        for (Stmt s : block.statements()) {
          if (after && !isWrapUp(s)) {
            return false;
          }
          after |= s == child;
        }
      }
    }
    return true;
  }

  /**
   * A statement that only winds down: a return, a throw, a log line ({@code log.info(..)}, {@code
   * addInfo(..)}), or a call that stops or releases something ({@code super.stop()}, {@code
   * closeQuietly(socket)}, {@code latch.countDown()}): what an interrupted thread is asked to do.
   */
  private static boolean isWrapUp(Stmt stmt) {
    if (stmt instanceof Stmt.Return || stmt instanceof Stmt.Throw) {
      return true;
    }
    if (stmt instanceof Stmt.Block block) {
      return block.statements().stream().allMatch(Interrupts::isWrapUp);
    }
    if (stmt instanceof Stmt.If check) {
      // if (sub.reachedUnsubLimit()) connection.invalidate(sub): bookkeeping on a condition that
      // does not wait.
      return !waits(check.condition())
          && isWrapUp(check.then())
          && (check.otherwise() == null || isWrapUp(check.otherwise()));
    }
    if (!(stmt instanceof Stmt.ExprStmt e)) {
      return false;
    }
    if (e.expr() instanceof Expr.Assign assign) {
      // running = false; this.thread = null: recording that the body ended.
      return assign.target() instanceof Expr.Name && assign.value() instanceof Expr.Literal;
    }
    return e.expr() instanceof Expr.Call call
        && (LOGGING.matcher(call.name()).matches()
            || WINDING_DOWN.matcher(call.name()).matches()
            || recordsState(call));
  }

  /** {@code setRunning(false)}, {@code running.set(false)}: a flag or state set to a constant. */
  private static boolean recordsState(Expr.Call call) {
    return call.args().size() == 1
        && call.args().get(0) instanceof Expr.Literal
        && (call.name().equals("set") || SETTER.matcher(call.name()).matches());
  }

  /** Whether an expression makes a call that can block: a sleep or an interruptible wait. */
  private static boolean waits(Expr expr) {
    for (Expr.Call call : Nodes.calls(expr)) {
      if (CallNames.SLEEPS.contains(call.name())
          || call.method().declaresThrowing(INTERRUPTED_EXCEPTION)) {
        return true;
      }
    }
    return false;
  }

  private static final java.util.regex.Pattern SETTER =
      java.util.regex.Pattern.compile("set[A-Z]\\w*");

  private static final java.util.regex.Pattern LOGGING =
      java.util.regex.Pattern.compile(
          "(add|log)?(trace|debug|info|warn|warning|error|fatal|log|println|print|printf)",
          java.util.regex.Pattern.CASE_INSENSITIVE);

  private static final java.util.regex.Pattern WINDING_DOWN =
      java.util.regex.Pattern.compile(
          "(do)?(stop|close|closeQuietly|shutdown|cleanup|release|dispose|destroy|terminate"
              + "|countDown|unlock|invalidate|unregister|deregister)\\w*",
          java.util.regex.Pattern.CASE_INSENSITIVE);

  /**
   * Whether the method's end is its thread's end: a thread's or task's body, {@code main}, or a
   * private or package-private helper that only such bodies call.
   */
  private static boolean endsThread(MethodAnalysis analysis) {
    MethodModel method = analysis.method();
    return method.isTaskBody()
        || method.isMain()
        || analysis.unitFacts().isThreadBodyHelper(method);
  }

  /**
   * Whether a lambda is a task body: given to a {@code Thread} or an executor, directly or through
   * a local it is put in first ({@code job = () -> {..}; executor.execute(job);}).
   */
  private static boolean isTaskLambda(MethodAnalysis analysis, Expr.Lambda lambda) {
    Node parent = analysis.parent(lambda);
    String local =
        parent instanceof Stmt.LocalVar variable
            ? variable.name()
            : parent instanceof Expr.Assign assign
                    && assign.target() instanceof Expr.Name target
                    && target.isVariable(target.name())
                ? target.name()
                : null;
    if (local == null) {
      return isTaskSink(parent) || isDecoratedTask(analysis, parent, lambda);
    }
    for (Node n : analysis.bodyNodes()) {
      List<Expr> args =
          n instanceof Expr.Call call
              ? call.args()
              : n instanceof Expr.New created ? created.args() : List.of();
      if (isTaskSink(n)
          && args.stream()
              .anyMatch(a -> a instanceof Expr.Name name && name.name().equals(local))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code wrapper} decorates the lambda for a sink that runs it as a task: {@code
   * executor.submit(plugins.withClassLoader(loader, () -> {..}))}, {@code
   * executor.execute(context.wrap(() -> {..}))}. The decorator's result is handed straight to the
   * sink, so the lambda's end is the task's end.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean isDecoratedTask(
      MethodAnalysis analysis, Node wrapper, Expr.Lambda lambda) {
    if (!(wrapper instanceof Expr.Call decorator)
        || decorator.args().stream().noneMatch(a -> a == lambda)) {
      return false;
    }
    Node sink = analysis.parent(decorator);
    List<Expr> args =
        sink instanceof Expr.Call call
            ? call.args()
            : sink instanceof Expr.New created ? created.args() : List.of();
    return isTaskSink(sink) && args.stream().anyMatch(a -> a == decorator);
  }

  /**
   * Whether a node runs what it is given as a task: {@code new Thread(..)}, a known sink ({@code
   * execute}, {@code submit}, ...), or any factory that turns it into a Thread ({@code
   * KafkaThread.daemon(..)}).
   */
  private static boolean isTaskSink(Node node) {
    if (node instanceof Expr.New created) {
      return created.type().isSubtypeOf("java.lang.Thread")
          || created.type().simpleName().equals("Thread");
    }
    return node instanceof Expr.Call call
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
    for (Node n : analysis.bodyNodes()) {
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
   * Whether an interrupt caught by {@code clause} is a wake-up the loop expects: the loop condition
   * checks a stop flag that the code interrupting the thread sets first (a stop or close method of
   * the unit writes the flag, then calls {@code interrupt()}), or a JDK executor's lifecycle, or
   * the interrupt flag itself once the handler has restored it. A loop reading a flag that nothing
   * sets before interrupting goes on after the interrupt: the request to stop is lost.
   */
  static boolean isExpectedWakeUp(MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    if (loop == null) {
      return false;
    }
    Set<String> flags = new java.util.LinkedHashSet<>();
    for (Expr condition : StopFlags.stopConditions(analysis, loop)) {
      flags.addAll(StopFlags.flagsRead(condition));
    }
    if (reschedulesOnAnExecutor(analysis, loop)) {
      // After shutdownNow() the executor rejects the reschedule: the chain ends.
      flags.add(StopFlags.JDK_FLAG);
    }
    boolean restores = restoresFlag(clause.body());
    for (String flag : flags) {
      if (flag.equals(StopFlags.INTERRUPT_FLAG)) {
        if (restores) {
          return true;
        }
      } else if ((analysis.unitFacts().isSetBeforeInterrupt(flag)
              && !keepsLoopGoing(analysis, loop, flag))
          || (!restores
              && !(analysis.unitFacts().isVisible(flag)
                  || analysis.context().fieldValue(flag) != null))) {
        // Set before the interrupt; or set and read where this unit cannot see (an inherited
        // isStopped()): then nothing is known, and the rule stays silent. Not for a clause that
        // restores the flag: unless the stop flag is known to be set first, the loop it goes
        // round has a set interrupt flag, and each later wait throws at once.
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every literal value the unit gives the flag before it interrupts keeps the loop's
   * condition true ({@code started = false} under {@code while (!started || ready != n)}): the flag
   * then does not end the loop the interrupt wakes, so the interrupt is no stop request it answers.
   */
  private static boolean keepsLoopGoing(MethodAnalysis analysis, LoopInfo loop, String flag) {
    if (loop.condition() == null || flag.endsWith("()")) {
      return false;
    }
    Set<Object> values = analysis.unitFacts().literalsSetBeforeInterrupt(flag);
    if (values.isEmpty()) {
      return false;
    }
    for (Object value : values) {
      if (!(value instanceof Boolean b)
          || !Boolean.TRUE.equals(evaluate(loop.condition(), flag, b))) {
        return false;
      }
    }
    return true;
  }

  /** The condition's value with {@code flag} set to {@code value}; {@code null} if unknown. */
  private static Boolean evaluate(Expr condition, String flag, boolean value) {
    if (condition instanceof Expr.Name name && name.name().equals(flag)) {
      return value;
    }
    if (condition instanceof Expr.Unary not && not.operator().equals("!")) {
      Boolean inner = evaluate(not.operand(), flag, value);
      return inner == null ? null : !inner;
    }
    if (condition instanceof Expr.Binary binary
        && (binary.operator().equals("||") || binary.operator().equals("&&"))) {
      Boolean left = evaluate(binary.left(), flag, value);
      Boolean right = evaluate(binary.right(), flag, value);
      boolean or = binary.operator().equals("||");
      if (Boolean.valueOf(or).equals(left) || Boolean.valueOf(or).equals(right)) {
        return or;
      }
      return (left != null && right != null) ? Boolean.valueOf(!or) : null;
    }
    return null;
  }

  /**
   * Whether the clause sits in a worker loop on a thread the unit starts itself (or in a task whose
   * class wakes it with {@code notify()}/{@code signal()}, {@link #isWokenTask}), whose condition
   * checks a stop flag the unit writes, in a unit that interrupts no thread: the owner stops the
   * worker with the flag, so no interrupt is expected and the swallowed one was nobody's request.
   * Not for {@link InterruptRetriedRule}: a loop that goes round after an interrupt from elsewhere
   * (an inherited shutdown, a pool's) still cannot be stopped by it.
   */
  private static boolean stoppedOnlyByItsFlag(
      MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    if (loop == null
        || !analysis.unitFacts().interruptsNoThread()
        || restoresFlag(clause.body())
        || !(runsOnOwnThread(analysis, clause) || isWokenTask(analysis, clause))) {
      return false;
    }
    for (Expr condition : StopFlags.stopConditions(analysis, loop)) {
      for (String flag : StopFlags.flagsRead(condition)) {
        if (!flag.equals(StopFlags.INTERRUPT_FLAG)
            && !flag.equals(StopFlags.JDK_FLAG)
            && analysis.unitFacts().isVisible(flag)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether the clause runs on a thread of the unit's own: in {@code run()}/{@code call()}, or a
   * method only such bodies reach, not in a lambda handed elsewhere.
   */
  private static boolean runsOnOwnThread(MethodAnalysis analysis, Stmt.Catch clause) {
    return analysis.enclosingLambda(clause) == null
        && analysis.unitFacts().createsThread()
        && (analysis.method().isTaskBody()
            || analysis.unitFacts().isThreadBodyHelper(analysis.method()));
  }

  /**
   * Whether the clause is in a task body (or a helper only task bodies reach) of a class that wakes
   * its waiters itself ({@code stopping = true; notify();}), and its try block waits on a monitor
   * or a condition: whoever runs the task, the unit stops it with the flag and the wake-up, not an
   * interrupt.
   */
  private static boolean isWokenTask(MethodAnalysis analysis, Stmt.Catch clause) {
    if (analysis.enclosingLambda(clause) != null
        || !analysis.unitFacts().wakesWaiters(analysis.method().owner())
        || !(analysis.method().isTaskBody()
            || analysis.unitFacts().isThreadBodyHelper(analysis.method()))) {
      return false;
    }
    for (Node n : Nodes.sameFrame(analysis.tryOf(clause).body())) {
      if (n instanceof Expr.Call call
          && (call.name().equals("wait") || call.name().equals("await"))) {
        return true;
      }
    }
    return false;
  }

  /** Whether a task reschedules itself on an executor ({@code scheduler.schedule(this, ..)}). */
  private static boolean reschedulesOnAnExecutor(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() != LoopInfo.Kind.RESCHEDULE) {
      return false;
    }
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Expr.Call call
          && analysis.isSelfReschedule(call)
          && call.receiver() != null
          && (call.receiver().type().isSubtypeOf("java.util.concurrent.ExecutorService")
              || (!call.receiver().type().isKnown()
                  && call.receiver() instanceof Expr.Name holder
                  && holder.name().toLowerCase(Locale.ROOT).matches(".*(executor|scheduler).*")))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the clause sits in a component's own worker loop that uses an interrupt as a wake-up
   * ({@link #isExpectedWakeUp}), and the loop runs on the component's own thread: {@code
   * run()}/{@code call()}, a task lambda, a private method, or a method of any visibility that a
   * thread's body of the unit calls. Loops in methods that other threads call still lose their
   * callers' interrupts.
   */
  static boolean isWakeUpInOwnWorker(MethodAnalysis analysis, Stmt.Catch clause) {
    LoopInfo loop = analysis.loopOf(clause);
    if (stoppedOnlyByItsFlag(analysis, clause, loop)) {
      return true;
    }
    if (!isExpectedWakeUp(analysis, clause, loop)) {
      return false;
    }
    Expr.Lambda lambda = analysis.enclosingLambda(clause);
    if (lambda != null) {
      return isTaskLambda(analysis, lambda);
    }
    return analysis.method().isTaskBody()
        || analysis.method().isPrivate()
        || analysis.unitFacts().isReachedFromThreadBody(analysis.method());
  }
}
