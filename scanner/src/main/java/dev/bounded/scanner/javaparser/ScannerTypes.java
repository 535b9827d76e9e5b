package dev.bounded.scanner.javaparser;

import dev.bounded.checks.model.MethodRef;
import dev.bounded.checks.model.TypeRef;
import dev.bounded.scanner.javaparser.DeclarationIndex.FieldDecl;
import dev.bounded.scanner.javaparser.DeclarationIndex.MethodDecl;
import dev.bounded.scanner.javaparser.DeclarationIndex.TypeDecl;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scanner's types: {@link TypeRef}s over the table of JDK and library types and the scanned
 * files' own declarations. A type whose name is known but which is in neither (imported from a
 * library the table does not describe) has only itself and {@code java.lang.Object} as known
 * supertypes: rules then stay silent where they would need more. Thread-safe.
 */
public final class ScannerTypes {
  private static final String OBJECT = "java.lang.Object";
  private static final Set<String> PRIMITIVES =
      Set.of("boolean", "byte", "short", "char", "int", "long", "float", "double", "void");

  private final TypeTable table = TypeTable.instance();
  private final DeclarationIndex index;
  private final Map<String, Set<String>> ancestors = new ConcurrentHashMap<>();
  private final Map<String, TypeRef> refs = new ConcurrentHashMap<>();
  private volatile Map<String, List<String>> subtypes;

  /**
   * Creates the types of one scan.
   *
   * @param index the declarations of the scanned files
   */
  public ScannerTypes(DeclarationIndex index) {
    this.index = index;
  }

  DeclarationIndex index() {
    return index;
  }

  /** Whether the table or the scanned files know this type. */
  boolean exists(String qualifiedName) {
    return index.type(qualifiedName) != null || table.type(qualifiedName) != null;
  }

  /** Whether the type is an enum the table knows (its constants have its type). */
  boolean isEnum(String qualifiedName) {
    TypeTable.TypeInfo info = table.type(qualifiedName);
    return info != null && info.isEnum();
  }

  /** A member type {@code name} of {@code owner} or of one of its supertypes, or {@code null}. */
  String memberType(String owner, String name) {
    for (String type : ancestors(owner)) {
      String member = type + "." + name;
      if (exists(member)) {
        return member;
      }
    }
    return null;
  }

  /**
   * Returns the type of a qualified name.
   *
   * @param qualifiedName an erased qualified name, a primitive, or an array type; {@code null} or
   *     empty for an unknown type
   * @return the type
   */
  public TypeRef of(String qualifiedName) {
    if (qualifiedName == null || qualifiedName.isEmpty()) {
      return TypeRef.unknown();
    }
    return refs.computeIfAbsent(qualifiedName, Ref::new);
  }

  /** The type itself, its known supertypes transitively, and {@code java.lang.Object}. */
  Set<String> ancestors(String qualifiedName) {
    Set<String> known = ancestors.get(qualifiedName);
    if (known != null) {
      return known;
    }
    Set<String> result = new LinkedHashSet<>();
    Deque<String> queue = new ArrayDeque<>();
    queue.add(qualifiedName);
    while (!queue.isEmpty()) {
      String type = queue.remove();
      if (result.add(type)) {
        queue.addAll(directSupertypes(type));
      }
    }
    if (!PRIMITIVES.contains(qualifiedName)) {
      result.add(OBJECT);
    }
    Set<String> frozen = Collections.unmodifiableSet(result);
    ancestors.put(qualifiedName, frozen);
    return frozen;
  }

  private List<String> directSupertypes(String type) {
    TypeTable.TypeInfo info = table.type(type);
    if (info != null) {
      return info.supertypes();
    }
    TypeDecl decl = index.type(type);
    if (decl == null) {
      return List.of();
    }
    List<String> supertypes = new ArrayList<>();
    // Resolved from the declaring type's outer scope: a type's own members do not name its
    // supertypes.
    List<String> outer = decl.enclosing().subList(1, decl.enclosing().size());
    for (String written : decl.supertypes()) {
      String resolved = decl.scope().resolve(written, outer, this);
      if (resolved != null && !resolved.equals(type)) {
        supertypes.add(resolved);
      }
    }
    return supertypes;
  }

  /** Resolves a type as written in a declaration of the index. */
  TypeRef resolveIn(TypeDecl decl, String written) {
    if (written == null) {
      return TypeRef.unknown();
    }
    return of(resolveName(decl.scope(), decl.enclosing(), written));
  }

  /** The qualified name of a type as written (arrays and primitives included), or {@code null}. */
  String resolveName(FileScope scope, List<String> enclosing, String written) {
    if (written.endsWith("[]")) {
      String component = resolveName(scope, enclosing, written.substring(0, written.length() - 2));
      return component == null ? null : component + "[]";
    }
    if (PRIMITIVES.contains(written)) {
      return written;
    }
    return scope.resolve(written, enclosing, this);
  }

