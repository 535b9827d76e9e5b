package dev.bounded.checks.model;

import java.util.List;
import java.util.Set;

/**
 * A suggested fix: text edits applied together, and the imports they need.
 *
 * @param description what the fix does, one line
 * @param edits the edits; they never overlap
 * @param imports qualified names of the types to import
 * @param removedImports qualified names of imported types the edits leave unused, to remove
 */
public record Fix(
    String description, List<Edit> edits, Set<String> imports, Set<String> removedImports) {

  /** Copies the collections. */
  public Fix {
    edits = List.copyOf(edits);
    imports = Set.copyOf(imports);
    removedImports = Set.copyOf(removedImports);
  }

  /**
   * Returns a fix that removes no import.
   *
   * @param description what the fix does, one line
   * @param edits the edits; they never overlap
   * @param imports qualified names of the types to import
   */
  public Fix(String description, List<Edit> edits, Set<String> imports) {
    this(description, edits, imports, Set.of());
  }
}
