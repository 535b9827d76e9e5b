package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.type.ReferenceType;
import com.github.javaparser.ast.type.TypeParameter;
import dev.bounded.scanner.javaparser.DeclarationIndex.FieldDecl;
import dev.bounded.scanner.javaparser.DeclarationIndex.MethodDecl;
import dev.bounded.scanner.javaparser.DeclarationIndex.TypeDecl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The first pass over one file: records the declarations of its member types in the index (local
 * and anonymous classes are not visible from other files and are left out).
 */
final class Declarations {
  private Declarations() {}

  static void index(CompilationUnit unit, FileScope scope, String file, DeclarationIndex index) {
    index.add(collect(unit, scope, file));
  }

  /**
   * The file's declarations, to add to an index.
   *
   * @param unit the parsed file
   * @param scope its scope
   * @param file its path as the scan reports it, or {@code null} if no other file's analysis may
   *     read its code (only its declarations)
   */
  static FileDeclarations collect(CompilationUnit unit, FileScope scope, String file) {
    List<TypeDecl> types = new ArrayList<>();
    Set<String> packages = new HashSet<>();
    packages.add(scope.packageName());
    unit.getImports()
        .forEach(
            i -> {
              String name = i.getNameAsString();
              if (i.isAsterisk() && !i.isStatic()) {
                packages.add(name);
              } else if (name.lastIndexOf('.') > 0) {
                packages.add(name.substring(0, name.lastIndexOf('.')));
              }
            });
    String prefix = scope.packageName().isEmpty() ? "" : scope.packageName() + ".";
    for (TypeDeclaration<?> type : unit.getTypes()) {
      add(type, prefix + type.getNameAsString(), List.of(), scope, file, types);
    }
    return new FileDeclarations(types, packages);
  }

  private static void add(
      TypeDeclaration<?> type,
      String name,
      List<String> outer,
      FileScope scope,
      String file,
      List<TypeDecl> index) {
    List<String> enclosing = new ArrayList<>();
    enclosing.add(name);
    enclosing.addAll(outer);
    Set<String> typeVariables = new HashSet<>();
    List<String> supertypes = new ArrayList<>();
    boolean isInterface = false;
    if (type instanceof ClassOrInterfaceDeclaration c) {
      isInterface = c.isInterface();
      c.getExtendedTypes().forEach(t -> supertypes.add(t.getNameWithScope()));
      c.getImplementedTypes().forEach(t -> supertypes.add(t.getNameWithScope()));
      c.getTypeParameters().forEach(p -> typeVariables.add(p.getNameAsString()));
    } else if (type instanceof EnumDeclaration e) {
      supertypes.add("java.lang.Enum");
      e.getImplementedTypes().forEach(t -> supertypes.add(t.getNameWithScope()));
    } else if (type instanceof RecordDeclaration r) {
      supertypes.add("java.lang.Record");
      r.getImplementedTypes().forEach(t -> supertypes.add(t.getNameWithScope()));
      r.getTypeParameters().forEach(p -> typeVariables.add(p.getNameAsString()));
    } else {
      isInterface = true; // an annotation type
    }
    Map<String, List<MethodDecl>> methods = new HashMap<>();
    Map<String, FieldDecl> fields = new HashMap<>();
    if (type instanceof RecordDeclaration r) {
      for (Parameter p : r.getParameters()) {
        String t = typeName(p.getType(), typeVariables);
        fields.put(p.getNameAsString(), new FieldDecl(p.getNameAsString(), t, false));
        methods
            .computeIfAbsent(p.getNameAsString(), k -> new ArrayList<>())
            .add(
                new MethodDecl(
                    p.getNameAsString(),
                    List.of(),
                    List.of(),
                    false,
                    false,
                    t,
                    List.of(),
                    List.of(),
                    -1,
                    true));
      }
    }
    for (BodyDeclaration<?> member : type.getMembers()) {
      if (member instanceof CallableDeclaration<?> callable) {
        MethodDecl m = method(callable, typeVariables);
        methods.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(m);
      } else if (member instanceof FieldDeclaration field) {
        boolean isStatic = field.isStatic() || isInterface;
        for (VariableDeclarator v : field.getVariables()) {
          fields.put(
              v.getNameAsString(),
              new FieldDecl(v.getNameAsString(), typeName(v.getType(), typeVariables), isStatic));
        }
      } else if (member instanceof TypeDeclaration<?> nested) {
        add(nested, name + "." + nested.getNameAsString(), enclosing, scope, file, index);
      }
    }
    if (type instanceof EnumDeclaration e) {
      e.getEntries()
          .forEach(
              entry ->
                  fields.put(
                      entry.getNameAsString(), new FieldDecl(entry.getNameAsString(), name, true)));
    }
    methods.replaceAll((k, v) -> List.copyOf(v));
    index.add(
        new TypeDecl(
            name,
            isInterface,
            List.copyOf(supertypes),
            scope,
            file,
            List.copyOf(enclosing),
            Map.copyOf(methods),
            Map.copyOf(fields)));
  }

  private static MethodDecl method(
      CallableDeclaration<?> callable, Set<String> classTypeVariables) {
    Set<String> typeVariables = new HashSet<>(classTypeVariables);
    for (TypeParameter p : callable.getTypeParameters()) {
      typeVariables.add(p.getNameAsString());
    }
    List<String> params = new ArrayList<>();
    List<String> paramNames = new ArrayList<>();
    boolean varargs = false;
    for (Parameter p : callable.getParameters()) {
      paramNames.add(p.getNameAsString());
      String type = typeName(p.getType(), typeVariables);
      params.add(type == null ? "" : type);
      varargs = p.isVarArgs();
    }
    List<String> thrown = new ArrayList<>();
    for (ReferenceType t : callable.getThrownExceptions()) {
      String written = typeName(t, typeVariables);
      thrown.add(written == null ? "java.lang.Exception" : written);
    }
    List<String> annotations = new ArrayList<>();
    for (AnnotationExpr a : callable.getAnnotations()) {
      annotations.add(a.getNameAsString());
    }
    String result = null;
    String name = "<init>";
    boolean isStatic = false;
    if (callable instanceof MethodDeclaration m) {
      name = m.getNameAsString();
      result = typeName(m.getType(), typeVariables);
      isStatic = m.isStatic();
    } else if (!(callable instanceof ConstructorDeclaration)) {
      name = callable.getNameAsString();
    }
    return new MethodDecl(
        name,
        List.copyOf(paramNames),
        List.copyOf(params),
        varargs,
        isStatic,
        result,
        List.copyOf(thrown),
        List.copyOf(annotations),
        callable.getBegin().map(b -> b.line).orElse(-1),
        !(callable instanceof MethodDeclaration md && md.getBody().isEmpty()));
  }

  /** A type as written, or {@code null} for a type variable (its erasure is unknown here). */
  private static String typeName(
      com.github.javaparser.ast.type.Type type, Set<String> typeVariables) {
    String written = ClassContext.written(type);
    if (written == null) {
      return null;
    }
    String base = written.replace("[]", "");
    if (typeVariables.contains(base)) {
      return null;
    }
    return written;
  }
}
