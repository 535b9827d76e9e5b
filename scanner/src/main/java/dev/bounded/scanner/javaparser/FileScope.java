package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a file's names can refer to: its package and its imports. Resolves a type name as written to
 * a qualified name through the enclosing types, the imports, the package, the on-demand imports and
 * {@code java.lang}, asking the declaration index and the type table which names exist. Immutable.
 */
final class FileScope {
  private final String packageName;
  private final Map<String, String> singleImports;
  private final List<String> onDemandImports;
  private final Map<String, String> staticImports;
  private final List<String> staticOnDemandImports;

  private FileScope(
      String packageName,
      Map<String, String> singleImports,
      List<String> onDemandImports,
      Map<String, String> staticImports,
      List<String> staticOnDemandImports) {
    this.packageName = packageName;
    this.singleImports = singleImports;
    this.onDemandImports = onDemandImports;
    this.staticImports = staticImports;
    this.staticOnDemandImports = staticOnDemandImports;
  }

  static FileScope of(CompilationUnit unit) {
    String pkg = unit.getPackageDeclaration().map(p -> p.getNameAsString()).orElse("");
    Map<String, String> single = new HashMap<>();
    List<String> onDemand = new ArrayList<>();
    Map<String, String> statics = new HashMap<>();
    List<String> staticOnDemand = new ArrayList<>();
    for (ImportDeclaration i : unit.getImports()) {
      String name = i.getNameAsString();
      if (i.isStatic()) {
        if (i.isAsterisk()) {
          staticOnDemand.add(name);
        } else {
          int dot = name.lastIndexOf('.');
          if (dot > 0) {
            statics.put(name.substring(dot + 1), name.substring(0, dot));
          }
        }
      } else if (i.isAsterisk()) {
        onDemand.add(name);
      } else {
        single.put(name.substring(name.lastIndexOf('.') + 1), name);
      }
    }
    return new FileScope(
        pkg,
        Map.copyOf(single),
        List.copyOf(onDemand),
        Map.copyOf(statics),
        List.copyOf(staticOnDemand));
  }

  String packageName() {
    return packageName;
  }

  /** Whether the file imports anything from {@code pkg} (a type of it, or the whole package). */
  boolean importsFrom(String pkg) {
    if (onDemandImports.contains(pkg)) {
      return true;
    }
    for (String q : singleImports.values()) {
      if (q.startsWith(pkg + ".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The types whose static members an unqualified name may be: the owner of a single static import
   * of that name, then the owners of static on-demand imports.
   */
  List<String> staticOwners(String member) {
    List<String> owners = new ArrayList<>();
    String owner = staticImports.get(member);
    if (owner != null) {
      owners.add(owner);
    }
    owners.addAll(staticOnDemandImports);
    return owners;
  }

  /**
   * Resolves a type name as written.
   *
   * @param written a simple or dotted name, without type arguments
   * @param enclosing the qualified names of the enclosing types, innermost first
   * @param types what exists
   * @return the qualified name, or {@code null} if the name cannot be resolved
   */
  String resolve(String written, List<String> enclosing, ScannerTypes types) {
    int dot = written.indexOf('.');
    if (dot < 0) {
      return resolveSimple(written, enclosing, types);
    }
    String first = written.substring(0, dot);
    String outer = resolveSimple(first, enclosing, types);
    if (outer != null) {
      return outer + written.substring(dot);
    }
    // A package-qualified name: the longest prefix that is a known type, or the name itself.
    return Character.isLowerCase(first.charAt(0)) ? written : null;
  }

  private String resolveSimple(String name, List<String> enclosing, ScannerTypes types) {
    for (String e : enclosing) {
      if (e.endsWith("." + name) || e.equals(name)) {
        return e;
      }
      String member = types.memberType(e, name);
      if (member != null) {
        return member;
      }
    }
    String imported = singleImports.get(name);
    if (imported != null) {
      return imported;
    }
    String samePackage = packageName.isEmpty() ? name : packageName + "." + name;
    if (types.exists(samePackage)) {
      return samePackage;
    }
    for (String pkg : onDemandImports) {
      if (types.exists(pkg + "." + name)) {
        return pkg + "." + name;
      }
    }
    if (types.exists("java.lang." + name)) {
      return "java.lang." + name;
    }
    return null;
  }
}
