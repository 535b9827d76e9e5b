package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Failure mode F: a retry loop waits between attempts for a delay with no random part ({@code
 * Thread.sleep(1000)}, {@code TimeUnit.SECONDS.sleep(delay)} after {@code delay *= 2}). Clients
 * that failed together retry together, in synchronised waves that keep the dependency down (the
 * thundering herd).
 *
 * <p>Jitter is any call the analysis cannot prove deterministic: {@code Random}, {@code
 * ThreadLocalRandom}, {@code Math.random}, {@code RandomGenerator}, a policy's {@code nextDelay()},
 * the runtime's backoff; or a value named {@code jitter}/{@code random}. Polling loops (no failure
 * is caught) are not reported.
 *
 * <p>A library backoff whose source shows no random part in its configuration ({@link
 * LibraryBackoffs}: Kafka's {@code ExponentialBackoff} with jitter 0, Apollo's {@code
 * ExponentialSchedulePolicy}) gives a deterministic delay: a wait for it is reported as above, and
 * where its delay is handed on after a failure without a wait the rule sees ({@code
 * addRequest(backoff.backoff(attempts), retry, ..)} in an {@code error != null} branch), the
 * delay's computation is reported.
 *
 * <p>Fix, for a wait in milliseconds, microseconds or nanoseconds on an integer delay: full jitter,
 * a delay drawn uniformly from {@code [0, delay]} with {@code ThreadLocalRandom}.
 */
