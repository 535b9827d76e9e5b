package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.UnionTypeTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.tools.javac.code.Attribute;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.tree.JCTree;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.MethodRef;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;

/**
 * Builds the frontend-neutral model from javac trees, with full type information: every type and
 * method symbol javac resolved is carried over.
 */
final class JavacModelBuilder {
  private final VisitorState state;
  private final JavacTypes types;
  private final Map<Expr.Call, Symbol.MethodSymbol> callSymbols;

  /**
   * Creates a builder.
   *
   * @param state the visitor state of any tree in the compilation unit
   * @param types makes type references
   * @param callSymbols receives the symbol of every call built, for the unit index
   */
  JavacModelBuilder(
      VisitorState state, JavacTypes types, Map<Expr.Call, Symbol.MethodSymbol> callSymbols) {
    this.state = state;
    this.types = types;
    this.callSymbols = callSymbols;
  }

  MethodModel method(MethodTree tree) {
    List<MethodModel.Param> params = new ArrayList<>();
    for (VariableTree param : tree.getParameters()) {
      params.add(new MethodModel.Param(param.getName().toString(), typeOf(param)));
    }
    List<TypeRef> thrown = new ArrayList<>();
    for (ExpressionTree t : tree.getThrows()) {
      thrown.add(types.of(ASTHelpers.getType(t)));
    }
    Symbol.MethodSymbol symbol = ASTHelpers.getSymbol(tree);
    return new MethodModel(
        span(tree),
        tree.getName().toString(),
        params,
        thrown,
        visibility(tree.getModifiers().getFlags()),
        symbol == null ? "" : ownerName(symbol),
        annotations(symbol),
        block(tree.getBody()));
  }

  /**
   * A synthetic method holding a class's field initialisers (as assignments to the fields) and its
   * initialiser blocks, in source order: code that runs outside any method but that rules must see
   * (an executor created in a field initialiser).
   */
  MethodModel initialisers(ClassTree tree) {
    List<Stmt> statements = new ArrayList<>();
    for (Tree member : tree.getMembers()) {
      if (member instanceof VariableTree field && field.getInitializer() != null) {
        Expr target =
            new Expr.Name(
                span(field), null, field.getName().toString(), Expr.NameKind.FIELD, typeOf(field));
        Expr init = expr(field.getInitializer());
        statements.add(
            new Stmt.ExprStmt(span(field), new Expr.Assign(span(field), target, "=", init)));
      } else if (member instanceof BlockTree block) {
        statements.add(block(block));
      }
    }
    Symbol.ClassSymbol symbol = ASTHelpers.getSymbol(tree);
    return new MethodModel(
        span(tree),
        MethodModel.INITIALISERS,
        List.of(),
        List.of(),
        MethodModel.Visibility.PRIVATE,
        symbol == null ? "" : symbol.getQualifiedName().toString(),
        List.of(),
        new Stmt.Block(span(tree), statements));
  }

  private static MethodModel.Visibility visibility(java.util.Set<Modifier> flags) {
    if (flags.contains(Modifier.PRIVATE)) {
      return MethodModel.Visibility.PRIVATE;
    }
    if (flags.contains(Modifier.PUBLIC)) {
      return MethodModel.Visibility.PUBLIC;
    }
    return flags.contains(Modifier.PROTECTED)
        ? MethodModel.Visibility.PROTECTED
        : MethodModel.Visibility.PACKAGE;
  }

  private static String ownerName(Symbol.MethodSymbol symbol) {
    return symbol.owner instanceof Symbol.ClassSymbol c ? c.getQualifiedName().toString() : "";
  }

  private static List<String> annotations(Symbol symbol) {
    if (symbol == null) {
      return List.of();
    }
    List<String> annotations = new ArrayList<>();
    for (Attribute.Compound a : symbol.getAnnotationMirrors()) {
      annotations.add(a.type.tsym.getQualifiedName().toString());
    }
    return annotations;
  }

  Span span(Tree tree) {
    if (tree == null) {
      return Span.NONE;
    }
    int start = ((JCTree) tree).getStartPosition();
    int end = state.getEndPosition(tree);
    return start < 0 || end < start ? Span.NONE : new Span(start, end);
  }

