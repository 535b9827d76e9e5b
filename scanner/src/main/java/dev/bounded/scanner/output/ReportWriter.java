package dev.bounded.scanner.output;

import dev.bounded.scanner.ScanReport;
import java.io.IOException;

/** Writes a scan's report in one format. Implementations are stateless apart from options. */
public interface ReportWriter {

  /**
   * Writes the report.
   *
   * @param report what the scan found
   * @param out where to write
   * @throws IOException if writing fails
   */
  void write(ScanReport report, Appendable out) throws IOException;
}
