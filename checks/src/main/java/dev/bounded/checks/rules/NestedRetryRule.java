package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.Attempts;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.ReactorRetries;
import dev.bounded.checks.analysis.RetryingMethods;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode G: retry layers that multiply. A retry loop's attempt calls something that retries
 * on its own: a method whose source the frontend sees (the compilation's other units, the scanned
 * files) that holds a retry loop or calls one (one call down) (through the frontend's unit index
 * ({@link RetryingMethods})), a retry library's call ({@code RetryPolicy.call}, Failsafe's {@code
 * FailsafeExecutor}, resilience4j's {@code Retry.execute..}, Spring's {@code RetryOperations
 * .execute}), a Spring {@code @Retryable} method, an AWS SDK client, which retries by default, or a
 * Reactor retry operator ({@code retry(n)}, {@code retryWhen(spec)}) whose chain the attempt blocks
 * on ({@code .block()}), written in the attempt or returned by the method it calls. Three attempts
 * around three attempts are nine calls of the dependency; five such layers are 243. The message
 * states the multiplied worst case.
 *
 * <p>No fix: which layer keeps the retries is a design decision (usually the outermost, with one
 * deadline).
 */
public final class NestedRetryRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "NestedRetry";

  /** A retrying callee the rule knows: what it is, and how many attempts it makes by default. */
  private record Inner(String description, int attempts) {}

  private static final Set<String> FAILSAFE_CALLS =
      Set.of("get", "run", "getAsync", "runAsync", "getStageAsync", "call");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (LoopInfo loop : analysis.retryLoops()) {
      int outer = Attempts.of(analysis, loop);
      for (Node n : analysis.loopLevel(loop)) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        if (RetryingMethods.isWalk(loop) && walksOnly(analysis, call)) {
          continue; // a walk over nodes inside a walk over nodes: no node is called twice
        }
        Inner inner = inner(analysis, call);
        if (inner == null) {
          continue;
        }
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "This retry loop"
                    + (outer > 0 ? " (" + outer + " attempts)" : "")
                    + " calls "
                    + inner.description()
                    + ", which retries too"
                    + (inner.attempts() > 0 ? " (" + inner.attempts() + " attempts)" : "")
                    + ": "
                    + worstCase(outer, inner.attempts())
                    + " of the dependency in the worst case, and more with every layer. Keep"
                    + " one retry owner (the outermost, with one deadline) and make the other"
                    + " layers try once",
                List.of()));
      }
    }
    // A retry library's call inside another's lambda: policy.call(a -> other.call(..)).
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      LoopInfo loop = analysis.innermostLoop(call);
      Expr.Lambda lambda = analysis.enclosingLambda(call);
      if ((loop != null && loop.isRetryLoop())
          || lambda == null
          || !(analysis.parent(lambda) instanceof Expr.Call outerCall)) {
        continue; // reported with its loop above, or not inside a call's lambda
      }
      Inner outer = libraryRetry(analysis, outerCall);
      Inner inner = outer == null ? null : inner(analysis, call);
      if (inner == null) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              call.nameSpan(),
              "This call runs inside "
                  + outer.description()
                  + " ("
                  + outer.attempts()
                  + " attempts) and calls "
                  + inner.description()
                  + ", which retries too"
                  + (inner.attempts() > 0 ? " (" + inner.attempts() + " attempts)" : "")
                  + ": "
                  + worstCase(outer.attempts(), inner.attempts())
                  + " of the dependency in the worst case. Keep one retry owner (the outermost,"
                  + " with one deadline) and make the other layers try once",
              List.of()));
    }
    findings.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
    return findings;
  }

  static String worstCase(int outer, int inner) {
    String n = outer > 0 ? Integer.toString(outer) : "n";
    String m = inner > 0 ? Integer.toString(inner) : "m";
    String product = outer > 0 && inner > 0 ? " = " + ((long) outer * inner) : "";
    return n + " x " + m + product + " calls";
  }

  /** Whether the call goes to a method whose every retry loop is a failover walk. */
  private static boolean walksOnly(MethodAnalysis analysis, Expr.Call call) {
    RetryingMethods.Retrying same = RetryingMethods.of(analysis, call);
    return same != null && same.walksOnly();
  }

  private static Inner inner(MethodAnalysis analysis, Expr.Call call) {
    RetryingMethods.Retrying same = RetryingMethods.of(analysis, call);
    if (same == null && ReactorRetries.isBlockedDownstream(analysis, call)) {
      Long returned = ReactorRetries.returnedRetries(analysis, call);
      if (returned != null && !sharesDeadline(call)) {
        return new Inner(
            call.name() + "() (a Reactor chain with a retry operator)", reactorAttempts(returned));
      }
    }
    if (same != null) {
      if (sharesDeadline(call)) {
        return null; // both layers spend the one deadline the caller hands down
      }
      String through =
          same.through().isEmpty()
              ? ""
              : same.through().equals(List.of(call.name() + "()"))
                  ? " (through another overload)"
                  : " (through " + String.join(" and ", same.through()) + ")";
      return new Inner(call.name() + "()" + through, same.attempts());
    }
    return libraryRetry(analysis, call);
  }

  /**
   * Whether the call hands the callee a deadline of the caller's ({@code ensureReady(timer)} with a
   * {@code Timer}, a {@code Deadline}, or a variable named like one): the inner retries then end
   * when the outer ones must, so the layers do not multiply the time or the calls beyond it.
   */
  private static boolean sharesDeadline(Expr.Call call) {
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Name name
          && (name.kind() == Expr.NameKind.LOCAL
              || name.kind() == Expr.NameKind.PARAMETER
              || name.kind() == Expr.NameKind.FIELD)
          && (DEADLINE_TYPES.contains(name.type().simpleName())
              || DEADLINE_NAME.matches(name.name()))) {
        return true;
      }
    }
    return false;
  }

  private static final Set<String> DEADLINE_TYPES = Set.of("Deadline", "Timer");

  private static final NamePattern DEADLINE_NAME =
      NamePattern.startingWith(
          "(?i)(deadline|timer|expir\\w*|remaining\\w*)",
          "deadline",
          "timer",
          "expir",
          "remaining");

  /** A retry library's call, a {@code @Retryable} method or an AWS SDK client's. */
  private static Inner libraryRetry(MethodAnalysis analysis, Expr.Call call) {
    if (call.isCallTo("dev.bounded.runtime.RetryPolicy", "call")
        || call.isCallTo("dev.bounded.runtime.RetryPolicy", "callIdempotent")) {
      int attempts = call.receiver() == null ? 0 : Attempts.ofPolicy(analysis, call.receiver());
      return new Inner("RetryPolicy." + call.name() + "()", attempts > 0 ? attempts : 3);
    }
    if (FAILSAFE_CALLS.contains(call.name()) && isOn(call, "dev.failsafe.FailsafeExecutor")) {
      int attempts = call.receiver() == null ? 0 : Attempts.ofPolicy(analysis, call.receiver());
      return new Inner("Failsafe's " + call.name() + "()", attempts > 0 ? attempts : 3);
    }
    if (call.name().startsWith("execute") && isOn(call, "io.github.resilience4j.retry.Retry")) {
      return new Inner("resilience4j's Retry." + call.name() + "()", 3);
    }
    if (call.name().equals("execute") && isOn(call, "org.springframework.retry.RetryOperations")) {
      return new Inner("RetryOperations.execute()", 3);
    }
    if (call.method().resolved() && call.method().hasAnnotation("Retryable")) {
      return new Inner("the @Retryable " + call.name() + "()", 3);
    }
    Long retries = ReactorRetries.retries(analysis, call);
    if (retries != null && ReactorRetries.isBlockedDownstream(analysis, call)) {
      return new Inner("Reactor's " + call.name() + "()", reactorAttempts(retries));
    }
    if (isOn(call, "software.amazon.awssdk.core.SdkClient")) {
      return new Inner("the AWS SDK client's " + call.name() + "()", 3);
    }
    if (isOn(call, "com.amazonaws.AmazonWebServiceClient")) {
      return new Inner("the AWS SDK client's " + call.name() + "()", 4);
    }
    return null;
  }

  /**
   * Attempts of a Reactor retry operator: its retries plus the first, 0 when unknown or endless.
   */
  private static int reactorAttempts(long retries) {
    return retries >= 0 && retries < 1000 ? (int) (retries + 1) : 0;
  }

  private static boolean isOn(Expr.Call call, String owner) {
    return (call.receiver() != null && call.receiver().type().isSubtypeOf(owner))
        || call.method().owner().isSubtypeOf(owner);
  }
}