  Stmt.Block block(BlockTree tree) {
    List<Stmt> statements = new ArrayList<>();
    for (StatementTree s : tree.getStatements()) {
      statements.add(stmt(s));
    }
    return new Stmt.Block(span(tree), statements);
  }

  Stmt stmt(StatementTree tree) {
    return stmt(tree, null);
  }

  private Stmt stmt(StatementTree tree, String label) {
    switch (tree.getKind()) {
      case BLOCK -> {
        return block((BlockTree) tree);
      }
      case LABELED_STATEMENT -> {
        LabeledStatementTree labeled = (LabeledStatementTree) tree;
        Stmt inner = stmt(labeled.getStatement(), labeled.getLabel().toString());
        return inner instanceof Stmt.Loop
            ? inner
            : new Stmt.Other(span(tree), "labeled", List.of(inner));
      }
      case FOR_LOOP -> {
        ForLoopTree loop = (ForLoopTree) tree;
        List<Stmt> init = new ArrayList<>();
        for (StatementTree s : loop.getInitializer()) {
          init.add(stmt(s));
        }
        List<Expr> update = new ArrayList<>();
        for (ExpressionStatementTree s : loop.getUpdate()) {
          update.add(expr(s.getExpression()));
        }
        return new Stmt.Loop(
            span(tree),
            Stmt.LoopKind.FOR,
            label,
            init,
            loop.getCondition() == null ? null : expr(loop.getCondition()),
            update,
            null,
            null,
            stmt(loop.getStatement()));
      }
      case WHILE_LOOP -> {
        WhileLoopTree loop = (WhileLoopTree) tree;
        return conditionLoop(
            tree, Stmt.LoopKind.WHILE, label, loop.getCondition(), loop.getStatement());
      }
      case DO_WHILE_LOOP -> {
        DoWhileLoopTree loop = (DoWhileLoopTree) tree;
        return conditionLoop(
            tree, Stmt.LoopKind.DO_WHILE, label, loop.getCondition(), loop.getStatement());
      }
      case ENHANCED_FOR_LOOP -> {
        EnhancedForLoopTree loop = (EnhancedForLoopTree) tree;
        return new Stmt.Loop(
            span(tree),
            Stmt.LoopKind.FOR_EACH,
            label,
            List.of(),
            null,
            List.of(),
            localVar(loop.getVariable()),
            expr(loop.getExpression()),
            stmt(loop.getStatement()));
      }
      case TRY -> {
        return tryStmt((TryTree) tree);
      }
      case IF -> {
        IfTree s = (IfTree) tree;
        return new Stmt.If(
            span(tree),
            expr(s.getCondition()),
            stmt(s.getThenStatement()),
            s.getElseStatement() == null ? null : stmt(s.getElseStatement()));
      }
      case SWITCH -> {
        SwitchTree s = (SwitchTree) tree;
        List<Stmt.Block> cases = new ArrayList<>();
        for (CaseTree c : s.getCases()) {
          cases.add(caseBody(c));
        }
        return new Stmt.Switch(span(tree), expr(s.getExpression()), cases);
      }
      case RETURN -> {
        ReturnTree r = (ReturnTree) tree;
        return new Stmt.Return(
            span(tree), r.getExpression() == null ? null : expr(r.getExpression()));
      }
      case THROW -> {
        return new Stmt.Throw(span(tree), expr(((ThrowTree) tree).getExpression()));
      }
      case BREAK -> {
        var name = ((com.sun.source.tree.BreakTree) tree).getLabel();
        return new Stmt.Break(span(tree), name == null ? null : name.toString());
      }
      case CONTINUE -> {
        var name = ((com.sun.source.tree.ContinueTree) tree).getLabel();
        return new Stmt.Continue(span(tree), name == null ? null : name.toString());
      }
      case EXPRESSION_STATEMENT -> {
        return new Stmt.ExprStmt(
            span(tree), expr(((ExpressionStatementTree) tree).getExpression()));
      }
      case VARIABLE -> {
        return localVar((VariableTree) tree);
      }
      case SYNCHRONIZED -> {
        SynchronizedTree s = (SynchronizedTree) tree;
        return new Stmt.Other(
            span(tree), "synchronized", List.of(expr(s.getExpression()), block(s.getBlock())));
      }
      default -> {
        // Local classes, assert, yield, empty statements: their bodies are analysed on their own.
        return new Stmt.Other(span(tree), tree.getKind().toString(), List.of());
      }
    }
  }

