package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UnboundedExecutorRule;
import javax.inject.Inject;

/** Runs {@link UnboundedExecutorRule} in javac. See {@code docs/rules/UnboundedExecutor.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "A long-lived executor is created with an unbounded queue or an unbounded number of threads",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.CONCURRENCY,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UnboundedExecutor.md")
public final class UnboundedExecutor extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UnboundedExecutor() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UnboundedExecutor(ErrorProneFlags flags) {
    super(new UnboundedExecutorRule(), flags);
  }
}
