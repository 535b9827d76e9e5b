package dev.bounded.checks.model;

import java.util.List;

/**
 * What a frontend knows of the method a call invokes: where it is declared, what it declares to
 * throw and how it is annotated.
 *
 * @param owner the declaring type (or the receiver's type when the declaration is unknown)
 * @param name the method name
 * @param thrown the exception types in its {@code throws} clause
 * @param annotations the annotations on the declaration, as qualified names (simple names where the
 *     frontend could not resolve them)
 * @param isStatic whether the method is static
 * @param resolved whether the frontend found the declaration (otherwise the lists are empty because
 *     nothing is known, not because the method declares nothing)
 */
public record MethodRef(
    TypeRef owner,
    String name,
    List<TypeRef> thrown,
    List<String> annotations,
    boolean isStatic,
    boolean resolved) {

  /**
   * Copies the lists.
   *
   * @throws NullPointerException if any argument is null
   */
  public MethodRef {
    thrown = List.copyOf(thrown);
    annotations = List.copyOf(annotations);
  }

  /**
   * Returns the description of a method the frontend could not resolve.
   *
   * @param name the method name as written
   * @return an unresolved method reference
   */
  public static MethodRef unresolved(String name) {
    return new MethodRef(TypeRef.unknown(), name, List.of(), List.of(), false, false);
  }

  /**
   * Tells whether the declaration carries an annotation of this simple name, from any package:
   * projects may declare their own {@code @NonIdempotent}.
   *
   * @param simpleName the annotation's simple name
   * @return {@code true} if annotated so
   */
  public boolean hasAnnotation(String simpleName) {
    for (String annotation : annotations) {
      if (annotation.equals(simpleName) || annotation.endsWith("." + simpleName)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tells whether the method declares it may throw {@code qualifiedName} or a subtype of it.
   *
   * @param qualifiedName an exception type
   * @return {@code true} if a declared thrown type is {@code qualifiedName} or a subtype
   */
  public boolean declaresThrowing(String qualifiedName) {
    for (TypeRef type : thrown) {
      if (type.isSubtypeOf(qualifiedName)) {
        return true;
      }
    }
    return false;
  }
}
