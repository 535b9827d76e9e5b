package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UnclassifiedRetryRule;
import javax.inject.Inject;

/** Runs {@link UnclassifiedRetryRule} in javac. See {@code docs/rules/UnclassifiedRetry.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A retry loop catches Throwable or Error: fatal errors are retried as transient failures",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UnclassifiedRetry.md")
public final class UnclassifiedRetry extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UnclassifiedRetry() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UnclassifiedRetry(ErrorProneFlags flags) {
    super(new UnclassifiedRetryRule(), flags);
  }
}
