package dev.bounded.checks.model;

import java.util.ArrayList;
import java.util.List;

/**
 * An expression. Parentheses and casts are not modelled: a frontend gives the expression inside.
 */
public sealed interface Expr extends Node
    permits Expr.Call,
        Expr.New,
        Expr.Lambda,
        Expr.Name,
        Expr.Literal,
        Expr.Assign,
        Expr.Unary,
        Expr.Binary,
        Expr.InstanceOf,
        Expr.Conditional,
        Expr.ArrayAccess,
        Expr.Other {

  /**
   * Returns the static type of the expression, when the frontend knows it.
   *
   * @return the type, or {@link TypeRef#unknown()}
   */
  default TypeRef type() {
    return TypeRef.unknown();
  }

  /** What a {@link Name} refers to. */
  enum NameKind {
    /** A local variable or a lambda parameter. */
    LOCAL,
    /** A method or constructor parameter. */
    PARAMETER,
    /** An instance or static field. */
    FIELD,
    /** A type (the qualifier of a static member). */
    TYPE,
    /** A package or something the frontend could not classify. */
    OTHER
  }

  /**
   * A method call.
   *
   * @param span the whole call
   * @param receiver the expression before the dot, or {@code null} for an unqualified call
   * @param name the method name
   * @param args the arguments
   * @param method what is known of the invoked method
   * @param type the call's result type
   * @param nameSpan the span of the method name
   */
  record Call(
      Span span,
      Expr receiver,
      String name,
      List<Expr> args,
      MethodRef method,
      TypeRef type,
      Span nameSpan)
      implements Expr {
    /** Copies the list. */
    public Call {
      args = List.copyOf(args);
    }

    @Override
    public List<Expr> children() {
      List<Expr> children = new ArrayList<>();
      if (receiver != null) {
        children.add(receiver);
      }
      children.addAll(args);
      return children;
    }

    /**
     * Tells whether this calls a method named {@code methodName} declared in or inherited by {@code
     * ownerType}: the receiver's type (or the declaring type) is a subtype of it.
     *
     * @param ownerType a qualified type name
     * @param methodName the method name
     * @return {@code true} if it does, as far as the frontend knows
     */
    public boolean isCallTo(String ownerType, String methodName) {
      if (!name.equals(methodName)) {
        return false;
      }
      if (method.owner().isSubtypeOf(ownerType)) {
        return true;
      }
      return receiver != null && receiver.type().isSubtypeOf(ownerType);
    }
  }

  /**
   * An instance creation ({@code new T(args)}).
   *
   * @param span the whole expression
   * @param type the created type
   * @param args the constructor arguments
   * @param hasBody whether it declares an anonymous class (whose body is not modelled)
   */
  record New(Span span, TypeRef type, List<Expr> args, boolean hasBody) implements Expr {
    /** Copies the list. */
    public New {
      args = List.copyOf(args);
    }

    @Override
    public List<Expr> children() {
      return args;
    }
  }

  /**
   * A lambda expression; its body runs when the functional interface is invoked, not here.
   *
   * @param span the whole lambda
   * @param params the parameter names
   * @param body the body: a {@link Stmt.Block}, or an {@link Stmt.ExprStmt} for an expression body
   */
  record Lambda(Span span, List<String> params, Stmt body) implements Expr {
    /** Copies the list. */
    public Lambda {
      params = List.copyOf(params);
    }

    @Override
    public List<Stmt> children() {
      return List.of(body);
    }
  }

  /**
   * A name: a simple identifier ({@code x}) or a qualified one ({@code this.x}, {@code
   * TimeUnit.SECONDS}).
   *
   * @param span the whole name
   * @param qualifier what precedes the last dot, or {@code null}
   * @param name the last identifier
   * @param kind what it refers to
   * @param type its type
   */
  record Name(Span span, Expr qualifier, String name, NameKind kind, TypeRef type) implements Expr {
    @Override
    public List<Expr> children() {
      return qualifier == null ? List.of() : List.of(qualifier);
    }

    /**
     * Tells whether this names a local variable or parameter called {@code variable}.
     *
     * @param variable a variable name
     * @return {@code true} for an unqualified local or parameter of that name
     */
    public boolean isVariable(String variable) {
      return qualifier == null
          && name.equals(variable)
          && (kind == NameKind.LOCAL || kind == NameKind.PARAMETER);
    }
  }

  /**
   * A literal.
   *
   * @param span the literal
   * @param value its value: a {@link String}, boxed number, {@link Boolean}, {@link Character}, or
   *     {@code null} for the null literal
   */
  record Literal(Span span, Object value) implements Expr {
    @Override
    public List<Expr> children() {
      return List.of();
    }
  }

  /**
   * An assignment, simple or compound.
   *
   * @param span the whole expression
   * @param target the assigned variable
   * @param operator {@code "="}, {@code "+="}, {@code "-="}, ...
   * @param value the assigned value
   */
  record Assign(Span span, Expr target, String operator, Expr value) implements Expr {
    @Override
    public List<Expr> children() {
      return List.of(target, value);
    }
  }

  /**
   * A unary operation.
   *
   * @param span the whole expression
   * @param operator {@code "++"}/{@code "--"} (prefix or postfix alike), {@code "!"}, {@code "-"},
   *     {@code "+"}, {@code "~"}
   * @param operand the operand
   */
  record Unary(Span span, String operator, Expr operand) implements Expr {
    @Override
    public List<Expr> children() {
      return List.of(operand);
    }
  }

  /**
   * A binary operation.
   *
   * @param span the whole expression
   * @param operator the Java operator: {@code "<"}, {@code "&&"}, {@code "+"}, ...
   * @param left the left operand
   * @param right the right operand
   */
  record Binary(Span span, String operator, Expr left, Expr right) implements Expr {
    @Override
    public List<Expr> children() {
      return List.of(left, right);
    }
  }

  /**
   * An {@code instanceof} test.
   *
   * @param span the whole expression
   * @param expr the tested expression
   * @param tested the type tested for
   */
  record InstanceOf(Span span, Expr expr, TypeRef tested) implements Expr {
    @Override
    public List<Expr> children() {
      return List.of(expr);
    }
  }

  /**
   * A conditional expression {@code c ? a : b}.
   *
   * @param span the whole expression
   * @param condition the condition
   * @param whenTrue the value when true
   * @param whenFalse the value when false
   */
  record Conditional(Span span, Expr condition, Expr whenTrue, Expr whenFalse) implements Expr {
    @Override
    public List<Expr> children() {
      return List.of(condition, whenTrue, whenFalse);
    }
  }

  /**
   * An array element access {@code a[i]}.
   *
   * @param span the whole expression
   * @param array the array
   * @param index the index
   */
  record ArrayAccess(Span span, Expr array, Expr index) implements Expr {
    @Override
    public List<Expr> children() {
      return List.of(array, index);
    }
  }

  /**
   * An expression the model does not describe further (method reference, array creation, class
   * literal, switch expression, ...), with its sub-expressions.
   *
   * @param span the expression
   * @param description what it is, for debugging
   * @param children the sub-expressions and statements
   */
  record Other(Span span, String description, List<Node> children) implements Expr {
    /** Copies the list. */
    public Other {
      children = List.copyOf(children);
    }
  }
}
