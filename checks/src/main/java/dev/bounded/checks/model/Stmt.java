package dev.bounded.checks.model;

import java.util.ArrayList;
import java.util.List;

/** A statement. */
public sealed interface Stmt extends Node
    permits Stmt.Block,
        Stmt.Loop,
        Stmt.Try,
        Stmt.If,
        Stmt.Switch,
        Stmt.Return,
        Stmt.Throw,
        Stmt.Break,
        Stmt.Continue,
        Stmt.ExprStmt,
        Stmt.LocalVar,
        Stmt.Other {

  /** The kinds of loop statement. */
  enum LoopKind {
    /** {@code for (init; condition; update)}. */
    FOR,
    /** {@code while (condition)}. */
    WHILE,
    /** {@code do ... while (condition)}. */
    DO_WHILE,
    /** {@code for (T x : iterable)}. */
    FOR_EACH
  }

  /**
   * A block.
   *
   * @param span the braces and what they hold
   * @param statements the statements in order
   */
  record Block(Span span, List<Stmt> statements) implements Stmt {
    /** Copies the list. */
    public Block {
      statements = List.copyOf(statements);
    }

    @Override
    public List<Stmt> children() {
      return statements;
    }
  }

  /**
   * A loop statement.
   *
   * @param span the whole loop, its label excluded
   * @param kind which loop
   * @param label the label naming it, or {@code null}
   * @param init {@code for} initialisers (locals or expression statements); empty otherwise
   * @param condition the condition, or {@code null} for {@code for (;;)} and for-each
   * @param update {@code for} updates; empty otherwise
   * @param variable the for-each variable, or {@code null}
   * @param iterable the for-each expression, or {@code null}
   * @param body the body
   */
  record Loop(
      Span span,
      LoopKind kind,
      String label,
      List<Stmt> init,
      Expr condition,
      List<Expr> update,
      LocalVar variable,
      Expr iterable,
      Stmt body)
      implements Stmt {
    /** Copies the lists. */
    public Loop {
      init = List.copyOf(init);
      update = List.copyOf(update);
    }

    @Override
    public List<Node> children() {
      List<Node> children = new ArrayList<>(init);
      if (variable != null) {
        children.add(variable);
      }
      if (iterable != null) {
        children.add(iterable);
      }
      if (condition != null && kind != LoopKind.DO_WHILE) {
        children.add(condition);
      }
      children.add(body);
      if (condition != null && kind == LoopKind.DO_WHILE) {
        children.add(condition);
      }
      children.addAll(update);
      return children;
    }
  }

  /**
   * A catch clause: not a statement, but part of a {@link Try}.
   *
   * @param span the whole clause, from {@code catch} to the closing brace
   * @param types the caught types; more than one for a multi-catch
   * @param typeSpan the span of the caught type as written (the whole union for a multi-catch)
   * @param typeSpans the span of each alternative, in the order of {@code types}
   * @param parameter the exception parameter's name
   * @param body the handler
   */
  record Catch(
      Span span,
      List<TypeRef> types,
      Span typeSpan,
      List<Span> typeSpans,
      String parameter,
      Block body)
      implements Node {
    /** Copies the lists. */
    public Catch {
      types = List.copyOf(types);
      typeSpans = List.copyOf(typeSpans);
    }

    @Override
    public List<Block> children() {
      return List.of(body);
    }

    /**
     * Tells whether this clause catches {@code qualifiedName}: one of its types is that type or a
     * supertype of it.
     *
     * @param qualifiedName an exception type
     * @return {@code true} if a thrown {@code qualifiedName} lands here
     */
    public boolean catches(String qualifiedName) {
      for (TypeRef type : types) {
        if (type.isSupertypeOf(qualifiedName)) {
          return true;
        }
      }
      return false;
    }

    /**
     * Tells whether one of the caught types is exactly {@code qualifiedName} or a subtype of it.
     *
     * @param qualifiedName an exception type
     * @return {@code true} if named directly (or through a subclass)
     */
    public boolean namesSubtypeOf(String qualifiedName) {
      for (TypeRef type : types) {
        if (type.isSubtypeOf(qualifiedName)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * A try statement.
   *
   * @param span the whole statement
   * @param resources try-with-resources declarations and expressions
   * @param body the try block
   * @param catches the catch clauses in order
   * @param finallyBlock the finally block, or {@code null}
   */
  record Try(Span span, List<Node> resources, Block body, List<Catch> catches, Block finallyBlock)
      implements Stmt {
    /** Copies the lists. */
    public Try {
      resources = List.copyOf(resources);
      catches = List.copyOf(catches);
    }

    @Override
    public List<Node> children() {
      List<Node> children = new ArrayList<>(resources);
      children.add(body);
      children.addAll(catches);
      if (finallyBlock != null) {
        children.add(finallyBlock);
      }
      return children;
    }
  }

  /**
   * An if statement.
   *
   * @param span the whole statement
   * @param condition the condition
   * @param then the then branch
   * @param otherwise the else branch, or {@code null}
   */
  record If(Span span, Expr condition, Stmt then, Stmt otherwise) implements Stmt {
    @Override
    public List<Node> children() {
      return otherwise == null ? List.of(condition, then) : List.of(condition, then, otherwise);
    }
  }

  /**
   * A switch statement; {@code break} inside it targets the switch.
   *
   * @param span the whole statement
   * @param selector the selector expression
   * @param cases each case's statements, in order
   */
  record Switch(Span span, Expr selector, List<Block> cases) implements Stmt {
    /** Copies the list. */
    public Switch {
      cases = List.copyOf(cases);
    }

    @Override
    public List<Node> children() {
      List<Node> children = new ArrayList<>();
      children.add(selector);
      children.addAll(cases);
      return children;
    }
  }

  /**
   * A return statement.
   *
   * @param span the statement
   * @param value the returned expression, or {@code null}
   */
  record Return(Span span, Expr value) implements Stmt {
    @Override
    public List<Expr> children() {
      return value == null ? List.of() : List.of(value);
    }
  }

  /**
   * A throw statement.
   *
   * @param span the statement
   * @param value the thrown expression
   */
  record Throw(Span span, Expr value) implements Stmt {
    @Override
    public List<Expr> children() {
      return List.of(value);
    }
  }

  /**
   * A break statement.
   *
   * @param span the statement
   * @param label the target label, or {@code null}
   */
  record Break(Span span, String label) implements Stmt {
    @Override
    public List<Node> children() {
      return List.of();
    }
  }

  /**
   * A continue statement.
   *
   * @param span the statement
   * @param label the target label, or {@code null}
   */
  record Continue(Span span, String label) implements Stmt {
    @Override
    public List<Node> children() {
      return List.of();
    }
  }

  /**
   * An expression used as a statement.
   *
   * @param span the statement, semicolon included
   * @param expr the expression
   */
  record ExprStmt(Span span, Expr expr) implements Stmt {
    @Override
    public List<Expr> children() {
      return List.of(expr);
    }
  }

  /**
   * A local variable declaration (also a for-each variable or a resource).
   *
   * @param span the declaration
   * @param type the declared type
   * @param name the variable's name
   * @param init the initialiser, or {@code null}
   */
  record LocalVar(Span span, TypeRef type, String name, Expr init) implements Stmt {
    @Override
    public List<Expr> children() {
      return init == null ? List.of() : List.of(init);
    }
  }

  /**
   * A statement the model does not describe further (synchronized, labeled block, assert, a local
   * class, ...), with the children rules may still need.
   *
   * @param span the statement
   * @param description what it is, for debugging ({@code "synchronized"})
   * @param children its statements and expressions
   */
  record Other(Span span, String description, List<Node> children) implements Stmt {
    /** Copies the list. */
    public Other {
      children = List.copyOf(children);
    }
  }
}
