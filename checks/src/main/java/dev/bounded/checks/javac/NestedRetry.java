package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.NestedRetryRule;
import javax.inject.Inject;

/** Runs {@link NestedRetryRule} in javac. See {@code docs/rules/NestedRetry.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "A retry loop calls something that retries too: the attempts multiply",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "NestedRetry.md")
public final class NestedRetry extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public NestedRetry() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public NestedRetry(ErrorProneFlags flags) {
    super(new NestedRetryRule(), flags);
  }
}
