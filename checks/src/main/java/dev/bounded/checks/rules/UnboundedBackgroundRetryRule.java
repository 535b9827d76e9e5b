package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * Failure mode F, the background variant of {@link UnboundedRetryRule}: a retry loop with no
 * attempt cap and no deadline that only a stop flag ends ({@code while (running)}, {@code
 * isClosed()}, interruption): a reconnect or keep-alive loop. Often intentional, so reported at a
 * lower severity; what it lacks is a growing, capped, jittered delay, and a way for the owner to
 * see that it keeps failing.
 *
 * <p>No fix.
 */
public final class UnboundedBackgroundRetryRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UnboundedBackgroundRetry";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (UnboundedLoops.Unbounded loop : UnboundedLoops.find(analysis)) {
      if (loop.ending() == UnboundedLoops.Ending.STOP_FLAG) {
        findings.add(
            new Finding(
                NAME,
                new Span(loop.loop().span().start(), loop.loop().span().start()),
                "This background loop retries without a cap until it is stopped: while the"
                    + " dependency is down it keeps retrying, unseen by its owner. If that is"
                    + " intended, back off with a capped, jittered delay and report persistent"
                    + " failure; otherwise cap the attempts",
                List.of()));
      }
    }
    for (UnboundedLoops.Resubmission retry : UnboundedLoops.resubmissions(analysis)) {
      if (retry.ending() == UnboundedLoops.Ending.STOP_FLAG) {
        findings.add(
            new Finding(
                NAME,
                retry.call().nameSpan(),
                (retry.inHandler() ? "This failure handler" : "This catch clause")
                    + " schedules the work again, without a cap, until the"
                    + " component is stopped: while the dependency is down it keeps retrying,"
                    + " unseen by its owner. If that is intended, back off with a capped, jittered"
                    + " delay and report persistent failure; otherwise cap the attempts",
                List.of()));
      }
    }
    for (UnboundedLoops.Failback failback : UnboundedLoops.failbacks(analysis)) {
      findings.add(
          new Finding(
              NAME,
              failback.call().nameSpan(),
              "This periodic task retries the failed work that catch clauses park in "
                  + failback.parked()
                  + ", every period, for as long as the component lives: nothing counts an"
                  + " item's tries or its age, so work the dependency keeps refusing is retried"
                  + " forever, unseen by its owner. Count the tries per item and give up (and"
                  + " report) after a cap or an age",
              List.of()));
    }
    return findings;
  }
}
