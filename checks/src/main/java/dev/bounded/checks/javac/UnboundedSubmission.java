package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UnboundedSubmissionRule;
import javax.inject.Inject;

/** Runs {@link UnboundedSubmissionRule} in javac. See {@code docs/rules/UnboundedSubmission.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary =
        "Tasks are submitted in a loop to an executor whose queue or thread count has no bound",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.CONCURRENCY,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UnboundedSubmission.md")
public final class UnboundedSubmission extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UnboundedSubmission() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UnboundedSubmission(ErrorProneFlags flags) {
    super(new UnboundedSubmissionRule(), flags);
  }
}
