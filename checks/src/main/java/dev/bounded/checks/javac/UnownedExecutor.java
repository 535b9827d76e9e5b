package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UnownedExecutorRule;
import javax.inject.Inject;

/** Runs {@link UnownedExecutorRule} in javac. See {@code docs/rules/UnownedExecutor.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "An executor created in a method is not shut down on every path and outlives the call",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.CONCURRENCY,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UnownedExecutor.md")
public final class UnownedExecutor extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UnownedExecutor() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UnownedExecutor(ErrorProneFlags flags) {
    super(new UnownedExecutorRule(), flags);
  }
}
