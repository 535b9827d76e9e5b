package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Failure mode F: a retry loop's delay grows per attempt ({@code delay *= 2}, {@code delay <<= 1},
 * {@code base << attempt}, {@code Math.pow(2, attempt)}) and nothing caps it. After a few dozen
 * attempts a caller waits hours; with a shift the delay overflows and turns negative.
 *
 * <p>A cap is a {@code Math.min}/{@code max}-like call on the delay, or a comparison of it anywhere
 * in the method ({@code if (delay > MAX) delay = MAX}).
 *
 * <p>Fix, for a growth assignment of an {@code int} or {@code long} local waited on in a known
 * unit: {@code delay = Math.min(delay * 2, cap)} with a cap of 30 seconds.
 */
public final class UncappedBackoffRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UncappedBackoff";

  /** The cap the fix proposes, per unit: 30 seconds, a common ceiling to tune. */
  private static final Map<String, String> CAPS =
      Map.of(
          "MILLISECONDS", "30_000",
          "SECONDS", "30",
          "MICROSECONDS", "30_000_000");

  private static final Set<String> CAPPING_CALLS = Set.of("min", "clamp", "constrainToRange");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    IdentityHashMap<Node, Boolean> reported = new IdentityHashMap<>();
    for (Backoffs.Wait wait : Backoffs.waits(analysis)) {
      for (String variable : variablesOf(analysis, wait.delay())) {
        if (isCapped(analysis, variable)) {
          continue;
        }
        for (Node n : Backoffs.level(analysis, wait)) {
          if (n instanceof Expr.Assign assign
              && isGrowth(assign, variable)
              && reported.put(assign, Boolean.TRUE) == null) {
            findings.add(finding(analysis, assign, wait, variable));
          }
        }
      }
      Expr shift = exponent(analysis, wait);
      if (shift != null && reported.put(shift, Boolean.TRUE) == null) {
        findings.add(
            new Finding(
                NAME,
                new Span(shift.span().start(), shift.span().start()),
                message(analysis.context().text(shift.span())),
                List.of()));
      }
    }
    if (findings.isEmpty()) {
      // A delay grown per failure outside a retry loop: a reconnect timer's, a rescheduled job's.
      for (Expr growth : Backoffs.growths(analysis, false)) {
        String grown =
            growth instanceof Expr.Assign assign && assign.target() instanceof Expr.Name target
                ? target.name()
                : Backoffs.assignedName(analysis, growth);
        if (grown != null && comparedInUnit(analysis, grown)) {
          continue; // if (reconnectDelay > maxReconnectDelay) reconnectDelay = maxReconnectDelay
        }
        if (exponentCapped(analysis, growth)) {
          continue; // if (attempt++ < MAX_RETRIES) { int delay = 1 << attempt + 2; .. }
        }
        if (reported.put(growth, Boolean.TRUE) == null) {
          findings.add(
              new Finding(
                  NAME,
                  new Span(growth.span().start(), growth.span().start()),
                  "This backoff grows the delay with every failure ("
                      + analysis.context().text(growth.span())
                      + ") and nothing caps it: after a few dozen failures the work waits hours"
                      + " or days, and a shift overflows. Cap it: Math.min(cap, delay), before"
                      + " the jitter",
                  List.of()));
        }
      }
      for (Expr.Assign growth : uncappedByDefault(analysis)) {
        if (reported.put(growth, Boolean.TRUE) == null) {
          findings.add(
              new Finding(
                  NAME,
                  new Span(growth.span().start(), growth.span().start()),
                  "This backoff grows the delay with every failure ("
                      + analysis.context().text(growth.span())
                      + ") and caps it only when a maximum is configured, which by default it is"
                      + " not: after a few failures the work waits hours. Give the maximum a"
                      + " default: Math.min(cap, delay), before the jitter",
                  List.of()));
        }
      }
    }
    findings.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
    return findings;
  }

  /**
   * Returns the growths of a delay by a multiplier ({@code nextDelay = previousDelay *
   * backOffMultiplier}, {@code delay *= multiplier}) whose every cap in the method applies only
   * when a maximum is configured ({@code if (maximumRedeliveryDelay != -1 && nextDelay >
   * maximumRedeliveryDelay)}, {@code if (maxDelay > 0) {..}}) and whose class leaves it
   * unconfigured by default ({@code long maximumRedeliveryDelay = -1}): the delay grows without
   * bound unless a user thinks of setting it. A {@code min} on the delay is a cap: none reported.
   */
  private static List<Expr.Assign> uncappedByDefault(MethodAnalysis analysis) {
    List<Expr.Assign> found = new ArrayList<>();
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Assign assign)
          || !(assign.target() instanceof Expr.Name grown)
          || !Backoffs.DELAY_NAME.matcher(grown.name()).matches()
          || !growsByMultiplier(assign, grown.name())) {
        continue;
      }
      boolean guarded = false;
      boolean unguarded = false;
      for (Node m : analysis.bodyNodes()) {
        if (m instanceof Expr.Call call
            && CAPPING_CALLS.contains(call.name())
            && Nodes.readsName(call, grown.name())) {
          unguarded = true;
        } else if (m instanceof Expr.Binary compare
            && isOrdering(compare)
            && Nodes.readsName(compare, grown.name())) {
          String cap = otherField(compare, grown.name());
          if (cap != null && capIsOptional(analysis, compare, cap)) {
            guarded = true;
          } else {
            unguarded = true;
          }
        }
      }
      if (guarded && !unguarded) {
        found.add(assign);
      }
    }
    return found;
  }

  /**
   * {@code d *= m}, {@code d = d * m}, or {@code d = previousDelay * m} of a parameter named for a
   * delay, by a multiplier named as one ({@code backOffMultiplier}, {@code getMultiplier()}).
   */
  private static boolean growsByMultiplier(Expr.Assign assign, String target) {
    Expr base;
    Expr by;
    if (assign.operator().equals("*=")) {
      base = assign.target();
      by = assign.value();
    } else if (assign.operator().equals("=")
        && assign.value() instanceof Expr.Binary product
        && product.operator().equals("*")) {
      base = product.left();
      by = product.right();
    } else {
      return false;
    }
    boolean grows =
        base instanceof Expr.Name self
            && (self.name().equals(target)
                || (self.kind() == Expr.NameKind.PARAMETER
                    && Backoffs.DELAY_NAME.matcher(self.name()).matches()));
    String factor =
        by instanceof Expr.Name multiplier
            ? multiplier.name()
            : by instanceof Expr.Call getter && getter.args().isEmpty() ? getter.name() : "";
    return grows && Backoffs.MULTIPLIER_NAME.matcher(factor).matches();
  }

  private static boolean isOrdering(Expr.Binary binary) {
    return switch (binary.operator()) {
      case "<", "<=", ">", ">=" -> true;
      default -> false;
    };
  }

  /** The field the delay is compared with ({@code nextDelay > maximumRedeliveryDelay}), or null. */
  private static String otherField(Expr.Binary compare, String delay) {
    Expr other =
        Nodes.readsName(compare.left(), delay)
            ? compare.right()
            : Nodes.readsName(compare.right(), delay) ? compare.left() : null;
    return other instanceof Expr.Name field
            && field.kind() == Expr.NameKind.FIELD
            && !NamePattern.isConstantName(field.name())
        ? field.name()
        : null;
  }

  /**
   * Whether a comparison with the cap runs only when the cap is set ({@code cap != -1 && ..}, or in
   * an {@code if (cap > 0)}), and the cap's initialiser in its class is the value that means unset.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean capIsOptional(MethodAnalysis analysis, Expr.Binary compare, String cap) {
    Long unset = number(analysis.context().fieldInitialiser(cap));
    if (unset == null) {
      return false;
    }
    Node child = compare;
    for (Node p = analysis.parent(compare); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Expr.Binary and && and.operator().equals("&&")) {
        Expr other = and.left() == child ? and.right() : and.left();
        if (testsSet(other, cap, unset)) {
          return true;
        }
      }
      if (p instanceof Stmt.If check && check.then() == child) {
        if (testsSet(check.condition(), cap, unset)) {
          return true;
        }
      }
      if (p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  /** {@code cap != unset}, or {@code cap > k} with {@code unset <= k}, in an {@code &&} chain. */
  private static boolean testsSet(Expr test, String cap, long unset) {
    for (Node n : Nodes.sameFrame(test)) {
      if (n instanceof Expr.Binary binary
          && binary.left() instanceof Expr.Name name
          && name.name().equals(cap)) {
        Long value = number(binary.right());
        if (value != null
            && ((binary.operator().equals("!=") && value.longValue() == unset)
                || (binary.operator().equals(">") && unset <= value)
                || (binary.operator().equals(">=") && unset < value))) {
          return true;
        }
      }
    }
    return false;
  }

  /** An integer literal's value ({@code -1} too), or null. */
  private static Long number(Expr expr) {
    if (expr instanceof Expr.Literal literal
        && (literal.value() instanceof Integer || literal.value() instanceof Long)) {
      return ((Number) literal.value()).longValue();
    }
    if (expr instanceof Expr.Unary minus && minus.operator().equals("-")) {
      Long value = number(minus.operand());
      return value == null ? null : -value;
    }
    return null;
  }

  private static Finding finding(
      MethodAnalysis analysis, Expr.Assign assign, Backoffs.Wait wait, String variable) {
    return new Finding(
        NAME,
        new Span(assign.span().start(), assign.span().start()),
        message(analysis.context().text(assign.span())),
        fixes(analysis, assign, wait, variable));
  }

  private static String message(String growth) {
    return "This retry loop's delay grows with every attempt ("
        + growth
        + ") and nothing caps it: after a few dozen attempts a caller waits for hours, and a"
        + " shifted delay overflows. Cap it: Math.min(maxDelay, delay) before the jitter"
        + " (RetryPolicy.backoff(base, cap))";
  }

  /** The local variables the delay is read from, directly or through one local. */
  private static List<String> variablesOf(MethodAnalysis analysis, Expr delay) {
    List<String> variables = new ArrayList<>();
    for (Node n : Nodes.sameFrame(delay)) {
      if (n instanceof Expr.Name name && name.isVariable(name.name())) {
        variables.add(name.name());
        for (Expr value : analysis.valuesOf(name.name())) {
          for (Node m : Nodes.sameFrame(value)) {
            if (m instanceof Expr.Name inner && inner.isVariable(inner.name())) {
              variables.add(inner.name());
            }
          }
        }
      }
    }
    return variables;
  }

  /** {@code v *= k}, {@code v <<= k}, {@code v = v * k}, {@code v = v << k}. */
  private static boolean isGrowth(Expr.Assign assign, String variable) {
    if (!(assign.target() instanceof Expr.Name target) || !target.isVariable(variable)) {
      return false;
    }
    if (assign.operator().equals("*=") || assign.operator().equals("<<=")) {
      return !(assign.value() instanceof Expr.Literal literal
          && literal.value() instanceof Number number
          && number.doubleValue() <= 1);
    }
    return assign.operator().equals("=")
        && assign.value() instanceof Expr.Binary binary
        && (binary.operator().equals("*") || binary.operator().equals("<<"))
        && Nodes.mentions(binary, variable);
  }

  /** Whether anything in the method caps the variable: a min call on it, or a comparison. */
  /**
   * Whether any method of the unit caps or compares the value ({@code if (delay > max) delay = max}
   * in the method that uses the field the growth writes).
   */
  private static boolean comparedInUnit(MethodAnalysis analysis, String variable) {
    for (MethodModel method : analysis.context().unit().methods()) {
      if (method.body() == null) {
        continue;
      }
      for (Node n : Nodes.preOrder(method.body())) {
        if (capsOrCompares(n) && namesValue(n, variable)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether the exponent of a shift or a power counts something the unit compares with a bound
   * ({@code attempt++ < MAX_RETRIES}): the delay stops growing with the count.
   */
  private static boolean exponentCapped(MethodAnalysis analysis, Expr growth) {
    Expr exponent =
        growth instanceof Expr.Binary shift && shift.operator().equals("<<")
            ? shift.right()
            : growth instanceof Expr.Call pow && pow.args().size() == 2 ? pow.args().get(1) : null;
    if (exponent == null) {
      return false;
    }
    for (Node n : Nodes.preOrder(exponent)) {
      if (n instanceof Expr.Call) {
        return false; // Math.pow(seed, getFailureCount(job)): a count read, not a counter
      }
    }
    for (Node n : Nodes.preOrder(exponent)) {
      if (n instanceof Expr.Name counter
          && counter.kind() != Expr.NameKind.TYPE
          && comparedInUnit(analysis, counter.name())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a local, a parameter or a field of that name (this.name too) appears in it. */
  private static boolean namesValue(Node expr, String name) {
    for (Node n : Nodes.preOrder(expr)) {
      if (n instanceof Expr.Name read
          && read.kind() != Expr.NameKind.TYPE
          && read.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isCapped(MethodAnalysis analysis, String variable) {
    for (Node n : analysis.bodyNodes()) {
      if (capsOrCompares(n) && Nodes.mentions(n, variable)) {
        return true;
      }
    }
    return false;
  }

  /** A capping call ({@code Math.min}) or an ordering comparison. */
  private static boolean capsOrCompares(Node n) {
    return (n instanceof Expr.Call call && CAPPING_CALLS.contains(call.name()))
        || (n instanceof Expr.Binary binary
            && switch (binary.operator()) {
              case "<", "<=", ">", ">=" -> true;
              default -> false;
            });
  }

  /**
   * A delay computed as an exponential of a counter in the wait itself: {@code base << attempt},
   * {@code Math.pow(2, attempt)}; {@code null} when there is none or it is capped.
   */
  private static Expr exponent(MethodAnalysis analysis, Backoffs.Wait wait) {
    List<Node> nodes = new ArrayList<>(Nodes.sameFrame(wait.delay()));
    if (wait.delay() instanceof Expr.Name name && name.isVariable(name.name())) {
      for (Expr value : analysis.valuesOf(name.name())) {
        nodes.addAll(Nodes.sameFrame(value));
      }
    }
    Expr found = null;
    for (Node n : nodes) {
      if (n instanceof Expr.Call call && CAPPING_CALLS.contains(call.name())) {
        return null;
      }
      if (n instanceof Expr.Binary binary
          && binary.operator().equals("<<")
          && !(binary.right() instanceof Expr.Literal)) {
        found = found == null ? binary : found;
      }
      if (n instanceof Expr.Call call
          && call.name().equals("pow")
          && call.args().size() == 2
          && !(call.args().get(1) instanceof Expr.Literal)) {
        found = found == null ? call : found;
      }
    }
    return found;
  }

  private static List<Fix> fixes(
      MethodAnalysis analysis, Expr.Assign assign, Backoffs.Wait wait, String variable) {
    String cap = wait.unit() == null ? null : CAPS.get(wait.unit());
    if (cap == null
        || !(assign.target() instanceof Expr.Name target)
        || !assign.span().isKnown()
        || !(analysis.enclosingStatement(assign) instanceof Stmt.ExprStmt)) {
      return List.of();
    }
    String type = target.type().name();
    if (!type.equals("int") && !type.equals("long")) {
      return List.of();
    }
    String value = analysis.context().text(assign.value().span());
    String grown =
        switch (assign.operator()) {
          case "*=" -> variable + " * " + parenthesised(assign.value(), value);
          case "<<=" -> variable + " << " + parenthesised(assign.value(), value);
          default -> value;
        };
    String bound = cap + (type.equals("long") ? "L" : "");
    return List.of(
        new Fix(
            "Cap the delay at 30 seconds",
            List.of(
                Edit.replace(
                    assign.span(), variable + " = Math.min(" + grown + ", " + bound + ")")),
            Set.of()));
  }

  private static String parenthesised(Expr expr, String text) {
    return expr instanceof Expr.Binary || expr instanceof Expr.Conditional
        ? "(" + text + ")"
        : text;
  }
}
