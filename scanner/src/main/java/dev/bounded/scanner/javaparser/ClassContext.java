package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.LocalClassDeclarationStmt;
import com.github.javaparser.ast.stmt.LocalRecordDeclarationStmt;
import com.github.javaparser.ast.type.ArrayType;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.IntersectionType;
import com.github.javaparser.ast.type.PrimitiveType;
import com.github.javaparser.ast.type.Type;
import com.github.javaparser.ast.type.TypeParameter;
import com.github.javaparser.ast.type.UnionType;
import com.github.javaparser.ast.type.VoidType;
import com.github.javaparser.ast.type.WildcardType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a method sits: its enclosing classes (named, local or anonymous), innermost first, and the
 * type variables in scope. Resolves type names and unqualified fields and methods the way javac
 * would look them up, as far as the scanned files and the type table tell.
 */
final class ClassContext {
  private final FileScope scope;
  private final ScannerTypes types;

  /** Named member types, innermost first: what type names resolve against. */
  private final List<String> named;

  /** Where unqualified methods are looked up: each class, or an anonymous class's supertype. */
  private final List<String> lookup;

  /** Type variables in scope, with their bound as written (or {@code null}). */
  private final Map<String, String> typeVariables;

  private final String thisType;
  private final String ownerName;
  private final String superType;
  private final NodeList<BodyDeclaration<?>> members;

  private ClassContext(
      FileScope scope,
      ScannerTypes types,
      List<String> named,
      List<String> lookup,
      Map<String, String> typeVariables,
      String thisType,
      String ownerName,
      String superType,
      NodeList<BodyDeclaration<?>> members) {
    this.scope = scope;
    this.types = types;
    this.named = named;
    this.lookup = lookup;
    this.typeVariables = typeVariables;
    this.thisType = thisType;
    this.ownerName = ownerName;
    this.superType = superType;
    this.members = members;
  }

  /**
   * The context of a member of a class.
   *
   * @param member a method, constructor or field
   * @param scope the file's scope
   * @param types the scan's types
   * @return the context
   */
  static ClassContext of(Node member, FileScope scope, ScannerTypes types) {
    List<Node> classes = new ArrayList<>();
    Map<String, String> typeVariables = new HashMap<>();
    for (Node n = member; n != null; n = n.getParentNode().orElse(null)) {
      if (n instanceof TypeDeclaration<?>
          || (n instanceof ObjectCreationExpr o && o.getAnonymousClassBody().isPresent())) {
        classes.add(n);
      }
      if (n instanceof CallableDeclaration<?> c) {
        for (TypeParameter p : c.getTypeParameters()) {
          typeVariables.putIfAbsent(p.getNameAsString(), bound(p));
        }
      } else if (n instanceof ClassOrInterfaceDeclaration c) {
        for (TypeParameter p : c.getTypeParameters()) {
          typeVariables.putIfAbsent(p.getNameAsString(), bound(p));
        }
      } else if (n instanceof RecordDeclaration r) {
        for (TypeParameter p : r.getTypeParameters()) {
          typeVariables.putIfAbsent(p.getNameAsString(), bound(p));
        }
      }
    }
    // Named member types first (outermost to innermost), for resolving the rest.
    List<String> named = new ArrayList<>();
    for (int i = classes.size() - 1; i >= 0; i--) {
      if (classes.get(i) instanceof TypeDeclaration<?> t && !isLocal(t)) {
        String outer = named.isEmpty() ? prefix(scope) : named.get(0) + ".";
        named.add(0, outer + t.getNameAsString());
      }
    }
    ClassContext partial =
        new ClassContext(
            scope, types, List.copyOf(named), List.of(), typeVariables, null, "", null, null);
    List<String> lookup = new ArrayList<>();
    String thisType = null;
    String ownerName = "";
    String superType = null;
    NodeList<BodyDeclaration<?>> members = null;
    int namedIndex = 0;
    for (int i = 0; i < classes.size(); i++) {
      Node c = classes.get(i);
      String name = null;
      String extended = null;
      if (c instanceof TypeDeclaration<?> t) {
        if (!isLocal(t)) {
          name = named.get(namedIndex++);
        }
        extended = extended(t, partial);
        if (i == 0) {
          members = t.getMembers();
        }
      } else {
        ObjectCreationExpr o = (ObjectCreationExpr) c;
        extended = partial.resolveType(o.getType());
        if (i == 0) {
          members = o.getAnonymousClassBody().orElse(null);
        }
      }
      if (i == 0) {
        thisType = name;
        superType = extended;
        // as javac names the owner: qualified, a local class by its simple name, anonymous ""
        ownerName =
            name != null ? name : (c instanceof TypeDeclaration<?> t ? t.getNameAsString() : "");
      }
      if (name != null) {
        lookup.add(name);
      } else if (extended != null) {
        lookup.add(extended);
      }
    }
    return new ClassContext(
        scope,
        types,
        List.copyOf(named),
        List.copyOf(lookup),
        typeVariables,
        thisType,
        ownerName,
        superType,
        members);
  }

