package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.InterruptRetriedRule;
import javax.inject.Inject;

/** Runs {@link InterruptRetriedRule} in javac. See {@code docs/rules/InterruptRetried.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A retry loop catches InterruptedException and goes round again: cancellation is retried as a transient failure",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.CONCURRENCY,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "InterruptRetried.md")
public final class InterruptRetried extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public InterruptRetried() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public InterruptRetried(ErrorProneFlags flags) {
    super(new InterruptRetriedRule(), flags);
  }
}