  /** A {@code while} or {@code do}/{@code while} loop: a condition and a body, nothing else. */
  private Stmt.Loop conditionLoop(
      Tree tree, Stmt.LoopKind kind, String label, ExpressionTree condition, StatementTree body) {
    return new Stmt.Loop(
        span(tree), kind, label, List.of(), expr(condition), List.of(), null, null, stmt(body));
  }

  private Stmt.Block caseBody(CaseTree c) {
    List<Stmt> statements = new ArrayList<>();
    if (c.getStatements() != null) {
      for (StatementTree s : c.getStatements()) {
        statements.add(stmt(s));
      }
    } else if (c.getBody() instanceof StatementTree body) {
      statements.add(stmt(body));
    } else if (c.getBody() instanceof ExpressionTree body) {
      statements.add(new Stmt.ExprStmt(span(body), expr(body)));
    }
    return new Stmt.Block(span(c), statements);
  }

  private Stmt.Try tryStmt(TryTree tree) {
    List<Node> resources = new ArrayList<>();
    for (Tree r : tree.getResources()) {
      resources.add(r instanceof VariableTree v ? localVar(v) : expr((ExpressionTree) r));
    }
    List<Stmt.Catch> catches = new ArrayList<>();
    for (CatchTree c : tree.getCatches()) {
      VariableTree param = c.getParameter();
      Tree typeTree = param.getType();
      List<TypeRef> caught = new ArrayList<>();
      List<Span> spans = new ArrayList<>();
      if (typeTree instanceof UnionTypeTree union) {
        for (Tree alternative : union.getTypeAlternatives()) {
          caught.add(types.of(ASTHelpers.getType(alternative)));
          spans.add(span(alternative));
        }
      } else {
        caught.add(types.of(ASTHelpers.getType(typeTree)));
        spans.add(span(typeTree));
      }
      catches.add(
          new Stmt.Catch(
              span(c),
              caught,
              span(typeTree),
              spans,
              param.getName().toString(),
              block(c.getBlock())));
    }
    return new Stmt.Try(
        span(tree),
        resources,
        block(tree.getBlock()),
        catches,
        tree.getFinallyBlock() == null ? null : block(tree.getFinallyBlock()));
  }

  private Stmt.LocalVar localVar(VariableTree tree) {
    return new Stmt.LocalVar(
        span(tree),
        typeOf(tree),
        tree.getName().toString(),
        tree.getInitializer() == null ? null : expr(tree.getInitializer()));
  }

  private TypeRef typeOf(VariableTree tree) {
    Symbol symbol = ASTHelpers.getSymbol(tree);
    return types.of(symbol == null ? ASTHelpers.getType(tree.getType()) : symbol.type);
  }

