package dev.bounded.scanner.lsp;

import dev.bounded.checks.model.Edit;
import dev.bounded.scanner.RuleInfo;
import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.Severity;
import dev.bounded.scanner.javaparser.ParsedFile;
import dev.bounded.scanner.javaparser.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticCodeDescription;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentEdit;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * Translates the scanner's findings into the protocol's terms: diagnostics, quick fixes and hovers.
 * Positions are the protocol's default, UTF-16 code units, which is what Java strings count.
 */
final class Protocol {
  /** The diagnostics' {@code source}. */
  static final String SOURCE = "bounded";

  private Protocol() {}

  /** A finding as a diagnostic: the rule as code, its page as code description. */
  static Diagnostic diagnostic(ScanFinding f, String docsUrl) {
    Diagnostic d = new Diagnostic();
    d.setRange(
        new Range(
            new Position(f.line() - 1, f.column() - 1),
            new Position(f.endLine() - 1, f.endColumn() - 1)));
    d.setSeverity(severity(f.severity()));
    d.setCode(Either.forLeft(f.rule()));
    d.setCodeDescription(new DiagnosticCodeDescription(RuleInfo.of(f.rule()).link(docsUrl)));
    d.setSource(SOURCE);
    d.setMessage(f.message());
    return d;
  }

  static DiagnosticSeverity severity(Severity s) {
    return switch (s) {
      case ERROR -> DiagnosticSeverity.Error;
      case WARNING -> DiagnosticSeverity.Warning;
      case NOTE, OFF -> DiagnosticSeverity.Information;
    };
  }

  /** The range of a span of a file. */
  static Range range(SourceFile source, int start, int end) {
    return new Range(position(source, start), position(source, end));
  }

  static Position position(SourceFile source, int offset) {
    return new Position(source.line(offset) - 1, source.column(offset) - 1);
  }

  /** The offset of a protocol position in a file's text, clamped to the text and the line. */
  static int offset(SourceFile source, Position p) {
    int line = p.getLine() + 1;
    if (line > source.lineCount()) {
      return source.text().length();
    }
    int lineStart = source.offset(line, 1);
    int lineLength = source.lineText(line).length();
    return lineStart + Math.max(0, Math.min(p.getCharacter(), lineLength));
  }

  /** Whether a finding's span touches {@code [start, end]} (a cursor touches its neighbours). */
  static boolean touches(ScanFinding f, int start, int end) {
    return f.start() <= end && start <= f.end();
  }

  /** Each suggested fix of a finding as a quick fix. */
  static List<CodeAction> quickFixes(
      String uri, int version, ScanFinding f, Diagnostic diagnostic, boolean versioned) {
    List<CodeAction> actions = new ArrayList<>();
    boolean first = true;
    for (ScanFinding.FixView fix : f.fixes()) {
      List<TextEdit> edits = new ArrayList<>();
      for (ScanFinding.EditView e : fix.edits()) {
        edits.add(
            new TextEdit(
                new Range(
                    new Position(e.startLine() - 1, e.startColumn() - 1),
                    new Position(e.endLine() - 1, e.endColumn() - 1)),
                e.replacement()));
      }
      CodeAction action = new CodeAction(fix.description() + " (" + f.rule() + ")");
      action.setKind(CodeActionKind.QuickFix);
      action.setDiagnostics(List.of(diagnostic));
      action.setIsPreferred(first);
      action.setEdit(workspaceEdit(uri, version, edits, versioned));
      actions.add(action);
      first = false;
    }
    return actions;
  }

  /** The "suppress for this method" action of a finding. */
  static CodeAction suppress(
      String uri,
      int version,
      ScanFinding f,
      Diagnostic diagnostic,
      ParsedFile.Suppression suppression,
      SourceFile source,
      boolean versioned) {
    Edit e = suppression.edit();
    CodeAction action = new CodeAction("Suppress " + f.rule() + " for " + suppression.target());
    action.setKind(CodeActionKind.QuickFix);
    action.setDiagnostics(List.of(diagnostic));
    action.setEdit(
        workspaceEdit(
            uri,
            version,
            List.of(new TextEdit(range(source, e.start(), e.end()), e.replacement())),
            versioned));
    return action;
  }

  private static WorkspaceEdit workspaceEdit(
      String uri, int version, List<TextEdit> edits, boolean versioned) {
    if (versioned) {
      return new WorkspaceEdit(
          List.of(
              Either.forLeft(
                  new TextDocumentEdit(new VersionedTextDocumentIdentifier(uri, version), edits))));
    }
    return new WorkspaceEdit(Map.of(uri, edits));
  }

  /** The hover over some findings: each one's rule, level, message and the rule's explanation. */
  static Hover hover(List<ScanFinding> findings, SourceFile source, String docsUrl) {
    StringBuilder md = new StringBuilder();
    int start = Integer.MAX_VALUE;
    int end = 0;
    for (ScanFinding f : findings) {
      if (md.length() > 0) {
        md.append("\n\n---\n\n");
      }
      RuleInfo info = RuleInfo.of(f.rule());
      md.append("**[")
          .append(f.rule())
          .append("](")
          .append(info.link(docsUrl))
          .append(")** (")
          .append(f.severity().id())
          .append("): ")
          .append(f.message())
          .append("\n\n")
          .append(info.explanation());
      start = Math.min(start, f.start());
      end = Math.max(end, f.end());
    }
    Hover hover = new Hover(new MarkupContent(MarkupKind.MARKDOWN, md.toString()));
    hover.setRange(range(source, start, end));
    return hover;
  }
}