public final class BackoffWithoutJitterRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "BackoffWithoutJitter";

  /** What every finding advises. */
  private static final String FULL_JITTER =
      "Add full jitter: wait a random time in [0, delay] (RetryPolicy's backoff does)";

  private static final Set<String> FINE_UNITS =
      Set.of("MILLISECONDS", "MICROSECONDS", "NANOSECONDS");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    List<Backoffs.GrowthWait> growthWaits = Backoffs.growthWaits(analysis);
    Set<Node> grownWaits = Collections.newSetFromMap(new IdentityHashMap<>());
    growthWaits.forEach(growth -> grownWaits.add(growth.at().call()));
    for (Backoffs.Wait wait : Backoffs.waits(analysis)) {
      if (isZero(wait.delay())
          || !Backoffs.isDeterministic(analysis, wait.delay())
          || grownWaits.contains(wait.call())) {
        continue; // a zero delay is no backoff: nothing to jitter; a grown delay is reported below
      }
      findings.add(
          new Finding(
              NAME,
              atDelay(wait),
              (wait.loop() != null
                      ? "This retry loop waits a delay with no random part ("
                      : DelayedRetries.delayed(wait.call()) != null
                          ? "This retry (work scheduled again after a failure) waits a delay with"
                              + " no random part ("
                          : "This wait between retries has a delay with no random part (")
                  + analysis.context().text(wait.delay().span())
                  + "): clients that failed together retry together, in waves that keep the"
                  + " dependency down. "
                  + FULL_JITTER,
              fixes(analysis, wait)));
    }
    for (Backoffs.CalleeWait wait : Backoffs.calleeWaits(analysis)) {
      if (isZero(wait.delay()) || !Backoffs.isDeterministic(wait.callee(), wait.delay())) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              wait.call().nameSpan(),
              "This retry loop waits in "
                  + wait.call().name()
                  + "(..), whose delay has no random part ("
                  + wait.callee().context().text(wait.delay().span())
                  + "): clients that failed together retry together, in waves that keep the"
                  + " dependency down. "
                  + FULL_JITTER,
              List.of()));
    }
    for (Backoffs.GrowthWait growth : growthWaits) {
      findings.add(
          new Finding(
              NAME,
              atDelay(growth.at()),
              "This wait's delay comes from "
                  + growth.grower().name()
                  + (growth.grower().args().isEmpty() ? "()" : "(..)")
                  + ", which grows it with every failure and has no random part: clients that"
                  + " failed together wait the same and retry together, in waves that keep the"
                  + " dependency down. "
                  + FULL_JITTER,
              fixes(analysis, growth.at())));
    }
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (n instanceof Expr.New fixed
          && isFixedBackOff(fixed)
          && !isUsersInterval(analysis, fixed)) {
        findings.add(
            new Finding(
                NAME,
                new Span(fixed.span().start(), fixed.span().start()),
                "This FixedBackOff waits the same interval before every attempt, with no random"
                    + " part: clients that failed together retry together, in waves that keep the"
                    + " dependency down. Use a backoff with a random part (full jitter), and a cap"
                    + " on the attempts",
                List.of()));
      }
    }
    if (findings.isEmpty()) {
      for (Node n : analysis.bodyNodes()) {
        if (n instanceof Expr.Call delay
            && delay.span().isKnown()
            && LibraryBackoffs.isJitterFreeDelay(analysis, delay)
            && LibraryBackoffs.afterFailure(analysis, delay)) {
          findings.add(
              new Finding(
                  NAME,
                  new Span(delay.span().start(), delay.span().start()),
                  "This retry's delay ("
                      + analysis.context().text(delay.span())
                      + ") comes from a backoff with no random part: clients that failed together"
                      + " wait the same and retry together, in waves that keep the dependency"
                      + " down. "
                      + FULL_JITTER,
                  List.of()));
        }
      }
    }
    if (findings.isEmpty()) {
      for (Expr growth : Backoffs.growths(analysis)) {
        findings.add(
            new Finding(
                NAME,
                new Span(growth.span().start(), growth.span().start()),
                "This backoff grows the delay with every failure ("
                    + analysis.context().text(growth.span())
                    + ") but has no random part: clients that failed together wait the same and"
                    + " retry together, in waves that keep the dependency down. "
                    + FULL_JITTER,
                List.of()));
      }
    }
    return findings;
  }

  /** Where a wait is reported: at the start of its delay, else at the waiting call's name. */
  private static Span atDelay(Backoffs.Wait wait) {
    Span delay = wait.delay().span();
    return delay.isKnown() ? new Span(delay.start(), delay.start()) : wait.call().nameSpan();
  }

  private static List<Fix> fixes(MethodAnalysis analysis, Backoffs.Wait wait) {
    Expr delay = wait.delay();
    if (wait.unit() == null
        || !FINE_UNITS.contains(wait.unit())
        || !delay.span().isKnown()
        || !isInteger(delay)) {
      return List.of();
    }
    String bound;
    if (delay instanceof Expr.Literal literal && literal.value() instanceof Number number) {
      bound = (number.longValue() + 1) + (literal.value() instanceof Long ? "L" : "");
    } else {
      String text = analysis.context().text(delay.span());
      boolean simple = delay instanceof Expr.Name || delay instanceof Expr.Call;
      bound = (simple ? text : "(" + text + ")") + " + 1";
    }
    return List.of(
        new Fix(
            "Full jitter: wait a random time in [0, delay]",
            List.of(
                Edit.replace(delay.span(), "ThreadLocalRandom.current().nextLong(" + bound + ")")),
            Set.of("java.util.concurrent.ThreadLocalRandom")));
  }

  /**
   * {@code new FixedBackOff(interval, maxAttempts)} or {@code new FixedBackOff()} (5 s, unlimited),
   * Spring's {@code org.springframework.util.backoff.FixedBackOff} by its simple name (the scanner
   * may not resolve it); not one with a literal zero interval.
   */
  private static boolean isFixedBackOff(Expr.New creation) {
    if (!creation.type().simpleName().equals("FixedBackOff")) {
      return false;
    }
    return creation.args().isEmpty() || !isZero(creation.args().get(0));
  }

  /**
   * Whether a configuration setter builds the fixed backoff from the interval it is given ({@code
   * setRecoveryInterval(long interval) { backOff = new FixedBackOff(interval, UNLIMITED); }}): the
   * fixed interval is what the user asked for. The default built elsewhere is still reported.
   */
  private static boolean isUsersInterval(MethodAnalysis analysis, Expr.New creation) {
    String method = analysis.method().name();
    if (creation.args().isEmpty()
        || !(method.startsWith("set") || method.startsWith("with"))
        || !(creation.args().get(0) instanceof Expr.Name interval)) {
      return false;
    }
    return analysis.method().params().stream().anyMatch(p -> interval.isVariable(p.name()));
  }

  private static boolean isZero(Expr delay) {
    return delay instanceof Expr.Literal literal
        && literal.value() instanceof Number number
        && number.doubleValue() == 0;
  }

  private static boolean isInteger(Expr delay) {
    if (delay instanceof Expr.Literal literal) {
      return literal.value() instanceof Integer || literal.value() instanceof Long;
    }
    String type = delay.type().name();
    return type.equals("int") || type.equals("long");
  }
}