  Expr expr(ExpressionTree tree) {
    switch (tree.getKind()) {
      case PARENTHESIZED -> {
        return expr(((ParenthesizedTree) tree).getExpression());
      }
      case TYPE_CAST -> {
        return expr(((TypeCastTree) tree).getExpression());
      }
      case METHOD_INVOCATION -> {
        return call((MethodInvocationTree) tree);
      }
      case NEW_CLASS -> {
        NewClassTree n = (NewClassTree) tree;
        List<Expr> args = new ArrayList<>();
        for (ExpressionTree a : n.getArguments()) {
          args.add(expr(a));
        }
        return new Expr.New(
            span(tree),
            types.of(ASTHelpers.getType(n.getIdentifier())),
            args,
            n.getClassBody() != null);
      }
      case LAMBDA_EXPRESSION -> {
        LambdaExpressionTree lambda = (LambdaExpressionTree) tree;
        List<String> params = new ArrayList<>();
        for (VariableTree p : lambda.getParameters()) {
          params.add(p.getName().toString());
        }
        Tree body = lambda.getBody();
        Stmt bodyStmt =
            body instanceof BlockTree b
                ? block(b)
                : new Stmt.ExprStmt(span(body), expr((ExpressionTree) body));
        return new Expr.Lambda(span(tree), params, bodyStmt);
      }
      case IDENTIFIER -> {
        IdentifierTree id = (IdentifierTree) tree;
        return new Expr.Name(
            span(tree),
            null,
            id.getName().toString(),
            kindOf(tree),
            types.of(ASTHelpers.getType(tree)));
      }
      case MEMBER_SELECT -> {
        MemberSelectTree select = (MemberSelectTree) tree;
        return new Expr.Name(
            span(tree),
            expr(select.getExpression()),
            select.getIdentifier().toString(),
            kindOf(tree),
            types.of(ASTHelpers.getType(tree)));
      }
      case INT_LITERAL,
          LONG_LITERAL,
          FLOAT_LITERAL,
          DOUBLE_LITERAL,
          BOOLEAN_LITERAL,
          CHAR_LITERAL,
          STRING_LITERAL,
          NULL_LITERAL -> {
        return new Expr.Literal(span(tree), ((LiteralTree) tree).getValue());
      }
      case ASSIGNMENT -> {
        AssignmentTree a = (AssignmentTree) tree;
        return new Expr.Assign(span(tree), expr(a.getVariable()), "=", expr(a.getExpression()));
      }
      case PREFIX_INCREMENT, POSTFIX_INCREMENT -> {
        return new Expr.Unary(span(tree), "++", expr(((UnaryTree) tree).getExpression()));
      }
      case PREFIX_DECREMENT, POSTFIX_DECREMENT -> {
        return new Expr.Unary(span(tree), "--", expr(((UnaryTree) tree).getExpression()));
      }
      case LOGICAL_COMPLEMENT -> {
        return new Expr.Unary(span(tree), "!", expr(((UnaryTree) tree).getExpression()));
      }
      case UNARY_MINUS -> {
        return new Expr.Unary(span(tree), "-", expr(((UnaryTree) tree).getExpression()));
      }
      case UNARY_PLUS -> {
        return new Expr.Unary(span(tree), "+", expr(((UnaryTree) tree).getExpression()));
      }
      case BITWISE_COMPLEMENT -> {
        return new Expr.Unary(span(tree), "~", expr(((UnaryTree) tree).getExpression()));
      }
      case INSTANCE_OF -> {
        InstanceOfTree test = (InstanceOfTree) tree;
        Tree type = test.getType();
        return new Expr.InstanceOf(
            span(tree),
            expr(test.getExpression()),
            types.of(type == null ? null : ASTHelpers.getType(type)));
      }
      case CONDITIONAL_EXPRESSION -> {
        ConditionalExpressionTree c = (ConditionalExpressionTree) tree;
        return new Expr.Conditional(
            span(tree),
            expr(c.getCondition()),
            expr(c.getTrueExpression()),
            expr(c.getFalseExpression()));
      }
      case ARRAY_ACCESS -> {
        var access = (com.sun.source.tree.ArrayAccessTree) tree;
        return new Expr.ArrayAccess(
            span(tree), expr(access.getExpression()), expr(access.getIndex()));
      }
      case NEW_ARRAY -> {
        NewArrayTree array = (NewArrayTree) tree;
        List<Node> children = new ArrayList<>();
        for (ExpressionTree d : array.getDimensions()) {
          children.add(expr(d));
        }
        if (array.getInitializers() != null) {
          for (ExpressionTree i : array.getInitializers()) {
            children.add(expr(i));
          }
        }
        return new Expr.Other(span(tree), "new array", children);
      }
      default -> {
        if (tree instanceof CompoundAssignmentTree a) {
          return new Expr.Assign(
              span(tree),
              expr(a.getVariable()),
              compoundOperator(tree.getKind()),
              expr(a.getExpression()));
        }
        if (tree instanceof BinaryTree b) {
          return new Expr.Binary(
              span(tree),
              binaryOperator(tree.getKind()),
              expr(b.getLeftOperand()),
              expr(b.getRightOperand()));
        }
        return new Expr.Other(span(tree), tree.getKind().toString(), List.of());
      }
    }
  }

