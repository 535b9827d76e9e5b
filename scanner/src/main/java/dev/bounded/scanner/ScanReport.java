package dev.bounded.scanner;

import java.util.List;

/**
 * What a scan found.
 *
 * @param findings the findings, by path and position
 * @param problems the inputs that could not be used, by path
 * @param filesScanned how many files were parsed
 * @param linesScanned how many lines they hold
 * @param rules the rules that ran, with their metadata
 */
public record ScanReport(
    List<ScanFinding> findings,
    List<ScanProblem> problems,
    int filesScanned,
    int filesAnalysed,
    long linesScanned,
    List<RuleInfo> rules) {

  /** Copies the lists. */
  public ScanReport {
    findings = List.copyOf(findings);
    problems = List.copyOf(problems);
    rules = List.copyOf(rules);
  }

  /**
   * Returns a report with other findings and the same problems and counts.
   *
   * @param kept the findings to keep
   * @return the new report
   */
  public ScanReport withFindings(List<ScanFinding> kept) {
    return new ScanReport(kept, problems, filesScanned, filesAnalysed, linesScanned, rules);
  }

  /**
   * Tells whether an input error occurred.
   *
   * @return {@code true} if some problem is an error
   */
  public boolean hasInputErrors() {
    return problems.stream().anyMatch(ScanProblem::isError);
  }
}
