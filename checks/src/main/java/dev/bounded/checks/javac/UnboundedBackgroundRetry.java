package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UnboundedBackgroundRetryRule;
import javax.inject.Inject;

/**
 * Runs {@link UnboundedBackgroundRetryRule} in javac. See {@code
 * docs/rules/UnboundedBackgroundRetry.md}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "A background loop retries without a cap until it is stopped",
    severity = SeverityLevel.SUGGESTION,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UnboundedBackgroundRetry.md")
public final class UnboundedBackgroundRetry extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UnboundedBackgroundRetry() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UnboundedBackgroundRetry(ErrorProneFlags flags) {
    super(new UnboundedBackgroundRetryRule(), flags);
  }
}
