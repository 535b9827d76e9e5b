package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode G: a retry loop catches {@code CancellationException} and goes round again, either
 * by name or through a broad clause ({@code RuntimeException}, {@code Exception}, {@code
 * Throwable}, {@code IllegalStateException}) around a {@code Future.get} or {@code
 * CompletableFuture.join}. The caller cancelled the work; the loop starts it again.
 *
 * <p>Not reported: broad clauses that classify what they caught (as for {@link
 * UnclassifiedExceptionRetryRule}), or after an earlier clause that takes the cancellation; broad
 * clauses around a wait on a future that only this code holds ({@code executor.submit(task).get()},
 * or a local that only ever holds a fresh {@code submit}/{@code supplyAsync}/{@code runAsync}
 * result and is only waited on): nothing else can cancel it, so no cancellation reaches the clause;
 * and loops whose condition asks the waited-on future {@code isDone()}: a cancelled future is done,
 * so the loop ends.
 *
 * <p>Fix, for a broad clause: a clause placed before it that rethrows the cancellation.
 */
public final class CancellationRetriedRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "CancellationRetried";

  static final String CANCELLATION = "java.util.concurrent.CancellationException";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Stmt.Catch clause : analysis.catches()) {
      if (!clause.catches(CANCELLATION) && !clause.namesSubtypeOf(CANCELLATION)) {
        continue;
      }
      LoopInfo loop = analysis.loopOf(clause);
      if (loop == null
          || !loop.isRetryLoop()
          || !analysis.goesRoundAgain(clause, loop)
          || earlierClauseTakes(analysis, clause)) {
        continue;
      }
      Expr.Call wait = cancellableWait(analysis.tryOf(clause));
      if (wait != null && loopEndsOnceDone(loop, wait.receiver())) {
        continue;
      }
      int direct = directIndex(clause);
      if (direct >= 0) {
        findings.add(
            new Finding(
                NAME,
                clause.typeSpans().get(direct),
                "This retry loop catches CancellationException and goes round again: the caller"
                    + " cancelled the work and the loop starts it again. Rethrow it, or leave the"
                    + " loop",
                List.of()));
        continue;
      }
      if (wait == null
          || onlyThisCodeHolds(analysis, wait.receiver())
          || CatchAllRetries.classifies(analysis, clause)) {
        continue;
      }
      int broad = broadIndex(clause);
      findings.add(
          new Finding(
              NAME,
              clause.typeSpans().get(broad),
              "This retry loop catches "
                  + clause.types().get(broad).simpleName()
                  + " around "
                  + wait.name()
                  + "(), which throws CancellationException when the work was cancelled: the"
                  + " cancellation is retried as if it were a failure. Rethrow"
                  + " CancellationException before this clause",
              fixes(analysis, clause)));
    }
    return findings;
  }

  /**
   * Whether the loop condition asks the waited-on future whether it is done ({@code while (.. &&
   * !waiter.isDone())}): a cancelled future is done, so after a cancellation the loop ends.
   */
  private static boolean loopEndsOnceDone(LoopInfo loop, Expr future) {
    if (loop.condition() == null || !(future instanceof Expr.Name waited)) {
      return false;
    }
    for (Node n : Nodes.preOrder(loop.condition())) {
      if (n instanceof Expr.Call call
          && (call.name().equals("isDone") || call.name().equals("isCancelled"))
          && call.args().isEmpty()
          && call.receiver() instanceof Expr.Name asked
          && asked.name().equals(waited.name())) {
        return true;
      }
    }
    return false;
  }

  private static int directIndex(Stmt.Catch clause) {
    for (int i = 0; i < clause.types().size(); i++) {
      if (clause.types().get(i).isSubtypeOf(CANCELLATION)) {
        return i;
      }
    }
    return -1;
  }

  private static int broadIndex(Stmt.Catch clause) {
    for (int i = 0; i < clause.types().size(); i++) {
      if (clause.types().get(i).isSupertypeOf(CANCELLATION)) {
        return i;
      }
    }
    return 0;
  }

  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean earlierClauseTakes(MethodAnalysis analysis, Stmt.Catch clause) {
    for (Stmt.Catch earlier : analysis.tryOf(clause).catches()) {
      if (earlier == clause) {
        return false;
      }
      if (earlier.catches(CANCELLATION)) {
        return true;
      }
    }
    return false;
  }

  /** Calls that start work and return a future that, at first, only their caller holds. */
  private static final Set<String> STARTS = Set.of("submit", "supplyAsync", "runAsync");

  /** Calls on a future that wait for it or read its state: none of them can cancel it. */
  private static final Set<String> READS =
      Set.of("get", "join", "getNow", "isDone", "isCompletedExceptionally", "resultNow");

  /**
   * Whether the waited-on future is one only this code holds: a fresh {@code submit}, {@code
   * supplyAsync} or {@code runAsync} result waited on at once, or a local that only ever holds one
   * and is used for nothing but waits and reads. No other code can cancel such a future.
   */
  private static boolean onlyThisCodeHolds(MethodAnalysis analysis, Expr future) {
    if (future instanceof Expr.Call start) {
      return startsWork(start);
    }
    if (!(future instanceof Expr.Name local) || local.kind() != Expr.NameKind.LOCAL) {
      return false;
    }
    List<Expr> values = analysis.valuesOf(local.name());
    if (values.isEmpty()) {
      return false;
    }
    for (Expr value : values) {
      if (!(value instanceof Expr.Call start) || !startsWork(start)) {
        return false;
      }
    }
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (n instanceof Expr.Name use && use.isVariable(local.name()) && !onlyRead(analysis, use)) {
        return false;
      }
    }
    return true;
  }

  private static boolean startsWork(Expr.Call call) {
    return STARTS.contains(call.name())
        && (call.isCallTo("java.util.concurrent.ExecutorService", "submit")
            || Nodes.isStaticCallOn(call, "java.util.concurrent.CompletableFuture"));
  }

  /** Whether a use of the future's local only waits on it, reads it, or assigns it. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean onlyRead(MethodAnalysis analysis, Expr.Name use) {
    Node parent = analysis.parent(use);
    return (parent instanceof Expr.Call call
            && call.receiver() == use
            && READS.contains(call.name()))
        || (parent instanceof Expr.Assign assign && assign.target() == use);
  }

  /** A {@code Future.get} or {@code CompletableFuture.join} the try block waits on. */
  private static Expr.Call cancellableWait(Stmt.Try t) {
    for (Expr.Call call : Nodes.calls(t.body())) {
      if (call.isCallTo("java.util.concurrent.Future", "get")
          || call.isCallTo("java.util.concurrent.CompletableFuture", "join")
          || call.isCallTo("java.util.concurrent.CompletableFuture", "getNow")) {
        return call;
      }
    }
    return null;
  }

  private static List<Fix> fixes(MethodAnalysis analysis, Stmt.Catch clause) {
    if (clause.types().size() != 1 || !clause.span().isKnown()) {
      return List.of();
    }
    String source = analysis.context().source();
    String indent = Source.indentAt(source, clause.span().start());
    String inner = Source.deeper(source, indent);
    String name = analysis.freshLocalName("cancelled");
    String rethrow =
        "catch (CancellationException "
            + name
            + ") {\n"
            + inner
            + "throw "
            + name
            + ";\n"
            + indent
            + "} ";
    return List.of(
        new Fix(
            "Rethrow CancellationException before the broad handler",
            List.of(Edit.insert(clause.span().start(), rethrow)),
            Set.of(CANCELLATION)));
  }
}
