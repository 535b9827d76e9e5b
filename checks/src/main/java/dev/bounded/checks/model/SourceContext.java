package dev.bounded.checks.model;

/**
 * What a rule may ask the frontend beyond the method itself: source text, the values of the
 * enclosing class's fields, and which types the compilation can see.
 */
public interface SourceContext {

  /**
   * Returns the whole source file.
   *
   * @return the file's text; spans are offsets into it
   */
  String source();

  /**
   * Returns the text of a span.
   *
   * @param span a known span in this file
   * @return the source text it covers
   */
  default String text(Span span) {
    return source().substring(span.start(), span.end());
  }

  /**
   * Returns the value a field of the enclosing class is given in the same class: its initialiser,
   * or its only assignment in a constructor or initialiser block.
   *
   * @param field the field's name
   * @return the value, or {@code null} if the field is unknown or assigned more than once
   */
  Expr fieldValue(String field);

  /**
   * Returns the initialiser of a field of the enclosing class, even when the class assigns the
   * field elsewhere too (a constructor or setter taking a configured value): the field's default.
   *
   * @param field the field's name
   * @return the initialiser, or {@code null} if the field has none or is unknown
   */
  default Expr fieldInitialiser(String field) {
    return null;
  }

  /**
   * Returns the type a field of the enclosing class is declared with, as written: {@code int},
   * {@code long}, {@code Duration}. With {@link #fieldInitialiser} it tells a field declared
   * without an initialiser (it starts as its type's default: {@code 0}, {@code false}, {@code
   * null}) from one the class does not declare.
   *
   * @param field the field's name
   * @return the declared type's text, or {@code null} if the enclosing class declares no such field
   */
  default String fieldType(String field) {
    return null;
  }

  /**
   * Tells whether a type can be referenced from this file: a fix that introduces a type first asks,
   * and falls back to plain JDK code when it cannot.
   *
   * @param qualifiedName a type's qualified name
   * @return {@code true} if the type is on the compilation's class path
   */
  boolean hasType(String qualifiedName);

  /**
   * Returns what the frontend knows of the other methods around this one: its compilation unit, or
   * the scanned tree.
   *
   * @return the index; {@link UnitIndex#empty()} when the frontend has none
   */
  default UnitIndex unit() {
    return UnitIndex.empty();
  }
}
