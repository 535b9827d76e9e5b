package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.sun.tools.javac.code.ClassFinder;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.Types;
import com.sun.tools.javac.comp.Modules;
import dev.bounded.checks.model.TypeRef;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/** Makes {@link TypeRef}s from javac types, resolving named types once per analysed method. */
final class JavacTypes {
  private final VisitorState state;
  private final Types types;
  private final Map<String, Type> named;

  /** Named types per compilation (javac context): a failed lookup searches the class path. */
  private static final ThreadLocal<NamedTypes> NAMED = new ThreadLocal<>();

  /** Holds the context weakly: a finished compilation must not stay reachable from a thread. */
  private record NamedTypes(WeakReference<Object> context, Map<String, Type> types) {}

  JavacTypes(VisitorState state) {
    this.state = state;
    this.types = state.getTypes();
    NamedTypes cached = NAMED.get();
    if (cached == null || cached.context().get() != state.context) {
      cached = new NamedTypes(new WeakReference<>(state.context), new HashMap<>());
      NAMED.set(cached);
    }
    this.named = cached.types();
  }

  TypeRef of(Type type) {
    if (type == null || type.isErroneous()) {
      return TypeRef.unknown();
    }
    return new JavacTypeRef(type);
  }

  /**
   * The erased type of a qualified name, or {@link Type#noType} when it is not on the class path.
   * Unlike {@code VisitorState.getTypeFromString}, which sees only classes javac has already
   * entered, this loads the class if the compilation can see it.
   */
  private Type named(String qualifiedName) {
    return named.computeIfAbsent(qualifiedName, this::load);
  }

  private Type load(String qualifiedName) {
    Type entered = state.getTypeFromString(qualifiedName);
    if (entered != null) {
      return types.erasure(entered);
    }
    try {
      Symbol.ModuleSymbol module = Modules.instance(state.context).getDefaultModule();
      Symbol.ClassSymbol loaded =
          ClassFinder.instance(state.context).loadClass(module, state.getName(qualifiedName));
      return loaded == null || !loaded.exists() ? Type.noType : types.erasure(loaded.type);
    } catch (Symbol.CompletionFailure notOnClassPath) {
      return Type.noType;
    }
  }

  @SuppressWarnings("ReferenceEquality") // Type.noType is a sentinel
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
    @SuppressWarnings("ReferenceEquality") // Type.noType is a sentinel
    public boolean isSubtypeOf(String qualifiedName) {
      Type target = named(qualifiedName);
      return target != Type.noType && types.isSubtype(types.erasure(type), target);
    }

    @Override
    @SuppressWarnings("ReferenceEquality") // Type.noType is a sentinel
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
