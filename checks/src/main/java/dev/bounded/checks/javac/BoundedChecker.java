package dev.bounded.checks.javac;

import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.ClassTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.MethodTree;
import com.sun.tools.javac.util.JCDiagnostic.SimpleDiagnosticPosition;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.RuleConfig;

/**
 * The Error Prone adapter shared by every check: it asks the rule for findings on each method and
 * turns them into diagnostics with suggested fixes. No rule logic lives here.
 */
abstract class BoundedChecker extends BugChecker implements MethodTreeMatcher, ClassTreeMatcher {
  private static final long serialVersionUID = 1L;

  private final transient Rule rule;
  private final transient RuleConfig config;
  private final String docsUrl;

  BoundedChecker(Rule rule, ErrorProneFlags flags) {
    this.rule = rule;
    this.config = Flags.ruleConfig(flags);
    this.docsUrl = Flags.docsUrl(flags).map(base -> base + rule.name() + ".md").orElse(null);
  }

  @Override
  public final Description matchMethod(MethodTree tree, VisitorState state) {
    if (tree.getBody() == null) {
      return Description.NO_MATCH;
    }
    MethodAnalysis analysis = AnalysisCache.get(tree, state);
    if (analysis == null) {
      return Description.NO_MATCH; /* Fast path: nothing in the method a rule could report. */
    }
    report(analysis, state);
    return Description.NO_MATCH;
  }

  /** Field initialisers and initialiser blocks: code outside methods that rules must see too. */
  @Override
  public final Description matchClass(ClassTree tree, VisitorState state) {
    MethodAnalysis analysis = AnalysisCache.initialisers(tree, state);
    if (analysis == null) {
      return Description.NO_MATCH; /* Fast path: nothing in the initialisers to report. */
    }
    report(analysis, state);
    return Description.NO_MATCH;
  }

  private void report(MethodAnalysis analysis, VisitorState state) {
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
  }

  private static SuggestedFix suggestedFix(Fix fix) {
    SuggestedFix.Builder builder = SuggestedFix.builder().setShortDescription(fix.description());
    for (Edit edit : fix.edits()) {
      builder.replace(edit.start(), edit.end(), edit.replacement());
    }
    for (String type : fix.imports()) {
      builder.addImport(type);
    }
    return builder.build();
  }
}
