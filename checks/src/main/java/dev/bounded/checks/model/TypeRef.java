package dev.bounded.checks.model;

/**
 * A type as a frontend knows it: the compiler knows every supertype; the source scanner knows the
 * types it can resolve through imports and its table of JDK and library types, and nothing else.
 *
 * <p>Rules must treat an {@linkplain #isKnown() unknown} type as "could be anything" and stay
 * silent rather than guess.
 */
public interface TypeRef {

  /**
   * Returns the erased, fully qualified name ({@code java.util.concurrent.Future}), or the empty
   * string when unknown. Primitives are spelt as in Java ({@code long}).
   *
   * @return the qualified name
   */
  String name();

  /**
   * Tells whether this type is {@code qualifiedName} or one of its subtypes.
   *
   * @param qualifiedName an erased, fully qualified type name
   * @return {@code true} only when the frontend knows it is
   */
  boolean isSubtypeOf(String qualifiedName);

  /**
   * Tells whether this type is a supertype of {@code qualifiedName} (or the same type): whether a
   * catch of this type catches {@code qualifiedName}.
   *
   * @param qualifiedName an erased, fully qualified type name
   * @return {@code true} only when the frontend knows it is
   */
  boolean isSupertypeOf(String qualifiedName);

  /**
   * Tells whether the frontend resolved this type.
   *
   * @return {@code false} for a type the frontend could not resolve
   */
  default boolean isKnown() {
    return !name().isEmpty();
  }

  /**
   * Returns the simple name: the part after the last dot.
   *
   * @return the simple name, or the empty string when unknown
   */
  default String simpleName() {
    String name = name();
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /**
   * Returns the type that no frontend could resolve.
   *
   * @return the unknown type
   */
  static TypeRef unknown() {
    return Unknown.INSTANCE;
  }

  /** The unresolved type. */
  final class Unknown implements TypeRef {
    private static final Unknown INSTANCE = new Unknown();

    private Unknown() {}

    @Override
    public String name() {
      return "";
    }

    @Override
    public boolean isSubtypeOf(String qualifiedName) {
      return false;
    }

    @Override
    public boolean isSupertypeOf(String qualifiedName) {
      return false;
    }

    @Override
    public String toString() {
      return "<unknown>";
    }
  }
}
