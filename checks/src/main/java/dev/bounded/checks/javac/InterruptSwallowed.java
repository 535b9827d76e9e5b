package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.InterruptSwallowedRule;
import javax.inject.Inject;

/** Runs {@link InterruptSwallowedRule} in javac. See {@code docs/rules/InterruptSwallowed.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "InterruptedException is caught without restoring the interrupt flag or propagating the exception",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.CONCURRENCY,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "InterruptSwallowed.md")
public final class InterruptSwallowed extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public InterruptSwallowed() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public InterruptSwallowed(ErrorProneFlags flags) {
    super(new InterruptSwallowedRule(), flags);
  }
}
