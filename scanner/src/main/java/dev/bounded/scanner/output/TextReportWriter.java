package dev.bounded.scanner.output;

import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.ScanReport;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * For a terminal: {@code file:line:col: level: [Rule] message}, the flagged line, and the first
 * suggested change as a small diff; a summary line at the end. Colour only when asked (a tty).
 * Problems are not written here: the command line reports them on stderr.
 */
public final class TextReportWriter implements ReportWriter {
  private static final int MAX_LINE = 200;
  private static final int MAX_PREVIEW = 16;
  private final boolean color;

  /**
   * Creates the writer.
   *
   * @param color whether to use ANSI colours
   */
  public TextReportWriter(boolean color) {
    this.color = color;
  }

  @Override
  public void write(ScanReport report, Appendable out) throws IOException {
    int fixable = 0;
    Set<String> files = new HashSet<>();
    for (ScanFinding f : report.findings()) {
      files.add(f.path());
      String level = f.severity().id();
      out.append(paint("1", f.path() + ":" + f.line() + ":" + f.column() + ":"))
          .append(' ')
          .append(paint(levelColor(f), level + ":"))
          .append(' ')
          .append(paint("1", "[" + f.rule() + "]"))
          .append(' ')
          .append(f.message())
          .append('\n');
      out.append(String.format("%6d | ", f.line())).append(clip(f.lineText())).append('\n');
      if (!f.fixes().isEmpty()) {
        fixable++;
        ScanFinding.FixView fix = f.fixes().get(0);
        out.append("  ").append(paint("36", "fix: " + fix.description())).append('\n');
        int shown = 0;
        for (String line : fix.preview()) {
          if (shown++ == MAX_PREVIEW) {
            out.append("    ...\n");
            break;
          }
          String c = line.startsWith("-") ? "31" : "32";
          out.append("    ").append(paint(c, clip(line))).append('\n');
        }
      }
      out.append('\n');
    }
    int n = report.findings().size();
    out.append(
        n == 0
            ? "No findings in " + report.filesScanned() + " files.\n"
            : String.format(
                "Found %d %s (%d with a suggested fix) in %d of %d files.%n",
                n, n == 1 ? "finding" : "findings", fixable, files.size(), report.filesScanned()));
  }

  private static String levelColor(ScanFinding f) {
    return switch (f.severity()) {
      case ERROR -> "31;1";
      case WARNING -> "33;1";
      case NOTE, OFF -> "34;1";
    };
  }

  private static String clip(String line) {
    return line.length() <= MAX_LINE ? line : line.substring(0, MAX_LINE) + " ...";
  }

  private String paint(String code, String text) {
    return color ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
  }
}
