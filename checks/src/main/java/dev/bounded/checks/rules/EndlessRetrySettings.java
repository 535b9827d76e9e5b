package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Retry settings that never give up, written as one builder chain of Google's gax {@code
 * RetrySettings}: {@code builder.setMaxAttempts(Integer.MAX_VALUE)
 * .setTotalTimeoutDuration(Duration.ofNanos(Long.MAX_VALUE))}. gax's {@code
 * ExponentialRetryAlgorithm.shouldRetry} gives up when the attempts reach {@code maxAttempts} (0:
 * no attempt limit) or when the time spent passes {@code totalTimeout} (zero: no time limit); with
 * both limits set to their maximum (or to "none") the policy retries for as long as the failure is
 * retryable. One of the two alone still bounds the retries: the other limit is the builder's.
 */
final class EndlessRetrySettings {
  /** The setters of gax's time limit (the threeten and the java.time forms). */
  private static final Set<String> TOTAL_TIME =
      Set.of("setTotalTimeout", "setTotalTimeoutDuration");

  private EndlessRetrySettings() {}

  /**
   * Returns the attempt-limit setters of the method's builder chains that also lift the time limit:
   * {@code setMaxAttempts(Integer.MAX_VALUE)} (or {@code 0}, no attempt limit) in the same chain as
   * {@code setTotalTimeoutDuration(..)} given a value read from {@code Long.MAX_VALUE} or {@code
   * Integer.MAX_VALUE}.
   */
  static List<Expr.Call> find(MethodAnalysis analysis) {
    List<Expr.Call> found = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call attempts)
          || !CallNames.RETRY_ATTEMPT_SETTERS.contains(attempts.name())
          || attempts.args().size() != 1
          || !(isMaximum(attempts.args().get(0)) || isZero(attempts.args().get(0)))) {
        continue; /* Fast path: not an attempt limit lifted. */
      }
      for (Expr.Call other : chain(analysis, attempts)) {
        if (TOTAL_TIME.contains(other.name())
            && other.args().size() == 1
            && isMaximum(other.args().get(0))) {
          found.add(attempts);
          break;
        }
      }
    }
    return found;
  }

  /** The calls of the builder chain that {@code call} is a link of (itself excluded). */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static List<Expr.Call> chain(MethodAnalysis analysis, Expr.Call call) {
    List<Expr.Call> links = new ArrayList<>();
    for (Expr r = call.receiver(); r instanceof Expr.Call inner; r = inner.receiver()) {
      links.add(inner);
    }
    Node child = call;
    for (Node p = analysis.parent(call);
        p instanceof Expr.Call outer && outer.receiver() == child;
        child = p, p = analysis.parent(p)) {
      links.add(outer);
    }
    return links;
  }

  /** {@code Integer.MAX_VALUE}, {@code Long.MAX_VALUE}, or a value made from one. */
  private static boolean isMaximum(Expr expr) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Name name
          && name.name().equals("MAX_VALUE")
          && name.qualifier() instanceof Expr.Name type
          && (type.name().equals("Integer") || type.name().equals("Long"))) {
        return true;
      }
      if (n instanceof Expr.Literal literal
          && ((literal.value() instanceof Integer i && i == Integer.MAX_VALUE)
              || (literal.value() instanceof Long l && l == Long.MAX_VALUE))) {
        return true; // a constant the frontend folded
      }
    }
    return false;
  }

  private static boolean isZero(Expr expr) {
    return expr instanceof Expr.Literal literal
        && literal.value() instanceof Number number
        && number.longValue() == 0;
  }
}
