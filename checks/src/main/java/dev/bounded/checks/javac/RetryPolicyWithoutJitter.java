package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.RetryPolicyWithoutJitterRule;
import javax.inject.Inject;

/**
 * Runs {@link RetryPolicyWithoutJitterRule} in javac, on methods and on field initialisers (where
 * policies are usually built). See {@code docs/rules/RetryPolicyWithoutJitter.md}.
 */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "A retry library's backoff is configured without jitter or without a cap",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "RetryPolicyWithoutJitter.md")
public final class RetryPolicyWithoutJitter extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public RetryPolicyWithoutJitter() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public RetryPolicyWithoutJitter(ErrorProneFlags flags) {
    super(new RetryPolicyWithoutJitterRule(), flags);
  }
}
