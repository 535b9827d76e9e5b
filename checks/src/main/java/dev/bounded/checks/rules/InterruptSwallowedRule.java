package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode A, anywhere: {@code InterruptedException} is caught (alone or in a multi-catch) and
 * neither the interrupt flag is restored nor the exception propagated (rethrown, wrapped as a
 * cause, returned, or handed to {@code completeExceptionally}). Throwing it cleared the flag, so
 * the request to stop is lost. Naming the variable {@code ignored} does not make it safe.
 *
 * <p>Clauses inside retry loops that go round again are {@link InterruptRetriedRule}'s. Not
 * reported either: the "uninterruptibly" idiom (remember the interrupt in a local, restore it
 * later); a clause that ends a thread's or task's body ({@code run()}, {@code call()}, a lambda
 * given to a thread or executor) by returning, throwing or leaving its loops; the interrupt used as
 * a wake-up in a component's own worker loop (its condition checks a stop flag or state, and it
 * runs in {@code run()}, {@code call()}, a private method or a task lambda); a worker on a thread
 * its class starts and stops with a flag, in a class that interrupts no thread; an exception stored
 * in a field for another thread to rethrow, or the interrupt recorded in a field named for it
 * ({@code interrupted = true}); a {@code get()} on a future complete where it runs (its own
 * callback, or {@code allOf}'s over it); and a handler that exits the process.
 *
 * <p>Fix: restore the flag first thing in the handler ({@code if (e instanceof
 * InterruptedException)} in a multi-catch).
 */
public final class InterruptSwallowedRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "InterruptSwallowed";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Stmt.Catch clause : analysis.catches()) {
      if (!Interrupts.receivesInterrupt(analysis, clause)
          || (Interrupts.restoresFlag(analysis, clause.body())
              && !Interrupts.restoresOnlyUnderSwitch(analysis, clause))
          || Interrupts.propagates(analysis, clause)
          || Interrupts.remembersInterrupt(analysis, clause)
          || Interrupts.endsTask(analysis, clause)
          || Interrupts.isWakeUpInOwnWorker(analysis, clause)
          || Interrupts.exitsProcess(clause.body())
          || Interrupts.exitsProcessAfter(analysis, clause)
          || retried(analysis, clause)
          || InterruptRetriedRule.retriesFromCallback(analysis, clause)
          || InterruptRetriedRule.retriesBySelfCallAfterWait(analysis, clause)) {
        continue;
      }
      String what =
          Interrupts.catchesDirectly(clause)
              ? "InterruptedException is swallowed"
              : "This catch of "
                  + clause.types().get(0).simpleName()
                  + " swallows the InterruptedException its try block can throw";
      findings.add(
          new Finding(
              NAME,
              interruptTypeSpan(clause),
              what
                  + ": throwing it cleared the interrupt flag, so code"
                  + " above cannot see that the thread was asked to stop. Restore the flag with"
                  + " Thread.currentThread().interrupt(), or propagate the exception",
              fix(analysis, clause)));
    }
    return findings;
  }

  /**
   * Whether {@link InterruptRetriedRule} reports the clause as a retry of the interrupt. A wait
   * that goes on after the swallowed interrupt is reported by both: there the lost flag is this
   * rule's, the wait that goes on is the other's.
   */
  private static boolean retried(MethodAnalysis analysis, Stmt.Catch clause) {
    LoopInfo loop = InterruptRetriedRule.retryingLoop(analysis, clause);
    return loop != null && !InterruptRetriedRule.onlyWaitsAgain(analysis, clause, loop);
  }

  private static Span interruptTypeSpan(Stmt.Catch clause) {
    for (int i = 0; i < clause.types().size(); i++) {
      if (clause.types().get(i).isSubtypeOf(Interrupts.INTERRUPTED_EXCEPTION)) {
        return clause.typeSpans().get(i);
      }
    }
    return clause.typeSpan();
  }

  private static List<Fix> fix(MethodAnalysis analysis, Stmt.Catch clause) {
    Stmt.Block body = clause.body();
    if (!body.span().isKnown()) {
      return List.of();
    }
    String source = analysis.context().source();
    String indent = Source.indentAt(source, clause.span().start());
    String inner = Source.deeper(source, indent);
    String restore = "Thread.currentThread().interrupt();";
    boolean direct = Interrupts.catchesDirectly(clause);
    if (clause.types().size() > 1 || !direct) {
      String type =
          direct ? analysis.context().text(interruptTypeSpan(clause)) : "InterruptedException";
      restore =
          "if ("
              + clause.parameter()
              + " instanceof "
              + type
              + ") {\n"
              + Source.deeper(source, inner)
              + restore
              + "\n"
              + inner
              + "}";
    }
    // Edits start on the line after '{', so that the "Did you mean" line shows the restore.
    int from = Source.lineAfter(source, body.span().start());
    int to = Source.lineStartOfClosingBrace(source, body.span().end() - 1);
    Edit edit;
    if (from < 0) {
      edit =
          body.statements().isEmpty()
              ? Edit.replace(body.span(), "{\n" + inner + restore + "\n" + indent + "}")
              : Edit.insert(body.span().start() + 1, "\n" + inner + restore);
    } else if (body.statements().isEmpty() && to >= from) {
      edit = new Edit(from, to, inner + restore + "\n"); // an empty or comment-only handler
    } else {
      edit = Edit.insert(from, inner + restore + "\n");
    }
    return List.of(new Fix("Restore the interrupt flag", List.of(edit), Set.of()));
  }
}
