package dev.bounded.checks.model;

import java.util.List;

/**
 * A method (or constructor) as rules see it.
 *
 * @param span the whole declaration
 * @param name the method name ({@code <init>} for constructors)
 * @param params the parameters
 * @param thrown the types in its {@code throws} clause
 * @param body the body
 */
public record MethodModel(
    Span span, String name, List<Param> params, List<TypeRef> thrown, Stmt.Block body) {

  /** Copies the lists. */
  public MethodModel {
    params = List.copyOf(params);
    thrown = List.copyOf(thrown);
  }

  /**
   * A parameter.
   *
   * @param name its name
   * @param type its declared type
   */
  public record Param(String name, TypeRef type) {}

  /**
   * Tells whether the method may throw {@code qualifiedName}: its {@code throws} clause names that
   * type or a supertype.
   *
   * @param qualifiedName an exception type
   * @return {@code true} if a checked exception of that type may leave the method
   */
  public boolean mayThrow(String qualifiedName) {
    for (TypeRef type : thrown) {
      if (type.isSupertypeOf(qualifiedName)) {
        return true;
      }
    }
    return false;
  }
}
