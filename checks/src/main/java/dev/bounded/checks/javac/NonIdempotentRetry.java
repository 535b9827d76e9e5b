package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.NonIdempotentRetryRule;
import javax.inject.Inject;

/** Runs {@link NonIdempotentRetryRule} in javac. See {@code docs/rules/NonIdempotentRetry.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A retry loop repeats a call that may have committed (POST, PATCH, SQL update, @NonIdempotent)",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "NonIdempotentRetry.md")
public final class NonIdempotentRetry extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public NonIdempotentRetry() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public NonIdempotentRetry(ErrorProneFlags flags) {
    super(new NonIdempotentRetryRule(), flags);
  }
}
