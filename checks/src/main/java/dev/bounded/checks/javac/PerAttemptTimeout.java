package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.PerAttemptTimeoutRule;
import javax.inject.Inject;

/** Runs {@link PerAttemptTimeoutRule} in javac. See {@code docs/rules/PerAttemptTimeout.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "Each attempt of a retry loop gets a fresh timeout: the retries outlive the caller's deadline",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "PerAttemptTimeout.md")
public final class PerAttemptTimeout extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public PerAttemptTimeout() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public PerAttemptTimeout(ErrorProneFlags flags) {
    super(new PerAttemptTimeoutRule(), flags);
  }
}
