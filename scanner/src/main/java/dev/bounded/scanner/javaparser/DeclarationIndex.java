package dev.bounded.scanner.javaparser;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The first pass's result: the declarations of every scanned file (types, their supertypes as
 * written, methods with their parameters, thrown types and annotations, fields with their types),
 * so that the second pass knows facts that cross files without a class path. Types are added
 * concurrently while files are indexed, then only read.
 *
 * <p>Names are kept as written, with the file's {@link FileScope}, and resolved when first asked: a
 * name may refer to a type of a file indexed later.
 */
public final class DeclarationIndex {
  private final Map<String, TypeDecl> types = new ConcurrentHashMap<>();
  private final Set<String> importedPackages = ConcurrentHashMap.newKeySet();

  /** Creates an empty index. */
  public DeclarationIndex() {}

  /**
   * A declared type.
   *
   * @param name the qualified name ({@code pkg.Outer.Inner})
   * @param isInterface whether it is an interface or annotation type
   * @param supertypes the extended and implemented types, as written
   * @param scope the declaring file's scope
   * @param enclosing the qualified names of this type and its enclosing types, innermost first
   * @param methods the methods and constructors ({@code <init>}), by name
   * @param fields the fields, by name
   */
  record TypeDecl(
      String name,
      boolean isInterface,
      List<String> supertypes,
      FileScope scope,
      List<String> enclosing,
      Map<String, List<MethodDecl>> methods,
      Map<String, FieldDecl> fields) {}

  /**
   * A declared method.
   *
   * @param name the name ({@code <init>} for a constructor)
   * @param paramNames the parameter names
   * @param paramTypes the parameter types as written
   * @param varargs whether the last parameter is variable-arity
   * @param isStatic whether static
   * @param result the result type as written ({@code void} included), or {@code null} for a
   *     constructor or a type variable
   * @param thrown the thrown types as written
   * @param annotations the annotation names as written
   * @param line the line where the declaration starts (it names the declaration in its file)
   */
  record MethodDecl(
      String name,
      List<String> paramNames,
      List<String> paramTypes,
      boolean varargs,
      boolean isStatic,
      String result,
      List<String> thrown,
      List<String> annotations,
      int line) {
    boolean accepts(int arity) {
      return varargs ? arity >= paramTypes.size() - 1 : arity == paramTypes.size();
    }
  }

  /**
   * A declared field.
   *
   * @param name its name
   * @param type its type as written, or {@code null} for a type variable
   * @param isStatic whether static
   */
  record FieldDecl(String name, String type, boolean isStatic) {}

  void add(TypeDecl type) {
    types.put(type.name(), type);
  }

  void addImportedPackages(Set<String> packages) {
    importedPackages.addAll(packages);
  }

  TypeDecl type(String qualifiedName) {
    return types.get(qualifiedName);
  }

  /**
   * Tells whether some scanned file declares a type in, or imports from, the package.
   *
   * @param pkg a package name
   * @return {@code true} if the scanned tree uses the package
   */
  boolean usesPackage(String pkg) {
    return importedPackages.contains(pkg);
  }

  /**
   * Returns the number of indexed types.
   *
   * @return the count
   */
  public int size() {
    return types.size();
  }
}