  /**
   * A method a call resolves to.
   *
   * @param ref what the model says of it
   * @param owner the declaring type in the scanned files, or {@code null} for the table's
   * @param decl its declaration in the scanned files, or {@code null} for the table's
   */
  record Resolved(MethodRef ref, TypeDecl owner, MethodDecl decl) {}

  /**
   * Finds the method a call invokes: the nearest declaration of that name and arity in the type or
   * its supertypes, in the scanned files or the table.
   *
   * @param owner the receiver's (or enclosing) type
   * @param name the method name
   * @param arity the number of arguments
   * @return the method, or {@code null} if unknown or ambiguous
   */
  Resolved method(String owner, String name, int arity) {
    return method(owner, name, Collections.nCopies(arity, TypeRef.unknown()));
  }

  /**
   * Finds the method a call invokes, as {@link #method(String, String, int)} does, telling
   * overloads of the same arity apart by the arguments' types where they are known: an overload one
   * of whose parameters is a known class or interface that a known argument's type is not a subtype
   * of is not the one invoked ({@code connect(conn, uri, timeout)} with {@code conn} a {@code
   * Connection} is not {@code connect(String, Connection, long)}). When that rules out every
   * overload, none is ruled out (a type the scanner knows only in part).
   *
   * @param owner the receiver's (or enclosing) type
   * @param name the method name
   * @param args the arguments' types, unknown where not known
   * @return the method, or {@code null} if unknown or ambiguous
   */
  Resolved method(String owner, String name, List<TypeRef> args) {
    int arity = args.size();
    for (String type : ancestors(owner)) {
      TypeDecl decl = index.type(type);
      if (decl != null) {
        List<MethodDecl> candidates = new ArrayList<>();
        for (MethodDecl m : decl.methods().getOrDefault(name, List.of())) {
          if (m.accepts(arity)) {
            candidates.add(m);
          }
        }
        if (candidates.size() > 1) {
          List<MethodDecl> fitting = new ArrayList<>();
          for (MethodDecl m : candidates) {
            if (fits(decl, m, args)) {
              fitting.add(m);
            }
          }
          if (!fitting.isEmpty()) {
            candidates = fitting;
          }
        }
        if (candidates.size() > 1 && !sameFacts(candidates)) {
          return null; // overloads that differ: the scanner cannot tell which one
        }
        if (!candidates.isEmpty()) {
          MethodDecl m = candidates.get(0);
          return new Resolved(ref(decl, m), decl, candidates.size() == 1 ? m : null);
        }
        continue;
      }
      for (TypeTable.MethodInfo m : table.methods(type, name)) {
        if (m.arity() < 0 || m.arity() == arity) {
          return new Resolved(ref(m), null, null);
        }
      }
    }
    return null;
  }

  /**
   * Returns the one body that a call of a method declared without one runs, when the scanned files
   * hold exactly one: an interface's or an abstract class's method that a single scanned class
   * implements ({@code client.execute(request)} with {@code Client.Default} the only class
   * implementing {@code Client}). Classes that inherit that body are the same implementation.
   * Lambdas and anonymous classes are not seen, nor are implementations outside the scanned files.
   *
   * @param resolved a resolved call
   * @return the implementation, or {@code null} if the method has a body itself, or none or several
   *     scanned classes implement it
   */
  Resolved onlyImplementation(Resolved resolved) {
    MethodDecl declared = resolved.decl();
    if (declared == null
        || resolved.owner() == null
        || declared.hasBody()
        || declared.isStatic()
        || declared.name().equals("<init>")) {
      return null;
    }
    Resolved found = null;
    Deque<String> queue =
        new ArrayDeque<>(subtypes().getOrDefault(resolved.owner().name(), List.of()));
    Set<String> seen = new java.util.HashSet<>();
    while (!queue.isEmpty()) {
      String name = queue.remove();
      TypeDecl type = index.type(name);
      if (!seen.add(name) || type == null) {
        continue;
      }
      for (MethodDecl m : type.methods().getOrDefault(declared.name(), List.of())) {
        if (m.hasBody() && !m.isStatic() && overrides(m, declared)) {
          if (found != null) {
            return null; // two implementations: which one runs is not known here
          }
          found = new Resolved(resolved.ref(), type, m);
        }
      }
      queue.addAll(subtypes().getOrDefault(name, List.of()));
    }
    return found;
  }

  /** Whether a method's parameters, as written, are those of the method it may override. */
  private static boolean overrides(MethodDecl method, MethodDecl declared) {
    if (method.paramTypes().size() != declared.paramTypes().size()
        || method.varargs() != declared.varargs()) {
      return false;
    }
    for (int i = 0; i < method.paramTypes().size(); i++) {
      String a = simpleName(method.paramTypes().get(i));
      String b = simpleName(declared.paramTypes().get(i));
      if (a != null && b != null && !a.equals(b)) {
        return false;
      }
    }
    return true;
  }

  /** A written type's simple name without type arguments, or {@code null} for a type variable. */
  private static String simpleName(String written) {
    if (written == null) {
      return null;
    }
    int generic = written.indexOf('<');
    String raw = generic < 0 ? written : written.substring(0, generic);
    return raw.substring(raw.lastIndexOf('.') + 1);
  }

