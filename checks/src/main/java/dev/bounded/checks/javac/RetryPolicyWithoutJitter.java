package dev.bounded.checks.javac;

import com.google.auto.service.AutoService;
import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.LinkType;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.BugPattern.StandardTags;
import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.VariableTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.VariableTree;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.util.JCDiagnostic.SimpleDiagnosticPosition;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.rules.RetryPolicyWithoutJitterRule;
import dev.bounded.checks.rules.RuleConfig;
import javax.inject.Inject;
import javax.lang.model.element.ElementKind;

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
public final class RetryPolicyWithoutJitter extends BoundedChecker implements VariableTreeMatcher {
  private static final long serialVersionUID = 1L;

  private final transient RetryPolicyWithoutJitterRule rule = new RetryPolicyWithoutJitterRule();
  private final transient RuleConfig config;
  private final String docsUrl;

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
    this.config = Flags.ruleConfig(flags);
    this.docsUrl = Flags.docsUrl(flags).map(base -> base + rule.name() + ".md").orElse(null);
  }

  @Override
  public Description matchVariable(VariableTree tree, VisitorState state) {
    Symbol symbol = ASTHelpers.getSymbol(tree);
    if (tree.getInitializer() == null || symbol == null || symbol.getKind() != ElementKind.FIELD) {
      return Description.NO_MATCH; /* Fast path: locals are seen with their method. */
    }
    MethodAnalysis analysis = AnalysisCache.forFieldInitializer(tree, state);
    if (analysis == null) {
      return Description.NO_MATCH;
    }
    for (Finding finding : rule.check(analysis, config)) {
      if (!finding.span().isKnown()) {
        continue;
      }
      Description.Builder description =
          buildDescription(new SimpleDiagnosticPosition(finding.span().start()))
              .setMessage(finding.message());
      if (docsUrl != null) {
        description.setLinkUrl(docsUrl);
      }
      for (Fix fix : finding.fixes()) {
        description.addFix(suggestedFix(fix));
      }
      state.reportMatch(description.build());
    }
    return Description.NO_MATCH;
  }
}
