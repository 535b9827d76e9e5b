package dev.bounded.scanner;

import java.util.List;
import java.util.Set;

/**
 * A finding as the outputs report it: where (path relative to the scan's base, 1-based lines and
 * columns in characters), which rule, how serious, why, and the suggested fixes as edits of the
 * file.
 *
 * @param path the file, with {@code /} separators
 * @param rule the rule's name
 * @param severity the level the settings give the rule
 * @param message the rule's message
 * @param start the offset where the finding starts
 * @param end the offset where it ends
 * @param line the line of {@code start}
 * @param column the column of {@code start}
 * @param endLine the line of {@code end}
 * @param endColumn the column of {@code end}
 * @param member the enclosing member ({@code Outer#method(params)})
 * @param lineText the text of {@code line}
 * @param fingerprint a hash that survives edits that only move the finding
 * @param fixes the suggested fixes, best first
 */
public record ScanFinding(
    String path,
    String rule,
    Severity severity,
    String message,
    int start,
    int end,
    int line,
    int column,
    int endLine,
    int endColumn,
    String member,
    String lineText,
    String fingerprint,
    List<FixView> fixes) {

  /** Copies the list. */
  public ScanFinding {
    fixes = List.copyOf(fixes);
  }

  /**
   * A suggested fix: edits of the finding's file, the imports it needs included.
   *
   * @param description what it does
   * @param edits the edits, in file order, never overlapping
   * @param imports the imported types (their insertions are among the edits)
   * @param preview the changed lines as a small diff: lines starting with {@code -} or {@code +}
   */
  public record FixView(
      String description, List<EditView> edits, Set<String> imports, List<String> preview) {
    /** Copies the collections. */
    public FixView {
      edits = List.copyOf(edits);
      imports = Set.copyOf(imports);
      preview = List.copyOf(preview);
    }
  }

  /**
   * One edit: replace {@code [start, end)} with {@code replacement}.
   *
   * @param start the first replaced offset
   * @param end the offset after the last replaced character
   * @param startLine the line of {@code start}
   * @param startColumn the column of {@code start} (characters, 1-based)
   * @param endLine the line of {@code end}
   * @param endColumn the column of {@code end}
   * @param startByteColumn the column of {@code start} in UTF-8 bytes (reviewdog's unit)
   * @param endByteColumn the column of {@code end} in UTF-8 bytes
   * @param replacement the new text
   */
  public record EditView(
      int start,
      int end,
      int startLine,
      int startColumn,
      int endLine,
      int endColumn,
      int startByteColumn,
      int endByteColumn,
      String replacement) {}
}