  private Expr.Call call(MethodInvocationTree tree) {
    ExpressionTree select = tree.getMethodSelect();
    Expr receiver = null;
    String name;
    Span nameSpan;
    if (select instanceof MemberSelectTree member) {
      receiver = expr(member.getExpression());
      name = member.getIdentifier().toString();
      int end = state.getEndPosition(member);
      nameSpan = end < 0 ? Span.NONE : new Span(end - name.length(), end);
    } else {
      name = ((IdentifierTree) select).getName().toString();
      nameSpan = span(select);
    }
    List<Expr> args = new ArrayList<>();
    for (ExpressionTree a : tree.getArguments()) {
      args.add(expr(a));
    }
    Expr.Call call =
        new Expr.Call(
            span(tree),
            receiver,
            name,
            args,
            methodRef(tree, name),
            types.of(ASTHelpers.getType(tree)),
            nameSpan);
    Symbol.MethodSymbol symbol = ASTHelpers.getSymbol(tree);
    if (symbol != null) {
      callSymbols.put(call, symbol);
    }
    return call;
  }

  private MethodRef methodRef(MethodInvocationTree tree, String name) {
    Symbol.MethodSymbol symbol = ASTHelpers.getSymbol(tree);
    if (symbol == null) {
      return MethodRef.unresolved(name);
    }
    return MethodRef.resolved(
        types.of(symbol.owner.type),
        name,
        symbol.isStatic(),
        () -> {
          List<TypeRef> thrown = new ArrayList<>();
          for (Type t : symbol.getThrownTypes()) {
            thrown.add(types.of(t));
          }
          return thrown;
        },
        () -> annotations(symbol),
        () -> {
          List<String> names = new ArrayList<>();
          for (Symbol.VarSymbol p : symbol.getParameters()) {
            names.add(p.getSimpleName().toString());
          }
          return names;
        });
  }

  private static Expr.NameKind kindOf(Tree tree) {
    Symbol symbol = ASTHelpers.getSymbol(tree);
    if (symbol == null) {
      return Expr.NameKind.OTHER;
    }
    if (symbol.name.contentEquals("this") || symbol.name.contentEquals("super")) {
      return Expr.NameKind.OTHER;
    }
    ElementKind kind = symbol.getKind();
    return switch (kind) {
      case LOCAL_VARIABLE, EXCEPTION_PARAMETER, RESOURCE_VARIABLE, BINDING_VARIABLE ->
          Expr.NameKind.LOCAL;
      case PARAMETER -> Expr.NameKind.PARAMETER;
      case FIELD, ENUM_CONSTANT -> Expr.NameKind.FIELD;
      default -> symbol instanceof Symbol.TypeSymbol ? Expr.NameKind.TYPE : Expr.NameKind.OTHER;
    };
  }

  private static String compoundOperator(Tree.Kind kind) {
    return switch (kind) {
      case PLUS_ASSIGNMENT -> "+=";
      case MINUS_ASSIGNMENT -> "-=";
      case MULTIPLY_ASSIGNMENT -> "*=";
      case DIVIDE_ASSIGNMENT -> "/=";
      case REMAINDER_ASSIGNMENT -> "%=";
      case LEFT_SHIFT_ASSIGNMENT -> "<<=";
      case RIGHT_SHIFT_ASSIGNMENT -> ">>=";
      case UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> ">>>=";
      case AND_ASSIGNMENT -> "&=";
      case OR_ASSIGNMENT -> "|=";
      case XOR_ASSIGNMENT -> "^=";
      default -> kind.toString();
    };
  }

  private static String binaryOperator(Tree.Kind kind) {
    return switch (kind) {
      case PLUS -> "+";
      case MINUS -> "-";
      case MULTIPLY -> "*";
      case DIVIDE -> "/";
      case REMAINDER -> "%";
      case LEFT_SHIFT -> "<<";
      case RIGHT_SHIFT -> ">>";
      case UNSIGNED_RIGHT_SHIFT -> ">>>";
      case LESS_THAN -> "<";
      case GREATER_THAN -> ">";
      case LESS_THAN_EQUAL -> "<=";
      case GREATER_THAN_EQUAL -> ">=";
      case EQUAL_TO -> "==";
      case NOT_EQUAL_TO -> "!=";
      case AND -> "&";
      case XOR -> "^";
      case OR -> "|";
      case CONDITIONAL_AND -> "&&";
      case CONDITIONAL_OR -> "||";
      default -> kind.toString();
    };
  }
}
