package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.Types;
import dev.bounded.checks.model.TypeRef;
import java.util.HashMap;
import java.util.Map;

/** Makes {@link TypeRef}s from javac types, resolving named types once per analysed method. */
final class JavacTypes {
  private final VisitorState state;
  private final Types types;
  private final Map<String, Type> named = new HashMap<>();

  JavacTypes(VisitorState state) {
    this.state = state;
    this.types = state.getTypes();
  }

  TypeRef of(Type type) {
    if (type == null || type.isErroneous()) {
      return TypeRef.unknown();
    }
    return new JavacTypeRef(type);
  }

  /** The erased type of a qualified name, or {@code null} when it is not on the class path. */
  private Type named(String qualifiedName) {
    return named.computeIfAbsent(
        qualifiedName,
        name -> {
          Type t = state.getTypeFromString(name);
          return t == null ? Type.noType : types.erasure(t);
        });
  }

  boolean exists(String qualifiedName) {
    return named(qualifiedName) != Type.noType;
  }

  /** A javac type, asked lazily: most references are never queried. */
  private final class JavacTypeRef implements TypeRef {
    private final Type type;
    private String name;

    JavacTypeRef(Type type) {
      this.type = type;
    }

    @Override
    public String name() {
      if (name == null) {
        Type erased = types.erasure(type);
        if (erased.isPrimitive()) {
          name = erased.toString();
        } else {
          Symbol.TypeSymbol symbol = erased.tsym;
          name =
              symbol instanceof Symbol.ClassSymbol c
                  ? c.getQualifiedName().toString()
                  : erased.toString();
        }
      }
      return name;
    }

    @Override
    public boolean isSubtypeOf(String qualifiedName) {
      Type target = named(qualifiedName);
      return target != Type.noType && types.isSubtype(types.erasure(type), target);
    }

    @Override
    public boolean isSupertypeOf(String qualifiedName) {
      Type target = named(qualifiedName);
      return target != Type.noType && types.isSubtype(target, types.erasure(type));
    }

    @Override
    public String toString() {
      return name();
    }
  }
}
