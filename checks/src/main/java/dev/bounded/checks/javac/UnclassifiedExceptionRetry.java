package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UnclassifiedExceptionRetryRule;
import javax.inject.Inject;

/**
 * Runs {@link UnclassifiedExceptionRetryRule} in javac. See {@code
 * docs/rules/UnclassifiedExceptionRetry.md}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A retry loop catches Exception or RuntimeException without classifying it: programming errors are retried",
    severity = SeverityLevel.SUGGESTION,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UnclassifiedExceptionRetry.md")
public final class UnclassifiedExceptionRetry extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UnclassifiedExceptionRetry() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UnclassifiedExceptionRetry(ErrorProneFlags flags) {
    super(new UnclassifiedExceptionRetryRule(), flags);
  }
}
