package dev.bounded.scanner.javaparser;

import java.util.Collection;
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
 *
 * <p>An index can also be an {@linkplain #overlay overlay} of another: one file's current
 * declarations over a workspace's saved ones (the language server analyses an edited file that
 * way).
 */
public final class DeclarationIndex {
  private final Map<String, TypeDecl> types = new ConcurrentHashMap<>();
  private final Set<String> importedPackages = ConcurrentHashMap.newKeySet();
  private final DeclarationIndex base;
  private final Set<String> hidden;

  /** Creates an empty index. */
  public DeclarationIndex() {
    this(null, Set.of());
  }

  private DeclarationIndex(DeclarationIndex base, Set<String> hidden) {
    this.base = base;
    this.hidden = Set.copyOf(hidden);
  }

  /**
   * Returns an index of the declarations of some files.
   *
   * @param files each file's declarations
   * @return the index
   */
  public static DeclarationIndex of(Collection<FileDeclarations> files) {
    DeclarationIndex index = new DeclarationIndex();
    for (FileDeclarations f : files) {
      index.add(f);
    }
    return index;
  }

  /**
   * Returns this index with one file's declarations replaced: the types of {@code before} no longer
   * seen here, those of {@code after} seen instead. This index is not changed, and must not change
   * while the overlay is used.
   *
   * @param before the file's declarations as this index holds them ({@link FileDeclarations#NONE}
   *     if it holds none)
   * @param after the file's current declarations
   * @return the overlay
   */
  public DeclarationIndex overlay(FileDeclarations before, FileDeclarations after) {
    DeclarationIndex overlay = new DeclarationIndex(this, before.typeNames());
    overlay.add(after);
    return overlay;
  }

  /**
   * Adds a file's declarations.
   *
   * @param file the declarations
   */
  public void add(FileDeclarations file) {
    for (TypeDecl t : file.types()) {
      add(t);
    }
    addImportedPackages(file.packages());
  }

  /**
   * A declared type.
   *
   * @param name the qualified name ({@code pkg.Outer.Inner})
   * @param isInterface whether it is an interface or annotation type
   * @param supertypes the extended and implemented types, as written
   * @param scope the declaring file's scope
   * @param file the declaring file's path as the scan reports it, or {@code null} when its code is
   *     not to be read
   * @param enclosing the qualified names of this type and its enclosing types, innermost first
   * @param methods the methods and constructors ({@code <init>}), by name
   * @param fields the fields, by name
   */
  record TypeDecl(
      String name,
      boolean isInterface,
      List<String> supertypes,
      FileScope scope,
      String file,
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
   * @param hasBody whether it has a body (not abstract, not an interface's non-default method)
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
      int line,
      boolean hasBody) {
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
    TypeDecl own = types.get(qualifiedName);
    if (own != null || base == null || hidden.contains(qualifiedName)) {
      return own;
    }
    return base.type(qualifiedName);
  }

  /**
   * Tells whether some scanned file declares a type in, or imports from, the package.
   *
   * @param pkg a package name
   * @return {@code true} if the scanned tree uses the package
   */
  boolean usesPackage(String pkg) {
    return importedPackages.contains(pkg) || (base != null && base.usesPackage(pkg));
  }

  /**
   * Returns the number of indexed types (an overlay's own and those it sees of its base).
   *
   * @return the count
   */
  public int size() {
    if (base == null) {
      return types.size();
    }
    int count = types.size();
    for (String name : base.names()) {
      if (!types.containsKey(name) && !hidden.contains(name)) {
        count++;
      }
    }
    return count;
  }

  /**
   * Returns the qualified names of the indexed types (an overlay's own and those it sees of its
   * base).
   *
   * @return the names
   */
  Set<String> names() {
    if (base == null) {
      return types.keySet();
    }
    Set<String> names = new java.util.HashSet<>(types.keySet());
    for (String name : base.names()) {
      if (!hidden.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }
}
