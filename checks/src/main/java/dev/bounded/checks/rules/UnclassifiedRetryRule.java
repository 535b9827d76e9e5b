package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode B: a retry loop catches {@code Throwable} or {@code Error} and goes round again, so
 * {@code OutOfMemoryError}, {@code StackOverflowError} and failed assertions are retried as if they
 * were transient. Clauses that classify what they caught are not reported.
 *
 * <p>Fix, for {@code catch (Throwable t)}: a clause placed before it that rethrows errors.
 */
public final class UnclassifiedRetryRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UnclassifiedRetry";

  /** Catches that take errors: Throwable, Error, and VirtualMachineError and its subtypes. */
  private static boolean catchesErrors(TypeRef type) {
    return type.name().equals("java.lang.Throwable")
        || type.name().equals("java.lang.Error")
        || type.isSubtypeOf("java.lang.VirtualMachineError");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (CatchAllRetries.Match match :
        CatchAllRetries.find(
            analysis, UnclassifiedRetryRule::catchesErrors, "java.lang.Error", true)) {
      String type = match.clause().types().get(match.typeIndex()).simpleName();
      String message =
          match.inCaller(analysis)
              ? "This method catches "
                  + type
                  + " of its attempt and returns, and a "
                  + (match.loop().isRetryLoop() ? "retry loop" : "background loop")
                  + " that calls it goes round again: OutOfMemoryError, StackOverflowError and"
                  + " failed assertions are retried as if they were transient. Catch the failures"
                  + " you expect, and let errors through"
              : match.loop() == null
                  ? "This handler catches "
                      + type
                      + " and schedules the work to run again: OutOfMemoryError, StackOverflowError"
                      + " and failed assertions are retried later as if they were transient. Retry"
                      + " only the failures you know to be transient, and let errors through"
                  : match.loop().isRetryLoop()
                      ? "This retry loop catches "
                          + type
                          + " and goes round again: OutOfMemoryError, StackOverflowError and failed"
                          + " assertions are retried as if they were transient. Retry only the failures"
                          + " you know to be transient (RetryPolicy.retryOn), and let errors through"
                      : "A background loop retries after an Error: it catches "
                          + type
                          + " and goes round again until stopped, so OutOfMemoryError and"
                          + " StackOverflowError are retried for ever as if they were transient. Catch the"
                          + " failures you expect, and let errors end the loop";
      findings.add(new Finding(NAME, match.typeSpan(), message, fixes(analysis, match)));
    }
    findings.addAll(
        PermissivePredicates.findings(
            NAME,
            analysis,
            UnclassifiedRetryRule::catchesErrors,
            "OutOfMemoryError, StackOverflowError and failed assertions are retried as if they"
                + " were transient"));
    for (Expr.Call retry : CatchAllRetries.unclassifiedCallbackRetries(analysis)) {
      findings.add(
          new Finding(
              NAME,
              retry.nameSpan(),
              "This failure callback runs the work again after any Throwable: OutOfMemoryError,"
                  + " StackOverflowError and failed assertions are retried as if they were"
                  + " transient. Retry only the failures you know to be transient, and let errors"
                  + " through",
              List.of()));
    }
    return findings;
  }

  private static List<Fix> fixes(MethodAnalysis analysis, CatchAllRetries.Match match) {
    Stmt.Catch clause = match.clause();
    if (!match.typeName().equals("java.lang.Throwable")
        || clause.types().size() != 1
        || !clause.span().isKnown()) {
      return List.of();
    }
    String source = analysis.context().source();
    String indent = Source.indentAt(source, clause.span().start());
    String inner = Source.deeper(source, indent);
    String name = analysis.freshLocalName("error");
    String rethrow =
        "catch (Error " + name + ") {\n" + inner + "throw " + name + ";\n" + indent + "} ";
    return List.of(
        new Fix(
            "Rethrow errors before the Throwable handler",
            List.of(Edit.insert(clause.span().start(), rethrow)),
            Set.of()));
  }
}
