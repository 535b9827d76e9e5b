package dev.bounded.scanner.output;

import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.ScanProblem;
import dev.bounded.scanner.ScanReport;
import java.io.IOException;

/**
 * GitHub Actions workflow commands: one {@code ::warning file=...,line=...::message} annotation per
 * finding (and an {@code ::error} per input that could not be used), escaped as the runner expects.
 */
public final class GithubReportWriter implements ReportWriter {
  /** Creates the writer. */
  public GithubReportWriter() {}

  @Override
  public void write(ScanReport report, Appendable out) throws IOException {
    for (ScanFinding f : report.findings()) {
      String command =
          switch (f.severity()) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE, OFF -> "notice";
          };
      out.append("::")
          .append(command)
          .append(" file=")
          .append(property(f.path()))
          .append(",line=")
          .append(Integer.toString(f.line()))
          .append(",col=")
          .append(Integer.toString(f.column()))
          .append(",endLine=")
          .append(Integer.toString(f.endLine()))
          .append(",title=")
          .append(property("Bounded " + f.rule()))
          .append("::")
          .append(data(f.message()))
          .append('\n');
    }
    for (ScanProblem p : report.problems()) {
      out.append(p.isError() ? "::error" : "::notice")
          .append(" file=")
          .append(property(p.path()))
          .append(",title=")
          .append(property("Bounded could not scan this file"))
          .append("::")
          .append(data(p.message()))
          .append('\n');
    }
  }

  /** Escapes a message. */
  static String data(String s) {
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
  }

  /** Escapes a property value. */
  static String property(String s) {
    return data(s).replace(":", "%3A").replace(",", "%2C");
  }
}
