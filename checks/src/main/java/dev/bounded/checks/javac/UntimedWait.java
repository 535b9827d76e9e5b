package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UntimedWaitRule;
import javax.inject.Inject;

/** Runs {@link UntimedWaitRule} in javac. See {@code docs/rules/UntimedWait.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A wait without a timeout where a deadline or a retry loop says the call is meant to be bounded",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.CONCURRENCY,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UntimedWait.md")
public final class UntimedWait extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UntimedWait() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UntimedWait(ErrorProneFlags flags) {
    super(new UntimedWaitRule(), flags);
  }
}
