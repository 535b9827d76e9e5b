package dev.bounded.scanner.output;

import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.ScanReport;
import dev.bounded.scanner.Severity;
import java.io.IOException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * reviewdog's Diagnostic Format (rdjson), one result for the whole scan. Each finding's first fix
 * becomes {@code suggestions}, so that a review shows it as a one-click change; columns are counted
 * in UTF-8 bytes and ranges end exclusively, as the format says.
 */
public final class RdjsonReportWriter implements ReportWriter {
  private final String docsUrl;

  /**
   * Creates the writer.
   *
   * @param docsUrl where the rule pages live, ending in {@code /}, or {@code null}
   */
  public RdjsonReportWriter(String docsUrl) {
    this.docsUrl = docsUrl;
  }

  @Override
  public void write(ScanReport report, Appendable out) throws IOException {
    ObjectNode root = Json.object();
    root.putObject("source").put("name", "bounded");
    ArrayNode diagnostics = root.putArray("diagnostics");
    for (ScanFinding f : report.findings()) {
      ObjectNode d = diagnostics.addObject();
      d.put("message", f.message());
      ObjectNode location = d.putObject("location");
      location.put("path", f.path());
      ObjectNode range = location.putObject("range");
      range
          .putObject("start")
          .put("line", f.line())
          .put("column", byteColumn(f.lineText(), f.column()));
      d.put("severity", severity(f.severity()));
      d.putObject("source").put("name", "bounded");
      ObjectNode code = d.putObject("code");
      code.put("value", f.rule());
      if (docsUrl != null) {
        code.put("url", docsUrl + f.rule() + ".md");
      }
      if (!f.fixes().isEmpty()) {
        ArrayNode suggestions = d.putArray("suggestions");
        for (ScanFinding.EditView e : f.fixes().get(0).edits()) {
          ObjectNode s = suggestions.addObject();
          ObjectNode r = s.putObject("range");
          r.putObject("start").put("line", e.startLine()).put("column", e.startByteColumn());
          r.putObject("end").put("line", e.endLine()).put("column", e.endByteColumn());
          s.put("text", e.replacement());
        }
      }
    }
    out.append(Json.pretty(root));
  }

  private static int byteColumn(String line, int column) {
    int chars = Math.min(line.length(), column - 1);
    return line.substring(0, chars).getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 1;
  }

  private static String severity(Severity severity) {
    return switch (severity) {
      case ERROR -> "ERROR";
      case WARNING -> "WARNING";
      case NOTE, OFF -> "INFO";
    };
  }
}
