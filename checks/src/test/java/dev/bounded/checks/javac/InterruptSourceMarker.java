package dev.bounded.checks.javac;

import com.google.errorprone.BugPattern;
import com.google.errorprone.BugPattern.SeverityLevel;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.TryTreeMatcher;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.TryTree;
import com.sun.tools.javac.code.Symtab;
import com.sun.tools.javac.code.Types;

/**
 * A test-only check that reports every try statement the fast path says can throw an {@code
 * InterruptedException} ({@link AnalysisCache.Interrupts}), so that test can be tested on its own.
 */
@BugPattern(
    summary = "Marks try statements that may throw an interrupt",
    severity = SeverityLevel.WARNING)
public final class InterruptSourceMarker extends BugChecker implements TryTreeMatcher {
  private static final long serialVersionUID = 1L;

  @Override
  public Description matchTry(TryTree tree, VisitorState state) {
    AnalysisCache.Interrupts interrupts =
        new AnalysisCache.Interrupts(Types.instance(state.context), Symtab.instance(state.context));
    if (!interrupts.mayThrow(tree)) {
      return Description.NO_MATCH;
    }
    return buildDescription(tree).setMessage("may throw an interrupt").build();
  }
}
