package dev.bounded.checks.javac;

import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.MethodTree;
import com.sun.tools.javac.util.JCDiagnostic.SimpleDiagnosticPosition;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import java.util.TreeSet;

/**
 * A test-only check that reports every loop the analysis classifies as a retry loop, with its
 * evidence, so the shared retry-loop analysis can be tested on its own.
 */
@BugPattern(summary = "Marks retry loops", severity = SeverityLevel.WARNING)
public final class RetryLoopMarker extends BugChecker implements MethodTreeMatcher {
  private static final long serialVersionUID = 1L;

  @Override
  public Description matchMethod(MethodTree tree, VisitorState state) {
    if (tree.getBody() == null) {
      return Description.NO_MATCH;
    }
    MethodAnalysis analysis = AnalysisCache.get(tree, state, AnalysisCache.session(state, null));
    if (analysis == null) {
      return Description.NO_MATCH;
    }
    for (LoopInfo loop : analysis.loops()) {
      if (loop.isRetryLoop()) {
        state.reportMatch(
            buildDescription(new SimpleDiagnosticPosition(loop.span().start()))
                .setMessage("retry loop " + new TreeSet<>(loop.evidence()))
                .build());
      }
    }
    return Description.NO_MATCH;
  }
}
