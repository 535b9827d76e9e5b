package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.BackoffWithoutJitterRule;
import javax.inject.Inject;

/**
 * Runs {@link BackoffWithoutJitterRule} in javac. See {@code docs/rules/BackoffWithoutJitter.md}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A retry loop waits a delay with no random part: failed clients retry in synchronised waves",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "BackoffWithoutJitter.md")
public final class BackoffWithoutJitter extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public BackoffWithoutJitter() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public BackoffWithoutJitter(ErrorProneFlags flags) {
    super(new BackoffWithoutJitterRule(), flags);
  }
}
