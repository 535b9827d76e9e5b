package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.bugpatterns.BugChecker;
import dev.bounded.checks.rules.UncappedBackoffRule;
import javax.inject.Inject;

/** Runs {@link UncappedBackoffRule} in javac. See {@code docs/rules/UncappedBackoff.md}. */
@AutoService(BugChecker.class)
@BugPattern(
    summary = "A retry delay grows with every attempt and nothing caps it",
    severity = SeverityLevel.WARNING,
    tags = StandardTags.FRAGILE_CODE,
    linkType = LinkType.CUSTOM,
    link = Docs.RULES + "UncappedBackoff.md")
public final class UncappedBackoff extends BoundedChecker {
  private static final long serialVersionUID = 1L;

  /** Creates the check with default flags (for the service loader). */
  public UncappedBackoff() {
    this(ErrorProneFlags.empty());
  }

  /**
   * Creates the check.
   *
   * @param flags Error Prone's {@code -XepOpt:} flags
   */
  @Inject
  public UncappedBackoff(ErrorProneFlags flags) {
    super(new UncappedBackoffRule(), flags);
  }
}
