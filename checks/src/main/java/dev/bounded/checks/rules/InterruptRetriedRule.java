package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Edit;
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
 * <p>Fix: a separate {@code catch (InterruptedException)} placed first that restores the flag and
 * rethrows when the method may throw it, or breaks out of the loop otherwise.
 */
public final class InterruptRetriedRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "InterruptRetried";

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
      String message =
          loop.isBackgroundRetry()
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
      findings.add(new Finding(NAME, reportedSpan(clause), message, fixes(analysis, clause, loop)));
    }
    return findings;
  }

  /**
   * Returns the retry loop that retries an interrupt caught by {@code clause}, or {@code null} if
   * this rule does not apply to the clause. {@link InterruptSwallowedRule} leaves such clauses to
   * this rule.
   */
  static LoopInfo retryingLoop(MethodAnalysis analysis, Stmt.Catch clause) {
    LoopInfo loop = analysis.loopOf(clause);
    if (loop == null
        || !(loop.isRetryLoop() || loop.isBackgroundRetry())
        || !Interrupts.receivesInterrupt(analysis, clause, true)
        || !analysis.goesRoundAgain(clause, loop)
        || Interrupts.remembersInterrupt(analysis, clause)
        || Interrupts.propagatesAsInterrupt(analysis, clause)
        || Interrupts.isExpectedWakeUp(analysis, clause, loop)) {
      return null;
    }
    return loop;
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
    String source = analysis.context().source();
    String indent = Source.indentAt(source, clause.span().start());
    String inner = Source.deeper(source, indent);
    boolean direct = Interrupts.catchesDirectly(clause);
    if (direct && clause.types().size() == 1) {
      return List.of(rewriteDirectClause(clause, leave, indent, inner));
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
            "Handle InterruptedException first: restore the flag and "
                + (leave.equals("throw") ? "rethrow it" : "leave the loop"),
            edits,
            Set.of()));
  }

  /** For {@code catch (InterruptedException e)}: restore at the start, leave at the end. */
  private static Fix rewriteDirectClause(
      Stmt.Catch clause, String leave, String indent, String inner) {
    String statement = leave.equals("throw") ? "throw " + clause.parameter() + ";" : leave;
    Stmt.Block body = clause.body();
    boolean restores = Interrupts.restoresFlag(body);
    boolean hasContinue =
        Nodes.sameFrame(body).stream()
            .anyMatch(n -> n instanceof Stmt.Continue || n instanceof Stmt.Return);
    List<Edit> edits = new ArrayList<>();
    if (hasContinue || !Flow.canCompleteNormally(body) || body.statements().isEmpty()) {
      // Empty, or going round again through a continue: replace the handler whole.
      edits.add(
          Edit.replace(
              body.span(),
              "{\n"
                  + inner
                  + "Thread.currentThread().interrupt();\n"
                  + inner
                  + statement
                  + "\n"
                  + indent
                  + "}"));
    } else {
      if (!restores) {
        edits.add(
            Edit.insert(
                body.span().start() + 1, "\n" + inner + "Thread.currentThread().interrupt();"));
      }
      edits.add(Edit.insert(lastContentEnd(body), "\n" + inner + statement));
    }
    return new Fix(
        "Restore the interrupt flag and "
            + (leave.equals("throw") ? "rethrow the InterruptedException" : "leave the loop"),
        edits,
        Set.of());
  }

  /** The offset just after the last statement of a block, or just after its opening brace. */
  private static int lastContentEnd(Stmt.Block body) {
    List<Stmt> statements = body.statements();
    if (statements.isEmpty() || !statements.get(statements.size() - 1).span().isKnown()) {
      return body.span().start() + 1;
    }
    return statements.get(statements.size() - 1).span().end();
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
