package dev.bounded.checks.model;

import java.util.List;

/**
 * A method (or constructor) as rules see it.
 *
 * @param span the whole declaration
 * @param name the method name ({@code <init>} for constructors)
 * @param params the parameters
 * @param thrown the exception types it declares
 * @param isPrivate whether the method is private: only its own class calls it
 * @param body the body
 */
public record MethodModel(
    Span span,
    String name,
    List<Param> params,
    List<TypeRef> thrown,
    boolean isPrivate,
    Stmt.Block body) {

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
   * Tells whether this is a thread's or task's body: {@code run()} or {@code call()} without
   * parameters. What it leaves behind when it returns, no caller reads.
   *
   * @return {@code true} for {@code run()} and {@code call()}
   */
  public boolean isTaskBody() {
    return params.isEmpty() && (name.equals("run") || name.equals("call"));
  }

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
