package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The waits between attempts of retry loops, and what their delays are made of: what {@link
 * BackoffWithoutJitterRule} and {@link UncappedBackoffRule} share.
 */
final class Backoffs {
  /** Calls a delay may be computed with and stay deterministic: arithmetic and conversions. */
  private static final Set<String> ARITHMETIC =
      Set.of(
          "min",
          "max",
          "pow",
          "abs",
          "multiplyExact",
          "addExact",
          "toMillis",
          "toNanos",
          "toSeconds",
          "toMicros",
          "convert",
          "ofMillis",
          "ofSeconds",
          "ofNanos",
          "ofMinutes",
          "multipliedBy",
          "plus",
          "plusMillis",
          "valueOf",
          "longValue",
          "intValue");

  /** Names that say a value is randomised. */
  private static final Pattern RANDOM_NAME = Pattern.compile("(?i).*(jitter|random|rand|rnd).*");

  /** Getter names that compute a delay rather than read a setting. */
  private static final Pattern COMPUTED_DELAY = Pattern.compile("(?i).*(next|backoff|compute).*");

  /**
   * A wait between attempts.
   *
   * @param loop the retry loop
   * @param call the sleep call
   * @param delay the delay argument
   * @param unit the {@code TimeUnit} constant's name when known ({@code MILLISECONDS} for {@code
   *     Thread.sleep(long)}), else {@code null}
   */
  record Wait(LoopInfo loop, Expr.Call call, Expr delay, String unit) {}

  private Backoffs() {}

  /** Returns the sleeps at the level of retry loops that retry failures, in source order. */
  static List<Wait> waits(MethodAnalysis analysis) {
    List<Wait> waits = new ArrayList<>();
    for (LoopInfo loop : analysis.retryLoops()) {
      if (!loop.evidence().contains(LoopInfo.Evidence.RETRYING_CATCH)) {
        continue; // a polling loop, not a retry of failures
      }
      for (Node n : analysis.loopLevel(loop)) {
        if (n instanceof Expr.Call call
            && CallNames.SLEEPS.contains(call.name())
            && !call.args().isEmpty()) {
          Expr delay =
              call.name().equals("parkNanos")
                  ? call.args().get(call.args().size() - 1)
                  : call.args().get(0);
          waits.add(new Wait(loop, call, delay, unit(call)));
        }
      }
    }
    return waits;
  }

  private static String unit(Expr.Call call) {
    if (call.name().equals("sleep")
        && call.args().size() == 1
        && call.receiver() instanceof Expr.Name type
        && type.name().equals("Thread")) {
      return isDuration(call.args().get(0)) ? null : "MILLISECONDS";
    }
    if (call.name().equals("parkNanos")) {
      return "NANOSECONDS";
    }
    if (call.name().equals("sleep")
        && call.receiver() instanceof Expr.Name unit
        && unit.qualifier() != null
        && (unit.type().isSubtypeOf("java.util.concurrent.TimeUnit")
            || (!unit.type().isKnown()
                && unit.qualifier() instanceof Expr.Name q
                && q.name().equals("TimeUnit")))) {
      return unit.name();
    }
    if (call.name().equals("sleepUninterruptibly")
        && call.args().size() == 2
        && call.args().get(1) instanceof Expr.Name unit) {
      return unit.name();
    }
    return null;
  }

  private static boolean isDuration(Expr expr) {
    return expr.type().isSubtypeOf("java.time.Duration");
  }

  /**
   * Whether a delay has no random part: it is built only of literals, variables, fields and
   * arithmetic, following local variables to their values. A call the analysis does not know (a
   * policy's {@code nextDelay()}) could add jitter, so it makes the delay not provably fixed.
   */
  static boolean isDeterministic(MethodAnalysis analysis, Expr delay) {
    return isDeterministic(analysis, delay, new HashSet<>());
  }

  private static boolean isDeterministic(MethodAnalysis analysis, Node expr, Set<String> seen) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Call call) {
        boolean getter =
            call.args().isEmpty()
                && call.name().startsWith("get")
                && !COMPUTED_DELAY.matcher(call.name()).matches();
        if (!(ARITHMETIC.contains(call.name()) || getter)
            || RANDOM_NAME.matcher(call.name()).matches()) {
          return false;
        }
      } else if (n instanceof Expr.Lambda || n instanceof Expr.Other) {
        return false;
      } else if (n instanceof Expr.Name name) {
        if (RANDOM_NAME.matcher(name.name()).matches()) {
          return false;
        }
        if (name.isVariable(name.name()) && name.kind() == Expr.NameKind.LOCAL) {
          if (!seen.add(name.name())) {
            continue; // already followed: delay = delay * 2
          }
          for (Expr value : assignedValues(analysis, name.name())) {
            if (!isDeterministic(analysis, value, seen)) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }

  /** Every value given to a local: initialiser, simple and compound assignments. */
  static List<Expr> assignedValues(MethodAnalysis analysis, String variable) {
    List<Expr> values = new ArrayList<>(analysis.valuesOf(variable));
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (n instanceof Expr.Assign assign
          && !assign.operator().equals("=")
          && assign.target() instanceof Expr.Name target
          && target.isVariable(variable)) {
        values.add(assign.value());
      }
    }
    return values;
  }
}
