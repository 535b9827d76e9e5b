package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode B, milder: a retry loop catches {@code Exception} or {@code RuntimeException}
 * without looking at what it caught, so programming errors ({@code NullPointerException}, {@code
 * IllegalArgumentException}) are retried along with transient failures. Reported as a suggestion:
 * often harmless, always worth classifying. No automatic fix: only the author knows which failures
 * are transient.
 */
public final class UnclassifiedExceptionRetryRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UnclassifiedExceptionRetry";

  private static final Set<String> BROAD_CATCHES =
      Set.of("java.lang.Exception", "java.lang.RuntimeException");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (CatchAllRetries.Match match :
        CatchAllRetries.find(
            analysis,
            type -> BROAD_CATCHES.contains(type.name()),
            "java.lang.RuntimeException",
            false)) {
      String type = match.typeName().substring("java.lang.".length());
      findings.add(
          new Finding(
              NAME,
              match.typeSpan(),
              (match.loop() == null
                      ? "This handler schedules the work again after catching "
                      : "This retry loop catches ")
                  + type
                  + " without classifying it: programming errors such as NullPointerException or"
                  + " IllegalArgumentException are retried along with transient failures. Catch"
                  + " the transient types, or check the failure before retrying"
                  + " (RetryPolicy.retryOn)",
              List.of()));
    }
    return findings;
  }
}
