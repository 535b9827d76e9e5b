package dev.bounded.checks.model;

import java.util.List;

/**
 * A method (or constructor) as rules see it.
 *
 * @param span the whole declaration
 * @param name the method name ({@code <init>} for constructors)
 * @param params the parameters
 * @param thrown the exception types it declares
 * @param visibility who can call it
 * @param owner the class that declares it, by its qualified name (its simple name where the
 *     frontend cannot qualify it; empty for an anonymous class)
 * @param annotations the annotations on the declaration, as qualified names (simple names where the
 *     frontend cannot resolve them)
 * @param body the body
 */
public record MethodModel(
    Span span,
    String name,
    List<Param> params,
    List<TypeRef> thrown,
    Visibility visibility,
    String owner,
    List<String> annotations,
    Stmt.Block body) {

  /**
   * The name of the synthetic method that holds a class's field initialisers and initialiser
   * blocks.
   */
  public static final String INITIALISERS = "<initialisers>";

  /** Who can call a method. */
  public enum Visibility {
    /** {@code private}: only its own top-level class. */
    PRIVATE,
    /** No modifier: its package. */
    PACKAGE,
    /** {@code protected}. */
    PROTECTED,
    /** {@code public}. */
    PUBLIC
  }

  /** Copies the lists. */
  public MethodModel {
    params = List.copyOf(params);
    thrown = List.copyOf(thrown);
    annotations = List.copyOf(annotations);
  }

  /**
   * Tells whether the method is private: only its own class calls it.
   *
   * @return {@code true} if private
   */
  public boolean isPrivate() {
    return visibility == Visibility.PRIVATE;
  }

  /**
   * Tells whether the method is a constructor.
   *
   * @return {@code true} for {@code <init>}
   */
  public boolean isConstructor() {
    return name.equals("<init>");
  }

  /**
   * Tells whether the declaration carries an annotation of this simple name, from any package.
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
   * A parameter.
   *
   * @param name its name
   * @param type its declared type
   */
  public record Param(String name, TypeRef type) {}

  /**
   * Tells whether this is a thread's or task's body: {@code run()} or {@code call()} without
   * parameters. What it leaves behind when it returns, no caller reads. A {@code run()} that
   * declares a checked exception is no {@code Runnable.run()} (nor a thread's or timer task's), but
   * a method its callers wait on ({@code Shell.run() throws IOException}).
   *
   * @return {@code true} for {@code run()} and {@code call()}
   */
  public boolean isTaskBody() {
    return params.isEmpty()
        && (name.equals("call") || (name.equals("run") && !declaresCheckedException()));
  }

  private boolean declaresCheckedException() {
    for (TypeRef type : thrown) {
      if (type.isSubtypeOf("java.lang.Exception")
          && !type.isSubtypeOf("java.lang.RuntimeException")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tells whether this is a program's entry point, {@code main(String[])}: when it ends, nothing is
   * left to read the interrupt flag.
   *
   * @return {@code true} for {@code main} with one parameter
   */
  public boolean isMain() {
    return name.equals("main") && params.size() == 1 && visibility == Visibility.PUBLIC;
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
