package dev.bounded.checks.model;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a frontend knows of the method a call invokes: where it is declared, what it declares to
 * throw and how it is annotated. The thrown types and annotations may be supplied lazily: most
 * calls are never asked, and reading them can cost the compiler work.
 *
 * <p>Not thread-safe: a model belongs to the thread that analyses its method.
 */
public final class MethodRef {
  private final TypeRef owner;
  private final String name;
  private final boolean isStatic;
  private final boolean resolved;
  private Supplier<List<TypeRef>> thrownSupplier;
  private Supplier<List<String>> annotationsSupplier;
  private Supplier<List<String>> parameterNamesSupplier;
  private List<TypeRef> thrown;
  private List<String> annotations;
  private List<String> parameterNames;

  private MethodRef(
      TypeRef owner,
      String name,
      boolean isStatic,
      boolean resolved,
      Supplier<List<TypeRef>> thrown,
      Supplier<List<String>> annotations,
      Supplier<List<String>> parameterNames) {
    this.owner = Objects.requireNonNull(owner, "owner");
    this.name = Objects.requireNonNull(name, "name");
    this.isStatic = isStatic;
    this.resolved = resolved;
    this.thrownSupplier = thrown;
    this.annotationsSupplier = annotations;
    this.parameterNamesSupplier = parameterNames;
  }

  /**
   * Describes a method the frontend resolved.
   *
   * @param owner the declaring type
   * @param name the method name
   * @param isStatic whether the method is static
   * @param thrown supplies the exception types the method declares, on first use
   * @param annotations supplies the annotations on the declaration, as qualified names (simple
   *     names where the frontend could not resolve them), on first use
   * @return the method reference
   */
  public static MethodRef resolved(
      TypeRef owner,
      String name,
      boolean isStatic,
      Supplier<List<TypeRef>> thrown,
      Supplier<List<String>> annotations) {
    return new MethodRef(owner, name, isStatic, true, thrown, annotations, List::of);
  }

  /**
   * Describes a method the frontend resolved, with its parameters' names.
   *
   * @param owner the declaring type
   * @param name the method name
   * @param isStatic whether the method is static
   * @param thrown supplies the exception types the method declares, on first use
   * @param annotations supplies the annotations on the declaration, on first use
   * @param parameterNames supplies the declared parameters' names, on first use (empty when the
   *     frontend does not know them: a class file compiled without {@code -parameters} or debug
   *     information)
   * @return the method reference
   */
  public static MethodRef resolved(
      TypeRef owner,
      String name,
      boolean isStatic,
      Supplier<List<TypeRef>> thrown,
      Supplier<List<String>> annotations,
      Supplier<List<String>> parameterNames) {
    return new MethodRef(owner, name, isStatic, true, thrown, annotations, parameterNames);
  }

  /**
   * Returns the description of a method the frontend could not resolve.
   *
   * @param name the method name as written
   * @return an unresolved method reference
   */
  public static MethodRef unresolved(String name) {
    return new MethodRef(TypeRef.unknown(), name, false, false, List::of, List::of, List::of);
  }

  /**
   * Returns the declaring type (or the receiver's type when the declaration is unknown).
   *
   * @return the owner
   */
  public TypeRef owner() {
    return owner;
  }

  /**
   * Returns the method name.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * Tells whether the method is static.
   *
   * @return {@code true} if static
   */
  public boolean isStatic() {
    return isStatic;
  }

  /**
   * Tells whether the frontend found the declaration; otherwise the lists are empty because nothing
   * is known, not because the method declares nothing.
   *
   * @return {@code true} if resolved
   */
  public boolean resolved() {
    return resolved;
  }

  /**
   * Returns the exception types in the method's {@code throws} clause.
   *
   * @return the thrown types
   */
  public List<TypeRef> thrown() {
    if (thrown == null) {
      thrown = List.copyOf(thrownSupplier.get());
      thrownSupplier = null;
    }
    return thrown;
  }

  /**
   * Returns the annotations on the declaration, as qualified names.
   *
   * @return the annotations
   */
  public List<String> annotations() {
    if (annotations == null) {
      annotations = List.copyOf(annotationsSupplier.get());
      annotationsSupplier = null;
    }
    return annotations;
  }

  /**
   * Returns the declared parameters' names, in order.
   *
   * @return the names; empty when unknown
   */
  public List<String> parameterNames() {
    if (parameterNames == null) {
      parameterNames = List.copyOf(parameterNamesSupplier.get());
      parameterNamesSupplier = null;
    }
    return parameterNames;
  }

  /**
   * Tells whether the declaration carries an annotation of this simple name, from any package:
   * projects may declare their own {@code @NonIdempotent}.
   *
   * @param simpleName the annotation's simple name
   * @return {@code true} if annotated so
   */
  public boolean hasAnnotation(String simpleName) {
    for (String annotation : annotations()) {
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
    for (TypeRef type : thrown()) {
      if (type.isSubtypeOf(qualifiedName)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return owner + "#" + name;
  }
}