  /** The scanned types that name each type as a direct supertype, made on first use. */
  private Map<String, List<String>> subtypes() {
    Map<String, List<String>> known = subtypes;
    if (known == null) {
      Map<String, List<String>> made = new java.util.HashMap<>();
      for (String name : index.names()) {
        for (String supertype : directSupertypes(name)) {
          made.computeIfAbsent(supertype, k -> new ArrayList<>()).add(name);
        }
      }
      known = made;
      subtypes = known;
    }
    return known;
  }

  /** The result type of a resolved method, when known. */
  TypeRef result(String owner, String name, int arity) {
    for (String type : ancestors(owner)) {
      TypeDecl decl = index.type(type);
      if (decl != null) {
        for (MethodDecl m : decl.methods().getOrDefault(name, List.of())) {
          if (m.accepts(arity)) {
            return m.result() == null || m.result().equals("void")
                ? TypeRef.unknown()
                : resolveIn(decl, m.result());
          }
        }
        continue;
      }
      for (TypeTable.MethodInfo m : table.methods(type, name)) {
        if (m.arity() < 0 || m.arity() == arity) {
          return m.result() == null ? TypeRef.unknown() : of(m.result());
        }
      }
    }
    return TypeRef.unknown();
  }

  /** A field of the type or its supertypes in the scanned files, with its declaring type. */
  record Field(TypeDecl owner, FieldDecl field) {}

  Field field(String owner, String name) {
    for (String type : ancestors(owner)) {
      TypeDecl decl = index.type(type);
      if (decl != null) {
        FieldDecl field = decl.fields().get(name);
        if (field != null) {
          return new Field(decl, field);
        }
      }
    }
    return null;
  }

  /**
   * Whether no known argument type rules the method out (see {@link #method(String, String,
   * List)}).
   */
  private boolean fits(TypeDecl decl, MethodDecl m, List<TypeRef> args) {
    int fixed = m.varargs() ? m.paramTypes().size() - 1 : m.paramTypes().size();
    for (int i = 0; i < Math.min(fixed, args.size()); i++) {
      TypeRef arg = args.get(i);
      String written = m.paramTypes().get(i);
      if (!arg.isKnown() || written.isEmpty() || written.endsWith("[]")) {
        continue;
      }
      int generic = written.indexOf('<');
      TypeRef param = resolveIn(decl, generic < 0 ? written : written.substring(0, generic));
      if (param.isKnown()
          && !isPrimitiveOrBoxed(param.name())
          && !isPrimitiveOrBoxed(arg.name())
          && !param.name().equals("java.lang.Object")
          && !arg.name().equals(param.name())
          && !arg.isSubtypeOf(param.name())) {
        return false;
      }
    }
    return true;
  }

  private static final Set<String> BOXED =
      Set.of(
          "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Short",
          "java.lang.Byte",
          "java.lang.Character",
          "java.lang.Boolean",
          "java.lang.Double",
          "java.lang.Float");

  /** A primitive or its box: conversions between them are not subtyping, so left to javac. */
  private static boolean isPrimitiveOrBoxed(String name) {
    return name.indexOf('.') < 0 || BOXED.contains(name);
  }

  private static boolean sameFacts(List<MethodDecl> candidates) {
    MethodDecl first = candidates.get(0);
    for (MethodDecl m : candidates) {
      if (m.isStatic() != first.isStatic()
          || !m.thrown().equals(first.thrown())
          || !m.annotations().equals(first.annotations())
          || !java.util.Objects.equals(m.result(), first.result())) {
        return false;
      }
    }
    return true;
  }

  private MethodRef ref(TypeDecl decl, MethodDecl m) {
    return MethodRef.resolved(
        of(decl.name()),
        m.name(),
        m.isStatic(),
        () -> {
          List<TypeRef> thrown = new ArrayList<>();
          for (String t : m.thrown()) {
            thrown.add(resolveIn(decl, t));
          }
          return thrown;
        },
        () -> {
          List<String> annotations = new ArrayList<>();
          for (String a : m.annotations()) {
            String resolved = decl.scope().resolve(a, decl.enclosing(), this);
            annotations.add(resolved == null ? a : resolved);
          }
          return annotations;
        },
        m::paramNames);
  }

  private MethodRef ref(TypeTable.MethodInfo m) {
    List<TypeRef> thrown = new ArrayList<>();
    for (String t : m.thrown()) {
      thrown.add(of(t));
    }
    return MethodRef.resolved(of(m.owner()), m.name(), m.isStatic(), () -> thrown, List::of);
  }

  /** A named type: its supertypes are what the table and the index know. */
  private final class Ref implements TypeRef {
    private final String name;

    Ref(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public boolean isSubtypeOf(String qualifiedName) {
      return name.equals(qualifiedName) || ancestors(name).contains(qualifiedName);
    }

    @Override
    public boolean isSupertypeOf(String qualifiedName) {
      return name.equals(qualifiedName) || ancestors(qualifiedName).contains(name);
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
