package dev.bounded.checks.javac;

import com.google.errorprone.ErrorProneFlags;
import com.google.errorprone.VisitorState;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.bugpatterns.BugChecker.ClassTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.CompilationUnitTreeMatcher;
import com.google.errorprone.bugpatterns.BugChecker.MethodTreeMatcher;
import com.google.errorprone.fixes.SuggestedFix;
import com.google.errorprone.matchers.Description;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.tools.javac.tree.EndPosTable;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.util.JCDiagnostic;
import com.sun.tools.javac.util.JCDiagnostic.DiagnosticFlag;
import com.sun.tools.javac.util.JCDiagnostic.DiagnosticPosition;
import com.sun.tools.javac.util.Log;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.RuleConfig;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import javax.tools.JavaFileObject;

/**
 * The Error Prone adapter shared by every check: it asks the rule for findings on each method and
 * turns them into diagnostics with suggested fixes. No rule logic lives here.
 *
 * <p>A bad {@code -XepOpt:} flag is reported once per compilation as a plain compilation error
 * naming the flag, what it expects and what it got (a constructor that threw would show as a
 * compiler crash, naming whichever check happened to be built first).
 */
abstract class BoundedChecker extends BugChecker
    implements MethodTreeMatcher, ClassTreeMatcher, CompilationUnitTreeMatcher {
  private static final long serialVersionUID = 1L;

  /** The compilations (by their log) whose flag errors were reported: once, not once a check. */
  private static final Map<Log, Boolean> REPORTED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final transient Rule rule;
  private final transient RuleConfig config;
  private final String docsUrl;
  private final List<String> flagErrors;
  private final boolean disabled;
  private final int stage;

  /** The compilation state this checker used last (see {@link AnalysisCache#session}). */
  private transient AnalysisCache.Session session;

  BoundedChecker(Rule rule, ErrorProneFlags flags) {
    Flags.Parsed parsed = Flags.parse(flags);
    this.rule = rule;
    this.config = parsed.config();
    this.docsUrl = Docs.page(parsed.docsTemplate(), rule.name());
    this.flagErrors = parsed.errors();
    this.disabled = parsed.disabled().contains(rule.name());
    this.stage = Timing.ruleStage(rule.name());
  }

  @Override
  public final Description matchCompilationUnit(CompilationUnitTree tree, VisitorState state) {
    if (!flagErrors.isEmpty()) {
      Log log = Log.instance(state.context);
      if (REPORTED.putIfAbsent(log, Boolean.TRUE) == null) {
        // No source file: the error is the command line's, not the first file compiled.
        JavaFileObject source = log.useSource(null);
        try {
          reportFlagErrors(log);
        } finally {
          log.useSource(source);
        }
      }
    }
    return Description.NO_MATCH;
  }

  private void reportFlagErrors(Log log) {
    for (String error : flagErrors) {
      // API: bypasses javac's one-error-per-position filter, as Error Prone's own reports do.
      log.error(
          DiagnosticFlag.API,
          (DiagnosticPosition) null,
          new JCDiagnostic.Error("compiler", "proc.messager", "bad Bounded flag: " + error));
    }
  }

  @Override
  public final Description matchMethod(MethodTree tree, VisitorState state) {
    if (tree.getBody() == null || !flagErrors.isEmpty()) {
      return Description.NO_MATCH;
    }
    Timing.enterFromOutside();
    try {
      MethodAnalysis analysis = AnalysisCache.get(tree, state, session(state));
      if (analysis == null) {
        return Description.NO_MATCH; /* Fast path: nothing in the method a rule could report. */
      }
      report(tree, analysis, state);
      return Description.NO_MATCH;
    } finally {
      Timing.exitToOutside();
    }
  }

  /** Field initialisers and initialiser blocks: code outside methods that rules must see too. */
  @Override
  public final Description matchClass(ClassTree tree, VisitorState state) {
    if (!flagErrors.isEmpty()) {
      return Description.NO_MATCH;
    }
    Timing.enterFromOutside();
    try {
      MethodAnalysis analysis = AnalysisCache.initialisers(tree, state, session(state));
      if (analysis == null) {
        return Description.NO_MATCH; /* Fast path: nothing in the initialisers to report. */
      }
      report(tree, analysis, state);
      return Description.NO_MATCH;
    } finally {
      Timing.exitToOutside();
    }
  }

  private AnalysisCache.Session session(VisitorState state) {
    AnalysisCache.Session current = AnalysisCache.session(state, session);
    session = current;
    return current;
  }

  private void report(Tree tree, MethodAnalysis analysis, VisitorState state) {
    if (disabled) {
      return; // switched off in the settings file (severity.<Rule> = off)
    }
    int previous = Timing.enter(stage);
    List<Finding> findings = rule.check(analysis, config);
    Timing.exit(previous);
    for (Finding finding : findings) {
      if (!finding.span().isKnown()) {
        continue;
      }
      previous = Timing.enter(Timing.DESCRIBE);
      Timing.count(Timing.FINDINGS, 1);
      Timing.count(Timing.FIXES, finding.fixes().size());
      String message = finding.message();
      if (!finding.fixes().isEmpty()) {
        // The build output says which findings carry a fix (-XepPatchChecks applies it).
        message += ". Suggested fix: " + finding.fixes().get(0).description();
      }
      Description.Builder description =
          buildDescription(new Position((JCTree) tree, finding.span().start()))
              .setMessage(message)
              .setLinkUrl(docsUrl);
      for (Fix fix : finding.fixes()) {
        description.addFix(suggestedFix(fix));
      }
      Description built = description.build();
      Timing.enter(Timing.REPORT);
      state.reportMatch(built);
      Timing.exit(previous);
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
    for (String type : fix.removedImports()) {
      builder.removeImport(type);
    }
    return builder.build();
  }

  /**
   * A diagnostic position at a finding's offset that still names its method's tree: Error Prone
   * shows a fix's "Did you mean" line only for positions with a tree when the fix adds imports.
   */
  private record Position(JCTree tree, int offset) implements DiagnosticPosition {
    @Override
    public JCTree getTree() {
      return tree;
    }

    @Override
    public int getStartPosition() {
      return offset;
    }

    @Override
    public int getPreferredPosition() {
      return offset;
    }

    @Override
    public int getEndPosition(EndPosTable endPosTable) {
      return offset;
    }
  }
}
