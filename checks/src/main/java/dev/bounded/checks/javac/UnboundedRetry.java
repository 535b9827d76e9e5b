package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UnboundedRetryRule;
import javax.inject.Inject;

/** Runs {@link UnboundedRetryRule} in javac. See {@code docs/rules/UnboundedRetry.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A retry loop with no attempt cap and no deadline retries forever while the dependency is down",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UnboundedRetry.md")
public final class UnboundedRetry extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UnboundedRetry() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UnboundedRetry(ErrorProneFlags flags) {
    super(new UnboundedRetryRule(), flags);
  }
}
