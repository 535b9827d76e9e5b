package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode A: a retry loop catches {@code InterruptedException} (directly, in a multi-catch, or
 * through {@code Exception}/{@code Throwable} when the try body can throw it) and goes round again.
 * Interruption is a request to stop, not a transient failure: retrying it keeps a cancelled thread
 * working, and restoring the flag without leaving makes the next attempt fail at once.
 *
 * <p>Not reported: a clause that restores the flag and leaves (rethrow, return, break); the
 * "uninterruptibly" idiom (remember the interrupt, restore it later); and the interrupt-as-wakeup
 * idiom, where the loop condition checks the flag or a stop field.
 *
 * <p>Fix: a separate {@code catch (InterruptedException)} placed first (or the handler's body,
 * replaced) that restores the flag and rethrows when the method may throw it, or breaks out of the
 * loop otherwise; when the loop ends a method that returns a value and has no other way out, a
 * {@code break} would not compile, and the handler throws {@code CancellationException} instead.
 */
public final class InterruptRetriedRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "InterruptRetried";

  /** Leaves a method that must return a value, when the loop gives it no way out but return. */
  private static final String CANCEL =
      "throw new CancellationException(\"interrupted while retrying\");";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Stmt.Catch clause : analysis.catches()) {
      LoopInfo loop = retryingLoop(analysis, clause);
      if (loop == null) {
        continue;
      }
      boolean restores = Interrupts.restoresFlag(clause.body());
      boolean swallowingWait = onlyWaitsAgain(analysis, clause, loop);
      String message =
          swallowingWait
              ? "This wait loop catches InterruptedException and waits again: the interrupted"
                  + " thread keeps waiting as if nothing had asked it to stop, and the interrupt"
                  + " flag is lost. Restore the flag and leave the loop"
              : !loop.isRetryLoop() && !loop.isBackgroundRetry()
                  ? "This loop restores the interrupt flag but goes round again: its next blocking"
                      + " call throws at once, so the interrupted thread spins instead of stopping."
                      + " Leave the loop after restoring the flag"
                  : loop.isBackgroundRetry()
                      ? "This background loop catches InterruptedException and goes round again: a"
                          + " request to stop is treated like a failure to retry, and nothing it reads"
                          + " was set before the interrupt, so the thread cannot be stopped by"
                          + " interrupting it. Leave the loop on interrupt (restore the flag first), or"
                          + " set the stop flag before interrupting"
                      : restores
                          ? "This retry loop restores the interrupt flag but goes round again: the next attempt"
                              + " starts interrupted and fails or spins at once. Interruption means stop: leave"
                              + " the loop after restoring the flag (RetryPolicy never retries interruption)"
                          : "This retry loop catches InterruptedException and goes round again: a request to"
                              + " stop is retried like a transient failure and the interrupt flag is lost, so"
                              + " the thread cannot be cancelled. Restore the flag and leave the loop"
                              + " (RetryPolicy never retries interruption)";
      // A wait loop left by a break would run the code after it as if the wait had succeeded
      // (take the lock, use the connection): where to leave is the author's call, no fix.
      findings.add(
          new Finding(
              NAME,
              reportedSpan(clause),
              message,
              swallowingWait ? List.of() : fixes(analysis, clause, loop)));
    }
    for (Stmt.Catch clause : analysis.catches()) {
      if (retriesFromCallback(analysis, clause)) {
        findings.add(
            new Finding(
                NAME,
                reportedSpan(clause),
                (Interrupts.restoresFlag(clause.body())
                        ? "This failure callback restores the interrupt flag but calls "
                        : "This failure callback catches InterruptedException and calls ")
                    + analysis.method().name()
                    + "(..) again: a retry by recursion that goes on after the thread was asked"
                    + " to stop, and its next wait fails at once. Leave on interrupt instead of"
                    + " retrying",
                List.of()));
      }
    }
    for (Stmt.Catch clause : analysis.catches()) {
      if (retriesBySelfCallAfterWait(analysis, clause)) {
        findings.add(
            new Finding(
                NAME,
                reportedSpan(clause),
                (Interrupts.restoresFlag(clause.body())
                        ? "This wait restores the interrupt flag and then calls "
                        : "This wait swallows InterruptedException and then calls ")
                    + analysis.method().name()
                    + "(..) again: a retry by recursion that goes on after the thread was asked"
                    + " to stop. Leave on interrupt instead of calling the method again",
                List.of()));
      }
    }
    return findings;
  }

  /**
   * Whether the clause catches the interrupt of a wait ({@code Thread.sleep(5)}) that the method
   * follows, once the clause completes, by calling itself ({@code try { Thread.sleep(5); } catch
   * (Exception e) { } return getCurrentBucket();}): a wait-and-retry by recursion, and the clause
   * lets it go on after an interrupt. {@link InterruptSwallowedRule} leaves such clauses to this
   * rule.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean retriesBySelfCallAfterWait(MethodAnalysis analysis, Stmt.Catch clause) {
    if (analysis.loopOf(clause) != null
        || analysis.enclosingLambda(clause) != null
        || !Flow.canCompleteNormally(clause.body())
        || !Interrupts.receivesInterrupt(analysis, clause, true)
        || Interrupts.propagates(analysis, clause)
        || Interrupts.propagatesAsInterrupt(analysis, clause)
        || Interrupts.remembersInterrupt(analysis, clause)) {
      return false;
    }
    Stmt.Try t = analysis.tryOf(clause);
    boolean waits = false;
    for (Node n : Nodes.sameFrame(t.body())) {
      if (n instanceof Expr.Call call && CallNames.SLEEPS.contains(call.name())) {
        waits = true;
      }
    }
    if (!waits || !(analysis.parent(t) instanceof Stmt.Block block)) {
      return false;
    }
    boolean after = false;
    for (Stmt statement : block.statements()) {
      if (statement == t) {
        after = true;
        continue;
      }
      if (!after) {
        continue;
      }
      for (Node n : Nodes.sameFrame(statement)) {
        if (n instanceof Expr.Call call && analysis.isSelfCall(call)) {
          return true;
        }
      }
      if (!Flow.canCompleteNormally(statement)) {
        return false;
      }
    }
    return false;
  }

  /**
   * Whether the clause sits on the failure path of a callback lambda that calls the method again
   * after it ({@code exceptionally(ex -> { try { Thread.sleep(50); } catch (InterruptedException e)
   * { Thread.currentThread().interrupt(); } readTailMessages(reader); return null; })}): a retry by
   * recursion, and the clause lets it go on after an interrupt. {@link InterruptSwallowedRule}
   * leaves such clauses to this rule.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean retriesFromCallback(MethodAnalysis analysis, Stmt.Catch clause) {
    if (analysis.loopOf(clause) != null
        || !Interrupts.catchesDirectly(clause)
        || !Flow.canCompleteNormally(clause.body())
        || Interrupts.propagates(analysis, clause)
        || Interrupts.remembersInterrupt(analysis, clause)) {
      return false;
    }
    Expr.Lambda lambda = analysis.enclosingLambda(clause);
    if (lambda == null) {
      return false;
    }
    List<Expr.Call> onFailurePath = DelayedRetries.inFailureLambdas(analysis);
    Stmt.Try t = analysis.tryOf(clause);
    boolean tryOnFailurePath = false;
    boolean recursesAfter = false;
    for (Expr.Call call : onFailurePath) {
      if (analysis.enclosingLambda(call) != lambda) {
        continue;
      }
      if (t.body().span().contains(call.span())) {
        tryOnFailurePath = true;
      }
      if (analysis.isSelfCall(call) && call.span().start() > t.span().end()) {
        recursesAfter = true;
      }
    }
    return tryOnFailurePath && recursesAfter;
  }

  /**
   * Returns the retry loop that retries an interrupt caught by {@code clause}, or {@code null} if
   * this rule does not apply to the clause. {@link InterruptSwallowedRule} leaves such clauses to
   * this rule.
   */
  static LoopInfo retryingLoop(MethodAnalysis analysis, Stmt.Catch clause) {
    LoopInfo loop = analysis.loopOf(clause);
    if (loop == null
        || !(loop.isRetryLoop()
            || loop.isBackgroundRetry()
            || spinsWhenRestored(analysis, clause, loop)
            || waitsAgainWhenSwallowed(analysis, clause, loop))
        || !Interrupts.receivesInterrupt(analysis, clause, true)
        || !analysis.goesRoundAgain(clause, loop)
        || Interrupts.remembersInterrupt(analysis, clause)
        || Interrupts.propagatesAsInterrupt(analysis, clause)
        || Interrupts.isExpectedWakeUp(analysis, clause, loop)) {
      return null;
    }
    return loop;
  }

  /**
   * Whether the clause restores the flag in a loop that is not a retry loop but runs until a
   * condition the interrupt does not change ({@code while (true)}, {@code do .. while (event !=
   * null)}): going round, its next blocking call throws at once, again and again.
   */
  private static boolean spinsWhenRestored(
      MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    return isOpen(loop)
        && Interrupts.restoresFlag(clause.body())
        && waitsEachRound(analysis, loop)
        && !countsRounds(analysis, loop);
  }

  /**
   * Whether {@link #retryingLoop} takes the clause only as a wait that goes on after a swallowed
   * interrupt ({@link #waitsAgainWhenSwallowed}), not as a retry: {@link InterruptSwallowedRule}
   * still reports the lost flag there.
   */
  static boolean onlyWaitsAgain(MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    return !loop.isRetryLoop()
        && !loop.isBackgroundRetry()
        && !spinsWhenRestored(analysis, clause, loop);
  }

  /**
   * Whether the clause swallows the interrupt of the wait its try makes, in a loop that runs until
   * a condition the interrupt does not change ({@code while (locks.contains(name)) { try { wait();
   * } catch (InterruptedException e) { } }}): the loop waits again, so the interrupted caller keeps
   * waiting as if nothing had asked it to stop. Not when the handler restores the flag ({@link
   * #spinsWhenRestored}), nor when {@link InterruptSwallowedRule} would leave the clause alone (a
   * worker's expected wake-up, a handler that hands the exception on). The clause must name {@code
   * InterruptedException}: a broad catch around a call that only may throw it ({@code catch
   * (Exception e)} around {@code map.put(key, decoder.decode(text))}) is no wait's handler.
   */
  private static boolean waitsAgainWhenSwallowed(
      MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    return isOpen(loop)
        && Interrupts.catchesDirectly(clause)
        && !Interrupts.restoresFlag(analysis, clause.body())
        && waitsInTry(analysis, clause)
        && !countsRounds(analysis, loop)
        && !Interrupts.propagates(analysis, clause)
        && !Interrupts.isWakeUpInOwnWorker(analysis, clause)
        && !Interrupts.exitsProcess(clause.body());
  }

  /**
   * Whether the clause's try block is the wait for an event alone, one statement: a wait on a
   * monitor or a condition, a queue's or a future's, or a call declared to throw {@code
   * InterruptedException} ({@code queue.remove(30000)}, {@code future.get(timeout, unit)}), its
   * result perhaps kept ({@code ref = queue.remove(30000)}). A worker's try that also handles what
   * it took ({@code queue.take().run()}) is no wait retried, nor a sleep that only paces a poll,
   * nor a helper of the unit's own that only declares the exception ({@code flushBatch()}, whose
   * source shows what it does: work, perhaps a pacing sleep).
   */
  private static boolean waitsInTry(MethodAnalysis analysis, Stmt.Catch clause) {
    List<Stmt> statements = analysis.tryOf(clause).body().statements();
    if (statements.size() != 1) {
      return false;
    }
    Expr waited = null;
    if (statements.get(0) instanceof Stmt.ExprStmt e) {
      waited = e.expr() instanceof Expr.Assign a ? a.value() : e.expr();
    } else if (statements.get(0) instanceof Stmt.LocalVar v) {
      waited = v.init();
    }
    return waited instanceof Expr.Call call
        && !CallNames.SLEEPS.contains(call.name())
        && (isInterruptibleWait(call)
            || (call.method().declaresThrowing(Interrupts.INTERRUPTED_EXCEPTION)
                && analysis.context().unit().declarationOf(call) == null)
            || (call.name().equals("get") && call.args().size() == 2));
  }

  /** A loop that runs until a condition: {@code while}, {@code do}, or {@code for} without one. */
  private static boolean isOpen(LoopInfo loop) {
    return loop.kind() == LoopInfo.Kind.WHILE
        || loop.kind() == LoopInfo.Kind.DO_WHILE
        || (loop.kind() == LoopInfo.Kind.FOR && loop.condition() == null);
  }

  /**
   * Whether the loop's condition caps its rounds with a counter it steps ({@code while
   * (sleepCount++ < 5 && !sessions.isEmpty())}): restoring the flag then ends the wait early after
   * a few quick rounds; it does not spin.
   */
  private static boolean countsRounds(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.condition() == null) {
      return false;
    }
    java.util.Set<String> stepped = new java.util.HashSet<>();
    List<Node> nodes = new ArrayList<>(Nodes.preOrder(loop.condition()));
    nodes.addAll(analysis.loopLevel(loop));
    for (Node n : nodes) {
      if (n instanceof Expr.Unary step
          && (step.operator().contains("++") || step.operator().contains("--"))
          && step.operand() instanceof Expr.Name counter) {
        stepped.add(counter.name());
      }
    }
    for (Node n : Nodes.preOrder(loop.condition())) {
      if (n instanceof Expr.Binary test
          && (test.operator().equals("<")
              || test.operator().equals("<=")
              || test.operator().equals(">")
              || test.operator().equals(">="))
          && (test.left() instanceof Expr.Literal || test.right() instanceof Expr.Literal)) {
        Expr counted = test.left() instanceof Expr.Literal ? test.right() : test.left();
        for (Node m : Nodes.preOrder(counted)) {
          if (m instanceof Expr.Name name && stepped.contains(name.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Calls that throw at once when the interrupt flag is set. */
  private static final Set<String> INTERRUPTIBLE_WAITS =
      Set.of(
          "take",
          "poll",
          "offer",
          "put",
          "await",
          "join",
          "tryAcquire",
          "acquire",
          "tryLock",
          "wait");

  /**
   * Whether each round makes a blocking call that fails at once once the flag is restored: a sleep
   * or a wait ({@code take()}, {@code poll(5, SECONDS)}, {@code await()}); a loop that only walks
   * items in memory does not spin.
   */
  private static boolean waitsEachRound(MethodAnalysis analysis, LoopInfo loop) {
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call && isInterruptibleWait(call)) {
        return true;
      }
    }
    return false;
  }

  /** A sleep or a wait that throws at once when the interrupt flag is set. */
  private static boolean isInterruptibleWait(Expr.Call call) {
    return CallNames.SLEEPS.contains(call.name())
        || (INTERRUPTIBLE_WAITS.contains(call.name())
            && (!call.name().equals("poll") || !call.args().isEmpty()));
  }

  private static Span reportedSpan(Stmt.Catch clause) {
    for (int i = 0; i < clause.types().size(); i++) {
      if (clause.types().get(i).isSubtypeOf(Interrupts.INTERRUPTED_EXCEPTION)) {
        return clause.typeSpans().get(i);
      }
    }
    return clause.typeSpan();
  }

  private static List<Fix> fixes(MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    String leave = leaveStatement(analysis, clause, loop);
    if (leave == null || !clause.span().isKnown()) {
      return List.of();
    }
    Set<String> imports = Set.of();
    String leaving = leave.equals("throw") ? "rethrow it" : "leave the loop";
    if (!leave.equals("throw") && breakRunsOffAValueReturningBody(analysis, loop)) {
      // The loop ends a method that returns a value: after a break it would end without one.
      leave = CANCEL;
      leaving = "throw CancellationException (the method has no value to return)";
      imports = Set.of("java.util.concurrent.CancellationException");
    }
    String source = analysis.context().source();
    String indent = Source.indentAt(source, clause.span().start());
    String inner = Source.deeper(source, indent);
    boolean direct = Interrupts.catchesDirectly(clause);
    if (direct && clause.types().size() == 1) {
      return List.of(rewriteDirectClause(analysis, clause, leave, leaving, inner, imports));
    }
    List<Edit> edits = new ArrayList<>();
    String caught = "InterruptedException";
    if (direct) {
      // Split the multi-catch: the interrupt gets a clause of its own.
      List<String> others = new ArrayList<>();
      for (int i = 0; i < clause.types().size(); i++) {
        Span span = clause.typeSpans().get(i);
        TypeRef type = clause.types().get(i);
        if (type.isSubtypeOf(Interrupts.INTERRUPTED_EXCEPTION)) {
          caught = analysis.context().text(span);
        } else {
          others.add(analysis.context().text(span));
        }
      }
      edits.add(Edit.replace(clause.typeSpan(), String.join(" | ", others)));
    }
    String name = analysis.freshLocalName("ie");
    String statement = leave.equals("throw") ? "throw " + name + ";" : leave;
    edits.add(
        0,
        Edit.insert(
            clause.span().start(),
            "catch ("
                + caught
                + " "
                + name
                + ") {\n"
                + inner
                + "Thread.currentThread().interrupt();\n"
                + inner
                + statement
                + "\n"
                + indent
                + "} "));
    return List.of(
        new Fix(
            "Handle InterruptedException first: restore the flag and " + leaving, edits, imports));
  }

  /**
   * For {@code catch (InterruptedException e)}: the handler's body is replaced whole. What it did
   * was retry handling ("retrying..." logs, backoff sleeps, attempt counts); kept in front of a
   * {@code break} it would say the opposite of what now happens.
   */
  private static Fix rewriteDirectClause(
      MethodAnalysis analysis,
      Stmt.Catch clause,
      String leave,
      String leaving,
      String inner,
      Set<String> imports) {
    String statement = leave.equals("throw") ? "throw " + clause.parameter() + ";" : leave;
    String source = analysis.context().source();
    Stmt.Block body = clause.body();
    String closing = Source.indentAt(source, clause.span().start());
    String lines = inner + "Thread.currentThread().interrupt();\n" + inner + statement + "\n";
    // Replace from the line after '{' so that the "Did you mean" line shows the new first line.
    int from = Source.lineAfter(source, body.span().start());
    int to = Source.lineStartOfClosingBrace(source, body.span().end() - 1);
    Edit edit =
        from >= 0 && to >= from
            ? new Edit(from, to, lines)
            : Edit.replace(body.span(), "{\n" + lines + closing + "}");
    return new Fix(
        "Restore the interrupt flag and "
            + (leave.equals("throw") ? "rethrow the InterruptedException" : leaving),
        List.of(edit),
        imports);
  }

  /**
   * Whether a {@code break} would let control run off the end of a method or lambda that returns a
   * value: the loop cannot end normally now ({@code while (true)}, {@code for (;;)} left only by
   * {@code return}), so nothing follows it, and the body has {@code return value} statements.
   * Conservative: a loop nested in further code gets the same treatment.
   */
  private static boolean breakRunsOffAValueReturningBody(MethodAnalysis analysis, LoopInfo loop) {
    if (!(loop.node() instanceof Stmt.Loop statement) || Flow.canCompleteNormally(statement)) {
      return false;
    }
    Expr.Lambda lambda = analysis.enclosingLambda(loop.node());
    Node frame = lambda != null ? lambda.body() : analysis.method().body();
    for (Node n : Nodes.sameFrame(frame)) {
      if (n instanceof Stmt.Return returned && returned.value() != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns {@code "throw"} when the method may throw InterruptedException, a {@code break} that
   * leaves {@code loop}, or {@code null} when neither is possible here (a {@code forEach} lambda,
   * or a {@code switch} between the clause and the loop that would capture a bare {@code break}).
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static String leaveStatement(MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    boolean inLambda = analysis.enclosingLambda(clause) != null;
    if (!inLambda && analysis.method().mayThrow(Interrupts.INTERRUPTED_EXCEPTION)) {
      return "throw";
    }
    if (loop.kind() == LoopInfo.Kind.FOR_EACH_LAMBDA || loop.isWholeMethod()) {
      return null;
    }
    if (inLambda && analysis.enclosingLambda(clause) != analysis.enclosingLambda(loop.node())) {
      return null;
    }
    if (loop.label() != null) {
      return "break " + loop.label() + ";";
    }
    for (Node p = analysis.parent(clause); p != null && p != loop.node(); p = analysis.parent(p)) {
      if (p instanceof Stmt.Switch) {
        return null;
      }
    }
    return "break;";
  }
}
