package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
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
            true)) {
      if (guardsCleanUp(analysis, match)
          || onlyWaits(analysis, match)
          || looksUpInTurn(analysis, match)) {
        continue;
      }
      String type = match.typeName().substring("java.lang.".length());
      findings.add(new Finding(NAME, match.typeSpan(), message(analysis, match, type), List.of()));
    }
    findings.addAll(
        PermissivePredicates.findings(
            NAME,
            analysis,
            type -> BROAD_CATCHES.contains(type.name()),
            "programming errors such as NullPointerException are retried along with transient"
                + " failures"));
    return findings;
  }

  private static String message(MethodAnalysis analysis, CatchAllRetries.Match match, String type) {
    if (match.inCaller(analysis)) {
      return "This method catches any "
          + type
          + " of its attempt and returns, and a "
          + (match.loop().isRetryLoop() ? "retry loop" : "background loop")
          + " that calls it goes round again: a NullPointerException or IllegalArgumentException"
          + " is retried as if it were transient. Catch the failures you expect, and let"
          + " programming errors reach the loop";
    }
    if (match.loop() != null && !match.loop().isRetryLoop()) {
      return "A background loop retries after any "
          + type
          + ": it catches it without classifying it and goes round again until stopped, so a"
          + " NullPointerException or IllegalArgumentException fails every round for ever as if"
          + " it were transient. Catch the failures you expect, and let programming errors end"
          + " the loop";
    }
    return (match.loop() == null
            ? "This handler schedules the work again after catching "
            : "This retry loop catches ")
        + type
        + " without classifying it: programming errors such as NullPointerException or"
        + " IllegalArgumentException are retried along with transient failures. Catch the"
        + " transient types, or check the failure before retrying (RetryPolicy.retryOn)";
  }

  /**
   * Whether the clause's try sits in a {@code finally} block inside the loop ({@code finally { try
   * { pool.checkin(resource); } catch (Exception e) { log(e); } }}): it catches the clean-up's
   * failure, while the attempt's own failures leave the loop through the {@code finally}. The loop
   * goes round for another reason, not because this clause retries.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean guardsCleanUp(MethodAnalysis analysis, CatchAllRetries.Match match) {
    Node child = analysis.tryOf(match.clause());
    Node limit = match.loop() == null ? null : match.loop().node();
    for (Node p = analysis.parent(child);
        p != null && p != limit;
        child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Try outer && outer.finallyBlock() == child) {
        return true;
      }
      if (p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  /**
   * Whether the try block only waits: a timed wait for the time the loop has left ({@code while
   * (remainingNanos > 0 && ..) { try { waiter.get(remainingNanos, NANOSECONDS); } catch (Exception
   * e) {} remainingNanos -= ..; }}), whose timeout is the normal way out, or a pause whose delay
   * the try block computes ({@code long delay = computeDelay(failures); Thread.sleep(delay);}).
   * Nothing is attempted in it, so nothing is retried.
   */
  private static boolean onlyWaits(MethodAnalysis analysis, CatchAllRetries.Match match) {
    Stmt.Try t = analysis.tryOf(match.clause());
    if (!t.resources().isEmpty()) {
      return false;
    }
    List<Expr.Call> calls = Nodes.calls(t.body());
    Set<String> delays = new HashSet<>();
    boolean waits = false;
    for (Expr.Call call : calls) {
      if (CallNames.SLEEPS.contains(call.name()) && !call.args().isEmpty()) {
        waits = true;
        for (Node n : Nodes.sameFrame(call.args().get(0))) {
          if (n instanceof Expr.Name name && name.kind() == Expr.NameKind.LOCAL) {
            delays.add(name.name());
          }
        }
      } else if (WAITS.contains(call.name())
          && call.args().size() == 2
          && call.args().get(0) instanceof Expr.Name timeout
          && match.loop() != null
          && match.loop().condition() != null
          && comparesWithZero(match.loop().condition(), timeout.name())) {
        waits = true;
      }
    }
    if (!waits) {
      return false;
    }
    for (Expr.Call call : calls) {
      if (CallNames.SLEEPS.contains(call.name()) || WAITS.contains(call.name())) {
        continue;
      }
      if (!computesDelay(analysis, call, t.body(), delays)) {
        return false;
      }
    }
    return true;
  }

  /** Calls that turn a name into a key or a type: a lookup, not an endpoint to call. */
  private static final java.util.regex.Pattern CONVERSIONS =
      java.util.regex.Pattern.compile("valueOf|forName|parse\\w*|decode\\w*");

  /** Names of calls that log: what they are given decides nothing. */
  private static final java.util.regex.Pattern LOGGING =
      java.util.regex.Pattern.compile(
          "log\\w*|trace|debug|info|warn|warning|error|fatal|print\\w*");

  /**
   * Whether a for-each looks up each element in turn, in a fallback order ({@code for (String name
   * : resolutionOrder) { try { key = MetaDataKey.valueOf(name); address = info.get(key); ..} catch
   * (Exception e) { log(.., name, e); } }}): the element only goes to a conversion ({@code
   * valueOf}, {@code forName}, {@code parse..}, {@code decode..}) or a log call. Each round reads a
   * different item; it does not fail the same operation over to another endpoint.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean looksUpInTurn(MethodAnalysis analysis, CatchAllRetries.Match match) {
    LoopInfo loop = match.loop();
    if (loop == null
        || match.inCaller(analysis)
        || loop.kind() != LoopInfo.Kind.FOR_EACH
        || !(loop.node() instanceof Stmt.Loop each)
        || each.variable() == null) {
      return false;
    }
    String element = each.variable().name();
    boolean converted = false;
    for (Node n : analysis.loopLevel(loop)) {
      if (!(n instanceof Expr.Name use) || !use.isVariable(element)) {
        continue;
      }
      Node arg = use;
      while (analysis.parent(arg) instanceof Expr.Binary text && text.operator().equals("+")) {
        arg = text; // "no address for " + name: a message built for the log call
      }
      if (!(analysis.parent(arg) instanceof Expr.Call call)
          || call.receiver() == arg
          || !(CONVERSIONS.matcher(call.name()).matches()
              || LOGGING.matcher(call.name()).matches())) {
        return false;
      }
      converted |= CONVERSIONS.matcher(call.name()).matches();
    }
    return converted;
  }

  /** Timed waits whose timeout ends the wait normally. */
  private static final Set<String> WAITS = Set.of("get", "await", "join", "poll", "tryAcquire");

  /** Whether a condition tests {@code name > 0} (or {@code 0 < name}). */
  private static boolean comparesWithZero(Expr condition, String name) {
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Binary test
          && ((test.operator().equals(">")
                  && test.left() instanceof Expr.Name left
                  && left.isVariable(name)
                  && isZero(test.right()))
              || (test.operator().equals("<")
                  && test.right() instanceof Expr.Name right
                  && right.isVariable(name)
                  && isZero(test.left())))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isZero(Expr expr) {
    return expr instanceof Expr.Literal literal
        && literal.value() instanceof Number number
        && number.longValue() == 0;
  }

  /**
   * Whether a call only computes the delay: it is the initialiser of a local of the try block that
   * only the wait reads ({@code long delay = computeDelayForRepeatedErrors(store, failures)}).
   */
  private static boolean computesDelay(
      MethodAnalysis analysis, Expr.Call call, Stmt.Block tryBody, Set<String> delays) {
    for (Node p = analysis.parent(call); p != null && p != tryBody; p = analysis.parent(p)) {
      if (p instanceof Stmt.LocalVar local) {
        return delays.contains(local.name());
      }
      if (p instanceof Stmt) {
        return false;
      }
    }
    return false;
  }
}
