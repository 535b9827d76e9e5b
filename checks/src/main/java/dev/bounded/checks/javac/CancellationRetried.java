package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.CancellationRetriedRule;
import javax.inject.Inject;

/** Runs {@link CancellationRetriedRule} in javac. See {@code docs/rules/CancellationRetried.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "A retry loop catches CancellationException and starts the cancelled work again",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.CONCURRENCY,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "CancellationRetried.md")
public final class CancellationRetried extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public CancellationRetried() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public CancellationRetried(ErrorProneFlags flags) {
    super(new CancellationRetriedRule(), flags);
  }
}