  private static boolean isLocal(TypeDeclaration<?> t) {
    return t.getParentNode().orElse(null) instanceof LocalClassDeclarationStmt
        || t.getParentNode().orElse(null) instanceof LocalRecordDeclarationStmt;
  }

  private static String prefix(FileScope scope) {
    return scope.packageName().isEmpty() ? "" : scope.packageName() + ".";
  }

  private static String bound(TypeParameter p) {
    return p.getTypeBound().isEmpty() ? null : written(p.getTypeBound().get(0));
  }

  /** The superclass (or first interface) of a declaration, resolved. */
  private static String extended(TypeDeclaration<?> t, ClassContext context) {
    if (t instanceof ClassOrInterfaceDeclaration c) {
      if (!c.getExtendedTypes().isEmpty()) {
        return context.resolveType(c.getExtendedTypes().get(0));
      }
      if (!c.getImplementedTypes().isEmpty()) {
        return context.resolveType(c.getImplementedTypes().get(0));
      }
      return null;
    }
    if (t instanceof EnumDeclaration) {
      return "java.lang.Enum";
    }
    if (t instanceof RecordDeclaration) {
      return "java.lang.Record";
    }
    return null;
  }

  /**
   * The name of a type as written, without type arguments; arrays end in {@code []}.
   *
   * @param type a javaparser type
   * @return the written name, or {@code null} for {@code var}, wildcards and unknown types
   */
  static String written(Type type) {
    if (type instanceof ClassOrInterfaceType c) {
      return c.getNameWithScope();
    }
    if (type instanceof ArrayType a) {
      String component = written(a.getComponentType());
      return component == null ? null : component + "[]";
    }
    if (type instanceof PrimitiveType p) {
      return p.asString();
    }
    if (type instanceof VoidType) {
      return "void";
    }
    if (type instanceof UnionType u) {
      return u.getElements().isEmpty() ? null : written(u.getElements().get(0));
    }
    if (type instanceof IntersectionType i) {
      return i.getElements().isEmpty() ? null : written(i.getElements().get(0));
    }
    if (type instanceof WildcardType w) {
      return w.getExtendedType().map(ClassContext::written).orElse(null);
    }
    return null;
  }

  /** Resolves a javaparser type to a qualified name, or {@code null}. */
  String resolveType(Type type) {
    String written = written(type);
    return written == null ? null : resolveTypeName(written);
  }

  /** Resolves a type name as written (arrays included) to a qualified name, or {@code null}. */
  String resolveTypeName(String written) {
    if (written.endsWith("[]")) {
      String component = resolveTypeName(written.substring(0, written.length() - 2));
      return component == null ? null : component + "[]";
    }
    if (typeVariables.containsKey(written)) {
      String bound = typeVariables.get(written);
      return bound == null || bound.equals(written) ? "java.lang.Object" : resolveTypeName(bound);
    }
    return types.resolveName(scope, named, written);
  }

  /** Where an unqualified call is looked up, innermost first. */
  List<String> lookupTypes() {
    return lookup;
  }

  /** The class {@code this} refers to, or {@code null} in an anonymous or local class. */
  String thisType() {
    return thisType;
  }

  /**
   * The innermost class's name as javac gives it: qualified, simple if local, empty if anonymous.
   */
  String ownerName() {
    return ownerName;
  }

  /** The supertype {@code super} refers to, or {@code null}. */
  String superType() {
    return superType;
  }

  /** The members of the innermost class (an anonymous class's body included), or {@code null}. */
  NodeList<BodyDeclaration<?>> members() {
    return members;
  }

  /** An unqualified field in the enclosing classes (or their indexed supertypes), or null. */
  ScannerTypes.Field field(String name) {
    for (String type : lookup) {
      ScannerTypes.Field field = types.field(type, name);
      if (field != null) {
        return field;
      }
    }
    return null;
  }
}
