package dev.bounded.scanner.output;

import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.ScanProblem;
import dev.bounded.scanner.ScanReport;
import java.io.IOException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Bounded's own JSON: every finding with its position (1-based lines and columns), level, message,
 * fingerprint and fixes, and every problem.
 */
public final class JsonReportWriter implements ReportWriter {
  /** Creates the writer. */
  public JsonReportWriter() {}

  @Override
  public void write(ScanReport report, Appendable out) throws IOException {
    ObjectNode root = Json.object();
    root.put("tool", "bounded");
    root.put("version", Version.VERSION);
    root.put("filesScanned", report.filesScanned());
    root.put("filesAnalysed", report.filesAnalysed());
    root.put("linesScanned", report.linesScanned());
    ArrayNode findings = root.putArray("findings");
    for (ScanFinding f : report.findings()) {
      ObjectNode n = findings.addObject();
      n.put("rule", f.rule());
      n.put("level", f.severity().id());
      n.put("path", f.path());
      n.put("line", f.line());
      n.put("column", f.column());
      n.put("endLine", f.endLine());
      n.put("endColumn", f.endColumn());
      n.put("member", f.member());
      n.put("message", f.message());
      n.put("fingerprint", f.fingerprint());
      ArrayNode fixes = n.putArray("fixes");
      for (ScanFinding.FixView fix : f.fixes()) {
        ObjectNode x = fixes.addObject();
        x.put("description", fix.description());
        ArrayNode edits = x.putArray("edits");
        for (ScanFinding.EditView e : fix.edits()) {
          ObjectNode ed = edits.addObject();
          ed.put("startLine", e.startLine());
          ed.put("startColumn", e.startColumn());
          ed.put("endLine", e.endLine());
          ed.put("endColumn", e.endColumn());
          ed.put("replacement", e.replacement());
        }
      }
    }
    ArrayNode problems = root.putArray("problems");
    for (ScanProblem p : report.problems()) {
      ObjectNode n = problems.addObject();
      n.put("path", p.path());
      n.put("message", p.message());
      n.put("error", p.isError());
    }
    out.append(Json.pretty(root));
  }
}
