package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.ReactorRetries;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * Failure mode F: a retry loop that only success ends. It has no attempt cap, consults no clock or
 * deadline, and no policy decides when to give up, so a dependency that stays down keeps the caller
 * retrying forever (and every caller with it: a retry storm).
 *
 * <p>Loops that a stop flag ends too ({@code while (running)}, {@code isClosed()}, interruption)
 * are background loops, reported by {@link UnboundedBackgroundRetryRule} at a lower severity.
 *
 * <p>Project Reactor's retry operators are retries too ({@link ReactorRetries}): {@code retry()},
 * {@code retry(Long.MAX_VALUE)}, {@code retryWhen(Retry.indefinitely())} (or a spec whose attempts
 * are {@code Long.MAX_VALUE}), and {@code repeatWhenEmpty(companion)} (or {@code
 * repeatWhenEmpty(Integer.MAX_VALUE, companion)}) whose companion neither counts nor takes, unless
 * a {@code timeout(..)} (or a {@code take}/{@code block} given a {@code Duration}) later in the
 * same chain ends them in time.
 *
 * <p>No fix: the cap and the deadline are the caller's decisions.
 */
public final class UnboundedRetryRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UnboundedRetry";

  @Override
  public String name() {
    return NAME;
  }

  /** The loop's start; for a retry by recursion, the call that starts the next attempt. */
  private static Span where(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() == LoopInfo.Kind.RECURSION) {
      for (Node n : analysis.bodyNodes()) {
        if (n instanceof Expr.Call call
            && call.name().equals(analysis.method().name())
            && analysis.isInCatchBody(call, null)
            && call.nameSpan().isKnown()) {
          return call.nameSpan();
        }
      }
    }
    return new Span(loop.span().start(), loop.span().start());
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (UnboundedLoops.Unbounded loop : UnboundedLoops.find(analysis)) {
      if (loop.ending() == UnboundedLoops.Ending.SUCCESS_ONLY) {
        findings.add(
            new Finding(
                NAME,
                where(analysis, loop.loop()),
                "This retry loop has no attempt cap and no deadline: while the dependency stays"
                    + " down it retries forever, and so does every caller (a retry storm). Cap the"
                    + " total attempts and bound the loop by a Deadline (RetryPolicy.maxAttempts,"
                    + " RetryPolicy.call(deadline, ..))",
                List.of()));
      }
    }
    for (LoopInfo loop : UnboundedLoops.reWaits(analysis)) {
      Span at = new Span(loop.span().start(), loop.span().start());
      if (findings.stream().noneMatch(f -> f.span().equals(at))) {
        findings.add(
            new Finding(
                NAME,
                at,
                "This loop waits again after every timeout, with no cap and no deadline: the"
                    + " timed wait becomes an untimed one, and the caller can hang forever. Wait"
                    + " once against a Deadline, then give up (or act: shutdownNow, cancel)",
                List.of()));
      }
    }
    for (UnboundedLoops.Resubmission retry : UnboundedLoops.resubmissions(analysis)) {
      if (retry.ending() == UnboundedLoops.Ending.SUCCESS_ONLY) {
        findings.add(
            new Finding(
                NAME,
                retry.call().nameSpan(),
                (retry.inHandler() ? "This failure handler" : "This catch clause")
                    + " schedules the work again with no attempt cap and no"
                    + " deadline: while the dependency stays down it is retried forever, and so"
                    + " is every caller's (a retry storm). Count the attempts and give up after"
                    + " a cap or a Deadline",
                List.of()));
      }
    }
    for (UnboundedLoops.OffByDefault off : UnboundedLoops.offByDefault(analysis)) {
      Span at = new Span(off.at().span().start(), off.at().span().start());
      if (findings.stream().noneMatch(f -> f.span().equals(at))) {
        findings.add(
            new Finding(
                NAME,
                at,
                "This test that gives up is off by default: "
                    + off.cap()
                    + " starts as "
                    + off.initial()
                    + ", for which the test never fires, so unless a user configures a limit"
                    + " the retries go on forever, with no attempt cap and no deadline (a retry"
                    + " storm). Give the limit a finite default",
                List.of()));
      }
    }
    reactor(analysis, findings);
    foreverPolicies(analysis, findings);
    for (Expr.Call attempts : EndlessRetrySettings.find(analysis)) {
      findings.add(
          new Finding(
              NAME,
              attempts.nameSpan(),
              "These retry settings never give up: the attempts and the total timeout are both"
                  + " lifted to their maximum, so a call failing with a retryable code is retried,"
                  + " with no attempt cap and no deadline, for as long as the dependency stays down"
                  + " (a retry storm). Keep a finite total timeout or a cap on the attempts",
              List.of()));
    }
    return findings;
  }

  /**
   * A library's retry policy named for never giving up, made outside the class that declares it
   * ({@code private RetryPolicy retryPolicy = RetryPolicies.retryForeverNoSleep();}, {@code new
   * RetryForever(1000)}, Spring Retry's {@code new AlwaysRetryPolicy()}): every request it governs
   * is retried for as long as the dependency stays down.
   */
  private static void foreverPolicies(MethodAnalysis analysis, List<Finding> findings) {
    for (Node n : analysis.bodyNodes()) {
      String what = null;
      Span at = null;
      if (n instanceof Expr.Call call && CallNames.isForeverPolicyCall(call.name())) {
        MethodModel declared = analysis.context().unit().declarationInProject(call);
        if (declared != null && declared.owner().equals(analysis.method().owner())) {
          continue; // the policy's own factory
        }
        what = call.name() + "()";
        at = call.nameSpan();
      } else if (n instanceof Expr.New made
          && CallNames.FOREVER_POLICY_CLASSES.contains(made.type().simpleName())) {
        what = "new " + made.type().simpleName() + "(..)";
        at = made.span().isKnown() ? new Span(made.span().start(), made.span().start()) : null;
      }
      if (what == null || at == null) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              at,
              "This retry policy never gives up ("
                  + what
                  + "): every request it governs is retried, with no attempt cap and no deadline,"
                  + " for as long as the dependency stays down, and so is every caller's (a retry"
                  + " storm). Use a policy with a cap on the attempts or on the elapsed time",
              List.of()));
    }
  }

  private static void reactor(MethodAnalysis analysis, List<Finding> findings) {
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call call)
          || !(call.name().startsWith("retry") || call.name().equals("repeatWhenEmpty"))) {
        continue; /* Fast path: not a Reactor retry operator. */
      }
      Long retries = ReactorRetries.retries(analysis, call);
      boolean forever = retries != null && retries == ReactorRetries.FOREVER;
      boolean whileEmpty = !forever && ReactorRetries.isUncappedRepeatWhenEmpty(analysis, call);
      if ((!forever && !whileEmpty) || ReactorRetries.isTimedDownstream(analysis, call)) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              call.nameSpan(),
              forever
                  ? "This "
                      + call.name()
                      + "(..) resubscribes after an error with no attempt cap and no deadline:"
                      + " while the dependency stays down it retries forever, and so does every"
                      + " caller (a retry storm). Cap it (retryWhen(Retry.backoff(3,"
                      + " minBackoff).maxBackoff(cap))) or end it in time with timeout(..)"
                  : "This repeatWhenEmpty(..) resubscribes for as long as the source completes"
                      + " empty, with no cap and no deadline: if it never emits, the call is"
                      + " repeated forever. Cap it (repeatWhenEmpty(maxRepeat, ..) with a small"
                      + " maxRepeat, or take(n) in the companion) or end it in time with"
                      + " timeout(..)",
              List.of()));
    }
  }
}
