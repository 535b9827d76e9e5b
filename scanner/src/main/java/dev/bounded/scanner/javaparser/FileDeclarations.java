package dev.bounded.scanner.javaparser;

import dev.bounded.scanner.javaparser.DeclarationIndex.TypeDecl;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One file's part of the first pass: the member types it declares and the packages it imports from.
 * A workspace keeps one per file, so that a changed file's part can be replaced without indexing
 * the others again. Immutable.
 */
public final class FileDeclarations {
  /** A file that declares nothing (one that does not parse, or was deleted). */
  public static final FileDeclarations NONE = new FileDeclarations(List.of(), Set.of());

  private final List<TypeDecl> types;
  private final Set<String> packages;

  FileDeclarations(List<TypeDecl> types, Set<String> packages) {
    this.types = List.copyOf(types);
    this.packages = Set.copyOf(packages);
  }

  List<TypeDecl> types() {
    return types;
  }

  Set<String> packages() {
    return packages;
  }

  /**
   * Returns the qualified names of the declared types, nested ones included.
   *
   * @return the names, in declaration order
   */
  public Set<String> typeNames() {
    Set<String> names = new LinkedHashSet<>();
    for (TypeDecl t : types) {
      names.add(t.name());
    }
    return names;
  }
}
