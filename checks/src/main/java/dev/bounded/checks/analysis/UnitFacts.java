package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Facts that cross methods, derived once per unit from its {@link UnitIndex}: who calls whom, which
 * methods only a thread's body runs, and which fields a method sets before it interrupts a worker.
 * Rules ask {@link MethodAnalysis#unitFacts()}; nothing here is computed until asked.
 */
public final class UnitFacts {
  /** Calls on a field that write it ({@code running.set(false)}, {@code state.set(CLOSED)}). */
  private static final Set<String> FIELD_WRITES =
      Set.of(
          "set",
          "lazySet",
          "compareAndSet",
          "weakCompareAndSet",
          "getAndSet",
          "setRelease",
          "setPlain",
          "setOpaque",
          "countDown",
          "updateAndGet",
          "getAndUpdate");

  private final UnitIndex unit;
  private IdentityHashMap<MethodModel, List<MethodModel>> callers;
  private Set<String> flagsSetBeforeInterrupt;
  private final java.util.Map<String, Set<Object>> valuesSetBeforeInterrupt =
      new java.util.HashMap<>();

  /** Stands for a value given to a flag that is not a literal. */
  private static final Object NOT_A_LITERAL = new Object();

  private Set<String> writtenFields;
  private final IdentityHashMap<MethodModel, Boolean> threadBodyOnly = new IdentityHashMap<>();
  private final IdentityHashMap<MethodModel, Boolean> reachedFromThreadBody =
      new IdentityHashMap<>();
  private final IdentityHashMap<MethodModel, MethodAnalysis> analyses = new IdentityHashMap<>();

  private UnitFacts(UnitIndex unit) {
    this.unit = unit;
  }

  /**
   * Returns the facts of a unit, computed once.
   *
   * @param unit the unit's index
   * @return its facts
   */
  public static UnitFacts of(UnitIndex unit) {
    return unit.memo(UnitFacts.class, UnitFacts::new);
  }

  /**
   * Returns the analysis of a method of the unit, built once.
   *
   * @param method a method of the unit
   * @return its analysis, or {@code null} if the index cannot give its context
   */
  public MethodAnalysis analysisOf(MethodModel method) {
    MethodAnalysis analysis = analyses.get(method);
    if (analysis == null && !analyses.containsKey(method)) {
      try {
        analysis = MethodAnalysis.of(method, unit.contextOf(method));
      } catch (IllegalArgumentException notInUnit) {
        analysis = null;
      }
      analyses.put(method, analysis);
    }
    return analysis;
  }

  /**
   * Returns the methods of the unit that call {@code method}.
   *
   * @param method a method of the unit
   * @return its callers, possibly empty
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  public List<MethodModel> callers(MethodModel method) {
    if (callers == null) {
      callers = new IdentityHashMap<>();
      for (MethodModel caller : unit.methods()) {
        for (Node n : Nodes.preOrder(caller.body())) {
          if (n instanceof Expr.Call call) {
            MethodModel callee = unit.declarationOf(call);
            if (callee != null && callee != caller) {
              List<MethodModel> list = callers.computeIfAbsent(callee, k -> new ArrayList<>());
              // By identity: a record's equals would compare the two bodies node by node.
              if (list.isEmpty() || list.get(list.size() - 1) != caller) {
                list.add(caller);
              }
            }
          }
        }
      }
    }
    return callers.getOrDefault(method, List.of());
  }

  /**
   * A set of models by identity: a record's hashCode and equals would walk the whole body.
   *
   * @return an empty set
   */
  private static Set<MethodModel> identitySet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
  }

  /**
   * Tells whether only a thread's or task's body runs {@code method}: it is private or
   * package-private, and every caller in the unit (at least one) is a thread body ({@code run()},
   * {@code call()}, {@code main}) or, in turn, a method only a thread body runs. When it returns,
   * the thread ends.
   *
   * @param method a method of the unit
   * @return {@code true} for a thread body's helper
   */
  public boolean isThreadBodyHelper(MethodModel method) {
    return threadBodyHelper(method, identitySet());
  }

  private boolean threadBodyHelper(MethodModel method, Set<MethodModel> visiting) {
    Boolean known = threadBodyOnly.get(method);
    if (known != null) {
      return known;
    }
    if (method.visibility() != MethodModel.Visibility.PRIVATE
        && method.visibility() != MethodModel.Visibility.PACKAGE) {
      return false;
    }
    if (!visiting.add(method)) {
      return false;
    }
    List<MethodModel> callers = callers(method);
    boolean helper = !callers.isEmpty();
    for (MethodModel caller : callers) {
      if (!(caller.isTaskBody() || caller.isMain() || threadBodyHelper(caller, visiting))
          || !callsLast(caller, method)) {
        helper = false;
        break;
      }
    }
    threadBodyOnly.put(method, helper);
    return helper;
  }

  /**
   * Whether {@code caller}'s body ends with the call to {@code callee} (as a statement or a
   * returned value, possibly inside the last statement's own last statements, or the last statement
   * of a branch of a trailing {@code if}): nothing runs after it.
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  private boolean callsLast(MethodModel caller, MethodModel callee) {
    List<Expr> tails = new ArrayList<>();
    tailExpressions(caller.body(), tails);
    for (Expr tail : tails) {
      if (tail instanceof Expr.Call call && unit.declarationOf(call) == callee) {
        return true;
      }
    }
    return false;
  }

  /** Waits by name besides {@link CallNames#UNTIMED_WAITS}: a monitor's and a lock's. */
  private static final Set<String> OTHER_WAITS = Set.of("wait", "lockInterruptibly");

  /**
   * A statement that neither waits nor loops: one expression (a call, an assignment) with no lambda
   * in it, and no call in it that sleeps, waits by its name ({@code take}, {@code await}, {@code
   * join}, {@code get}, ...) or declares {@code InterruptedException}. After the thread's helper
   * returns, such statements run to the end without looking at the interrupt flag.
   */
  private static boolean isQuiet(Stmt stmt) {
    if (!(stmt instanceof Stmt.ExprStmt e)) {
      return false;
    }
    for (Node n : Nodes.preOrder(e.expr())) {
      if (n instanceof Expr.Lambda) {
        return false;
      }
      if (n instanceof Expr.Call call
          && (CallNames.SLEEPS.contains(call.name())
              || CallNames.TIMED_WAITS.contains(call.name())
              || CallNames.UNTIMED_WAITS.containsKey(call.name())
              || OTHER_WAITS.contains(call.name())
              || call.method().declaresThrowing("java.lang.InterruptedException"))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The expressions a body can end with: its last statement's (and those of statements followed
   * only by quiet ones), through blocks, the body of a trailing try and both branches of a trailing
   * if; {@code return x} gives {@code x}.
   */
  private static void tailExpressions(Stmt stmt, List<Expr> tails) {
    if (stmt instanceof Stmt.Block block) {
      // The last statement, and any before it followed only by quiet ones (run() { doAuth();
      // authInfo.increaseAttempts(); }): the thread ends right after them too.
      for (int i = block.statements().size() - 1; i >= 0; i--) {
        Stmt s = block.statements().get(i);
        tailExpressions(s, tails);
        if (!isQuiet(s)) {
          break;
        }
      }
    } else if (stmt instanceof Stmt.Try t) {
      tailExpressions(t.body(), tails);
    } else if (stmt instanceof Stmt.If check) {
      tailExpressions(check.then(), tails);
      if (check.otherwise() != null) {
        tailExpressions(check.otherwise(), tails);
      }
    } else if (stmt instanceof Stmt.ExprStmt e) {
      tails.add(e.expr());
    } else if (stmt instanceof Stmt.Return r && r.value() != null) {
      tails.add(r.value());
    }
  }

  /**
   * Tells whether a thread's or task's body of the unit calls {@code method}, directly or through
   * other methods of the unit: it runs on the component's own worker thread.
   *
   * @param method a method of the unit
   * @return {@code true} if reached from a thread body
   */
  public boolean isReachedFromThreadBody(MethodModel method) {
    return reachedFromThreadBody(method, identitySet());
  }

  private boolean reachedFromThreadBody(MethodModel method, Set<MethodModel> visiting) {
    Boolean known = reachedFromThreadBody.get(method);
    if (known != null) {
      return known;
    }
    if (!visiting.add(method)) {
      return false;
    }
    boolean reached = false;
    for (MethodModel caller : callers(method)) {
      if (caller.isTaskBody() || reachedFromThreadBody(caller, visiting)) {
        reached = true;
        break;
      }
    }
    reachedFromThreadBody.put(method, reached);
    return reached;
  }

  /**
   * Tells whether some method of the unit sets a stop flag and then interrupts a thread (or shuts
   * an executor down now, or cancels with interruption), so that a worker woken by the interrupt
   * finds the flag set. Flags are fields, or methods without arguments that read fields ({@code
   * isRunning()}); {@link StopFlags#JDK_FLAG} holds when the unit shuts an executor down now, or
   * shuts none down itself.
   *
   * @param flag a flag as {@link StopFlags#flagsRead} returns it
   * @return {@code true} if the unit sets it before interrupting
   */
  public boolean isSetBeforeInterrupt(String flag) {
    if (flagsSetBeforeInterrupt == null) {
      flagsSetBeforeInterrupt = computeFlagsSetBeforeInterrupt();
    }
    if (flag.equals(StopFlags.JDK_FLAG)) {
      // The JDK's shutdownNow() marks the executor shut down before it interrupts its workers.
      // A unit that shuts its executors down only with shutdown() never interrupts them that way:
      // an interrupt comes from elsewhere and the lifecycle query does not see it. A unit that
      // shuts none down runs on executors owned elsewhere, whose owner is not known here.
      return flagsSetBeforeInterrupt.contains(StopFlags.JDK_FLAG)
          || !flagsSetBeforeInterrupt.contains(SHUTS_DOWN);
    }
    return flag.endsWith("()")
        ? getterReadsOneOf(flag, flagsSetBeforeInterrupt)
        : flagsSetBeforeInterrupt.contains(flag);
  }

  /**
   * Returns the literal values ({@code Boolean.FALSE} for {@code started = false}) the unit gives a
   * field before it interrupts, or an empty set when one of them is not a literal or the field is
   * not set so.
   *
   * @param flag a field name
   * @return the literal values, or empty when not all are known
   */
  public Set<Object> literalsSetBeforeInterrupt(String flag) {
    isSetBeforeInterrupt(flag);
    Set<Object> values = valuesSetBeforeInterrupt.getOrDefault(flag, Set.of());
    return values.contains(NOT_A_LITERAL) ? Set.of() : values;
  }

  /**
   * Tells whether this unit can see a flag: it writes the field somewhere, or declares the method
   * without arguments that reads it. A flag written only elsewhere (a superclass in another file)
   * is unknown here.
   *
   * @param flag a flag as {@link StopFlags#flagsRead} returns it
   * @return {@code true} if the unit writes or declares it
   */
  public boolean isVisible(String flag) {
    if (flag.equals(StopFlags.JDK_FLAG) || flag.equals(StopFlags.INTERRUPT_FLAG)) {
      return true;
    }
    if (writtenFields == null) {
      writtenFields = new HashSet<>();
      for (MethodModel method : unit.methods()) {
        for (Node n : Nodes.preOrder(method.body())) {
          String written = writtenField(n);
          if (written != null) {
            writtenFields.add(written);
          }
        }
      }
    }
    return flag.endsWith("()")
        ? getterReadsOneOf(flag, writtenFields)
        : writtenFields.contains(flag);
  }

  /** Whether the unit's method {@code getter()} (no arguments) reads one of the fields. */
  private boolean getterReadsOneOf(String flag, Set<String> fields) {
    String getter = flag.substring(0, flag.length() - 2);
    for (MethodModel method : unit.methods()) {
      if (method.name().equals(getter) && method.params().isEmpty()) {
        for (Node n : Nodes.preOrder(method.body())) {
          if (n instanceof Expr.Name name
              && StopFlags.isField(name)
              && fields.contains(name.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Tells whether no code of the unit interrupts another thread: no {@code worker.interrupt()}
   * (restoring the current thread's own flag, {@code Thread.currentThread().interrupt()}, does not
   * count), no {@code shutdownNow()}, no {@code cancel(true)}, and no call of another unit's method
   * named for interrupting. A worker such a unit stops does not expect an interrupt: its owner
   * stops it another way.
   *
   * @return {@code true} if the unit interrupts no other thread
   */
  public boolean interruptsNoThread() {
    if (interruptsNoThread == null) {
      boolean none = true;
      for (MethodModel method : unit.methods()) {
        for (Node n : Nodes.preOrder(method.body())) {
          if (n instanceof Expr.Call call && interruptsAnotherThread(call)) {
            none = false;
            break;
          }
        }
        if (!none) {
          break;
        }
      }
      interruptsNoThread = none;
    }
    return interruptsNoThread;
  }

  private Boolean interruptsNoThread;

  /** Calls that wake a thread waiting on a monitor or a condition. */
  private static final Set<String> WAKE_UPS = Set.of("notify", "notifyAll", "signal", "signalAll");

  /**
   * Tells whether a class of the unit wakes waiting threads itself: one of its methods calls {@code
   * notify()}, {@code notifyAll()}, {@code signal()} or {@code signalAll()}. A worker whose owner
   * sets its stop flag and wakes it so is stopped without an interrupt.
   *
   * @param owner a class of the unit, as {@link MethodModel#owner()} names it
   * @return {@code true} if that class wakes waiters
   */
  public boolean wakesWaiters(String owner) {
    if (wakingClasses == null) {
      wakingClasses = new HashSet<>();
      for (MethodModel method : unit.methods()) {
        for (Node n : Nodes.preOrder(method.body())) {
          if (n instanceof Expr.Call call
              && WAKE_UPS.contains(call.name())
              && call.args().isEmpty()) {
            wakingClasses.add(method.owner());
            break;
          }
        }
      }
    }
    return wakingClasses.contains(owner);
  }

  private Set<String> wakingClasses;

  /**
   * Tells whether the unit starts threads of its own: it creates a {@code Thread} (or a subclass,
   * or a class named {@code ...Thread}), or asks a thread factory for one ({@code newThread(..)}).
   *
   * @return {@code true} if the unit creates a thread
   */
  public boolean createsThread() {
    if (createsThread == null) {
      boolean found = false;
      for (MethodModel method : unit.methods()) {
        for (Node n : Nodes.preOrder(method.body())) {
          if ((n instanceof Expr.New created
                  && (created.type().isSubtypeOf("java.lang.Thread")
                      || created.type().simpleName().endsWith("Thread")))
              || (n instanceof Expr.Call call && call.name().equals("newThread"))) {
            found = true;
            break;
          }
        }
        if (found) {
          break;
        }
      }
      createsThread = found;
    }
    return createsThread;
  }

  private Boolean createsThread;

  private boolean interruptsAnotherThread(Expr.Call call) {
    String name = call.name();
    if (name.equals("interrupt")) {
      return !(call.receiver() instanceof Expr.Call current
          && current.name().equals("currentThread"));
    }
    if (name.equals("shutdownNow")) {
      return true;
    }
    if (name.equals("cancel")) {
      return !(call.args().size() == 1
          && call.args().get(0) instanceof Expr.Literal literal
          && Boolean.FALSE.equals(literal.value()));
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.contains("interrupt")
        && !name.equals("isInterrupted")
        && !name.equals("interrupted")
        && unit.declarationOf(call) == null;
  }

  /** Marks a unit that shuts an executor down without interrupting ({@code pool.shutdown()}). */
  private static final String SHUTS_DOWN = "<shutdown>";

  private Set<String> computeFlagsSetBeforeInterrupt() {
    Set<String> flags = new HashSet<>();
    for (MethodModel method : unit.methods()) {
      List<Node> nodes = Nodes.preOrder(method.body());
      int lastInterrupt = -1;
      for (Node n : nodes) {
        if (n instanceof Expr.Call call && interrupts(call) && n.span().isKnown()) {
          lastInterrupt = Math.max(lastInterrupt, n.span().start());
          if (call.name().equals("shutdownNow")) {
            flags.add(StopFlags.JDK_FLAG); // the JDK sets the executor's state, then interrupts
          }
        } else if (n instanceof Expr.Call call
            && call.name().equals("shutdown")
            && call.args().isEmpty()
            && call.receiver() != null) {
          flags.add(SHUTS_DOWN);
        }
      }
      if (lastInterrupt < 0) {
        continue;
      }
      for (Node n : nodes) {
        if (!n.span().isKnown() || n.span().start() > lastInterrupt) {
          continue;
        }
        if (n instanceof Expr.Call call && !interrupts(call)) {
          // A setter of the unit called first (instance.markShuttingDown(); instance.interrupt();)
          // writes its fields before the interrupt too.
          fieldsWrittenBySetter(call)
              .forEach(
                  (field, value) -> {
                    flags.add(field);
                    valuesSetBeforeInterrupt
                        .computeIfAbsent(field, k -> new HashSet<>())
                        .add(value);
                  });
        }
        String written = writtenField(n);
        if (written != null) {
          flags.add(written);
          valuesSetBeforeInterrupt
              .computeIfAbsent(written, k -> new HashSet<>())
              .add(literalWritten(n));
        }
      }
    }
    return flags;
  }

  /**
   * Returns the fields a call to a method of the unit writes when that method is a setter (a body
   * of writes to fields only: {@code markShuttingDown() { shuttingDown = true; }}), each with the
   * literal it writes or {@link #NOT_A_LITERAL}. Empty for any other call.
   */
  private Map<String, Object> fieldsWrittenBySetter(Expr.Call call) {
    MethodModel callee = unit.declarationOf(call);
    if (callee == null || callee.body() == null || callee.body().statements().isEmpty()) {
      return Map.of();
    }
    Map<String, Object> fields = new HashMap<>();
    for (Stmt statement : callee.body().statements()) {
      Expr expr = statement instanceof Stmt.ExprStmt expression ? expression.expr() : null;
      String written = expr == null ? null : writtenField(expr);
      if (written == null) {
        return Map.of();
      }
      fields.put(written, literalWritten(expr));
    }
    return fields;
  }

  /** The literal a field write gives ({@code f = true}), or {@link #NOT_A_LITERAL}. */
  private static Object literalWritten(Node write) {
    return write instanceof Expr.Assign assign
            && assign.operator().equals("=")
            && assign.value() instanceof Expr.Literal literal
            && literal.value() != null
        ? literal.value()
        : NOT_A_LITERAL;
  }

  /** Whether a call interrupts a thread, or makes an executor or future do so. */
  private boolean interrupts(Expr.Call call) {
    String name = call.name();
    if (name.equals("interrupt") || name.equals("shutdownNow")) {
      return true;
    }
    if (name.equals("cancel")
        && call.args().size() == 1
        && call.args().get(0) instanceof Expr.Literal literal
        && Boolean.TRUE.equals(literal.value())) {
      return true;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.contains("interrupt")
        && !name.equals("isInterrupted")
        && !name.equals("interrupted")) {
      return true;
    }
    // A helper of the unit that interrupts: stopWorker(), wakeUp().
    MethodModel callee = unit.declarationOf(call);
    if (callee != null) {
      for (Node n : Nodes.preOrder(callee.body())) {
        if (n instanceof Expr.Call inner
            && (inner.name().equals("interrupt") || inner.name().equals("shutdownNow"))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Returns the field a node writes: {@code f = v}, {@code this.f = v}, {@code f.set(v)} (and the
   * other writing calls of an atomic holder).
   *
   * @param n a node
   * @return the field's name, or {@code null} when the node writes no field
   */
  public static String writtenField(Node n) {
    if (n instanceof Expr.Assign assign && assign.target() instanceof Expr.Name target) {
      if (StopFlags.isField(target)) {
        return target.name();
      }
      return null;
    }
    if (n instanceof Expr.Call call
        && FIELD_WRITES.contains(call.name())
        && call.receiver() instanceof Expr.Name field
        && StopFlags.isField(field)) {
      return field.name();
    }
    return null;
  }
}
