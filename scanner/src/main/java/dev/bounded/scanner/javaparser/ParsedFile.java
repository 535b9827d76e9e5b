package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.CompilationUnit;
import dev.bounded.checks.model.Edit;

/**
 * One file parsed once for everything a long-lived client (the language server) asks of it: its
 * declarations for the workspace's index, its analysis, and the edit that suppresses a rule where a
 * finding is. Immutable once built; its tree is only read.
 */
public final class ParsedFile {
  private final SourceFile source;
  private final CompilationUnit unit;
  private final FileDeclarations declarations;

  private ParsedFile(SourceFile source, CompilationUnit unit) {
    this.source = source;
    this.unit = unit;
    this.declarations = Declarations.collect(unit, FileScope.of(unit), source.path());
  }

  /**
   * Wraps a file parsed already and collects its declarations.
   *
   * @param source the file
   * @param unit its parsed tree (only read from now on)
   * @return the parsed file
   */
  public static ParsedFile of(SourceFile source, CompilationUnit unit) {
    return new ParsedFile(source, unit);
  }

  /**
   * Parses a file and collects its declarations.
   *
   * @param source the file
   * @return the parsed file
   * @throws JavaParserFrontend.UnparsableException if it is not Java javaparser can read
   */
  public static ParsedFile parse(SourceFile source) throws JavaParserFrontend.UnparsableException {
    return new ParsedFile(source, JavaParserFrontend.parse(source.text()));
  }

  /**
   * Returns the file.
   *
   * @return its text and path
   */
  public SourceFile source() {
    return source;
  }

  /**
   * Returns the file's declarations, for an index.
   *
   * @return the declarations
   */
  public FileDeclarations declarations() {
    return declarations;
  }

  CompilationUnit unit() {
    return unit;
  }

  /**
   * An edit that adds a rule to the {@code @SuppressWarnings} of a declaration.
   *
   * @param target what is annotated, such as {@code method pause} or {@code class Pause}
   * @param edit the edit of the file
   */
  public record Suppression(String target, Edit edit) {}

  /**
   * Returns the edit that suppresses a rule for the method (or constructor) enclosing an offset,
   * or, outside any method (a field's initialiser), for the enclosing class: a new
   * {@code @SuppressWarnings("Rule")}, or the rule added to the one already there.
   *
   * @param offset where the finding starts
   * @param rule the rule's name
   * @return the suppression, or {@code null} if no declaration encloses the offset
   */
  public Suppression suppression(int offset, String rule) {
    return Suppressions.of(source, unit, offset, rule);
  }
}
