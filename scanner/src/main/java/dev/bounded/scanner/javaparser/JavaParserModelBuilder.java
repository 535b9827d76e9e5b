package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayAccessExpr;
import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.CharLiteralExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.DoubleLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.InstanceOfExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.PatternExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.SuperExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.TypePatternExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ExplicitConstructorInvocationStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.LabeledStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.SwitchStmt;
import com.github.javaparser.ast.stmt.SynchronizedStmt;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.type.ReferenceType;
import com.github.javaparser.ast.type.Type;
import com.github.javaparser.ast.type.UnionType;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.MethodRef;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the frontend-neutral model from a javaparser AST, without a class path: names are resolved
 * through the method's locals, the enclosing classes' fields and methods (the scanned files'
 * declarations), the imports and the table of JDK and library types. Reads side by side with {@code
 * JavacModelBuilder}: one place per node kind. What needs a type the scanner cannot know is {@link
 * TypeRef#unknown()}.
 *
 * <p>One builder per analysed method (its class context); not thread-safe.
 */
final class JavaParserModelBuilder {
  private final SourceFile file;
  private final FileScope scope;
  private final ScannerTypes types;
  private final ClassContext context;
  private final Set<String> idempotentMethods;
  private final Map<Expr.Call, ScannerTypes.Resolved> calls;
  private final Map<Expr.Call, CallableDeclaration<?>> anonymousCalls;
  private final Deque<Map<String, Local>> locals = new ArrayDeque<>();

  /** A local variable or parameter in scope. */
  private record Local(Expr.NameKind kind, TypeRef type) {}

  JavaParserModelBuilder(
      SourceFile file,
      FileScope scope,
      ScannerTypes types,
      ClassContext context,
      Set<String> idempotentMethods,
      Map<Expr.Call, ScannerTypes.Resolved> calls,
      Map<Expr.Call, CallableDeclaration<?>> anonymousCalls) {
    this.file = file;
    this.scope = scope;
    this.types = types;
    this.context = context;
    this.idempotentMethods = idempotentMethods;
    this.calls = calls;
    this.anonymousCalls = anonymousCalls;
  }

  MethodModel method(CallableDeclaration<?> tree, BlockStmt body) {
    locals.clear();
    Map<String, Local> paramScope = new HashMap<>();
    locals.push(paramScope);
    List<MethodModel.Param> params = new ArrayList<>();
    for (Parameter param : tree.getParameters()) {
      TypeRef type = typeOf(param.getType(), param.isVarArgs());
      params.add(new MethodModel.Param(param.getNameAsString(), type));
      paramScope.put(param.getNameAsString(), new Local(Expr.NameKind.PARAMETER, type));
    }
    List<TypeRef> thrown = new ArrayList<>();
    for (ReferenceType t : tree.getThrownExceptions()) {
      thrown.add(typeOf(t, false));
    }
    String name = tree instanceof ConstructorDeclaration ? "<init>" : tree.getNameAsString();
    return new MethodModel(
        span(tree),
        name,
        params,
        thrown,
        visibility(tree),
        context.ownerName(),
        annotations(tree.getAnnotations()),
        block(body));
  }

  /**
   * A synthetic method holding a class's field initialisers (as assignments to the fields) and its
   * initialiser blocks, in source order, as the compiler frontend builds it.
   */
  MethodModel initialisers(Node tree, NodeList<BodyDeclaration<?>> members) {
    locals.clear();
    List<Stmt> statements = new ArrayList<>();
    for (BodyDeclaration<?> member : members) {
      if (member instanceof FieldDeclaration field) {
        for (VariableDeclarator v : field.getVariables()) {
          if (v.getInitializer().isEmpty()) {
            continue;
          }
          Span s = field.getVariables().size() == 1 ? span(field) : span(v);
          Expr target =
              new Expr.Name(
                  s, null, v.getNameAsString(), Expr.NameKind.FIELD, typeOf(v.getType(), false));
          Expr init = expr(v.getInitializer().get());
          statements.add(new Stmt.ExprStmt(s, new Expr.Assign(s, target, "=", init)));
        }
      } else if (member instanceof InitializerDeclaration block) {
        statements.add(block(block.getBody()));
      }
    }
    return new MethodModel(
        span(tree),
        MethodModel.INITIALISERS,
        List.of(),
        List.of(),
        MethodModel.Visibility.PRIVATE,
        context.ownerName(),
        List.of(),
        new Stmt.Block(span(tree), statements));
  }

  private static MethodModel.Visibility visibility(CallableDeclaration<?> tree) {
    if (tree.isPrivate()) {
      return MethodModel.Visibility.PRIVATE;
    }
    if (tree.isPublic()) {
      return MethodModel.Visibility.PUBLIC;
    }
    return tree.isProtected() ? MethodModel.Visibility.PROTECTED : MethodModel.Visibility.PACKAGE;
  }

  /** Annotations by qualified name where they resolve, else as written. */
  private List<String> annotations(NodeList<AnnotationExpr> annotations) {
    List<String> names = new ArrayList<>();
    for (AnnotationExpr a : annotations) {
      String written = a.getNameAsString();
      String resolved = context.resolveTypeName(written);
      names.add(resolved == null ? written : resolved);
    }
    return names;
  }

  Span span(Node tree) {
    return tree == null ? Span.NONE : file.span(tree.getRange().orElse(null));
  }

  Stmt.Block block(BlockStmt tree) {
    locals.push(new HashMap<>());
    List<Stmt> statements = new ArrayList<>();
    for (Statement s : tree.getStatements()) {
      statements.addAll(stmts(s));
    }
    locals.pop();
    return new Stmt.Block(span(tree), statements);
  }

  /** A statement; a declaration of several variables becomes one local per variable, as javac. */
  private List<Stmt> stmts(Statement tree) {
    if (tree instanceof ExpressionStmt e
        && e.getExpression() instanceof VariableDeclarationExpr v) {
      return localVars(v, e);
    }
    return List.of(stmt(tree));
  }

  Stmt stmt(Statement tree) {
    return stmt(tree, null);
  }

  private Stmt stmt(Statement tree, String label) {
    if (tree instanceof BlockStmt b) {
      return block(b);
    }
    if (tree instanceof LabeledStmt labeled) {
      Stmt inner = stmt(labeled.getStatement(), labeled.getLabel().asString());
      return inner instanceof Stmt.Loop
          ? inner
          : new Stmt.Other(span(tree), "labeled", List.of(inner));
    }
    if (tree instanceof ForStmt loop) {
      locals.push(new HashMap<>());
      List<Stmt> init = new ArrayList<>();
      for (Expression e : loop.getInitialization()) {
        if (e instanceof VariableDeclarationExpr v) {
          init.addAll(localVars(v, v));
        } else {
          init.add(new Stmt.ExprStmt(span(e), expr(e)));
        }
      }
      Expr condition = loop.getCompare().map(this::expr).orElse(null);
      List<Expr> update = new ArrayList<>();
      for (Expression e : loop.getUpdate()) {
        update.add(expr(e));
      }
      Stmt body = stmt(loop.getBody());
      locals.pop();
      return new Stmt.Loop(
          span(tree), Stmt.LoopKind.FOR, label, init, condition, update, null, null, body);
    }
    if (tree instanceof WhileStmt loop) {
      return conditionLoop(tree, Stmt.LoopKind.WHILE, label, loop.getCondition(), loop.getBody());
    }
    if (tree instanceof DoStmt loop) {
      return conditionLoop(
          tree, Stmt.LoopKind.DO_WHILE, label, loop.getCondition(), loop.getBody());
    }
    if (tree instanceof ForEachStmt loop) {
      Expr iterable = expr(loop.getIterable());
      locals.push(new HashMap<>());
      List<Stmt> variable = localVars(loop.getVariable(), loop.getVariable());
      Stmt body = stmt(loop.getBody());
      locals.pop();
      return new Stmt.Loop(
          span(tree),
          Stmt.LoopKind.FOR_EACH,
          label,
          List.of(),
          null,
          List.of(),
          (Stmt.LocalVar) variable.get(0),
          iterable,
          body);
    }
    if (tree instanceof TryStmt t) {
      return tryStmt(t);
    }
    if (tree instanceof IfStmt s) {
      return new Stmt.If(
          span(tree),
          expr(s.getCondition()),
          stmt(s.getThenStmt()),
          s.getElseStmt().map(this::stmt).orElse(null));
    }
    if (tree instanceof SwitchStmt s) {
      Expr selector = expr(s.getSelector());
      locals.push(new HashMap<>());
      List<Stmt.Block> cases = new ArrayList<>();
      for (SwitchEntry c : s.getEntries()) {
        cases.add(caseBody(c));
      }
      locals.pop();
      return new Stmt.Switch(span(tree), selector, cases);
    }
    if (tree instanceof ReturnStmt r) {
      return new Stmt.Return(span(tree), r.getExpression().map(this::expr).orElse(null));
    }
    if (tree instanceof ThrowStmt t) {
      return new Stmt.Throw(span(tree), expr(t.getExpression()));
    }
    if (tree instanceof BreakStmt b) {
      return new Stmt.Break(span(tree), b.getLabel().map(l -> l.asString()).orElse(null));
    }
    if (tree instanceof ContinueStmt c) {
      return new Stmt.Continue(span(tree), c.getLabel().map(l -> l.asString()).orElse(null));
    }
    if (tree instanceof ExpressionStmt e) {
      if (e.getExpression() instanceof VariableDeclarationExpr v) {
        return localVars(v, e).get(0);
      }
      return new Stmt.ExprStmt(span(tree), expr(e.getExpression()));
    }
    if (tree instanceof SynchronizedStmt s) {
      return new Stmt.Other(
          span(tree), "synchronized", List.of(expr(s.getExpression()), block(s.getBody())));
    }
    if (tree instanceof ExplicitConstructorInvocationStmt c) {
      // javac: an expression statement calling this(...) or super(...).
      List<Expr> args = new ArrayList<>();
      for (Expression a : c.getArguments()) {
        args.add(expr(a));
      }
      String name = c.isThis() ? "this" : "super";
      Expr receiver = c.getExpression().map(this::expr).orElse(null);
      return new Stmt.ExprStmt(
          span(tree),
          new Expr.Call(
              span(tree),
              receiver,
              name,
              args,
              MethodRef.unresolved(name),
              TypeRef.unknown(),
              Span.NONE));
    }
    // Local classes, assert, yield, empty statements: their bodies are analysed on their own.
    return new Stmt.Other(span(tree), otherKind(tree), List.of());
  }

  /** A {@code while} or {@code do}/{@code while} loop: a condition and a body, nothing else. */
  private Stmt.Loop conditionLoop(
      Statement tree, Stmt.LoopKind kind, String label, Expression condition, Statement body) {
    Expr c = expr(condition);
    Stmt b = stmt(body);
    return new Stmt.Loop(span(tree), kind, label, List.of(), c, List.of(), null, null, b);
  }

  private Stmt.Block caseBody(SwitchEntry c) {
    List<Stmt> statements = new ArrayList<>();
    for (Statement s : c.getStatements()) {
      if (c.getType() == SwitchEntry.Type.EXPRESSION && s instanceof ExpressionStmt e) {
        statements.add(new Stmt.ExprStmt(span(e.getExpression()), expr(e.getExpression())));
      } else {
        statements.addAll(stmts(s));
      }
    }
    return new Stmt.Block(span(c), statements);
  }

  private Stmt.Try tryStmt(TryStmt tree) {
    locals.push(new HashMap<>());
    List<dev.bounded.checks.model.Node> resources = new ArrayList<>();
    for (Expression r : tree.getResources()) {
      if (r instanceof VariableDeclarationExpr v) {
        resources.addAll(localVars(v, v));
      } else {
        resources.add(expr(r));
      }
    }
    Stmt.Block body = block(tree.getTryBlock());
    locals.pop();
    List<Stmt.Catch> catches = new ArrayList<>();
    for (CatchClause c : tree.getCatchClauses()) {
      Parameter param = c.getParameter();
      Type typeTree = param.getType();
      List<TypeRef> caught = new ArrayList<>();
      List<Span> spans = new ArrayList<>();
      if (typeTree instanceof UnionType union) {
        for (ReferenceType alternative : union.getElements()) {
          caught.add(typeOf(alternative, false));
          spans.add(span(alternative));
        }
      } else {
        caught.add(typeOf(typeTree, false));
        spans.add(span(typeTree));
      }
      Map<String, Local> clauseScope = new HashMap<>();
      clauseScope.put(
          param.getNameAsString(),
          new Local(Expr.NameKind.LOCAL, caught.size() == 1 ? caught.get(0) : TypeRef.unknown()));
      locals.push(clauseScope);
      Stmt.Block handler = block(c.getBody());
      locals.pop();
      catches.add(
          new Stmt.Catch(span(c), caught, span(typeTree), spans, param.getNameAsString(), handler));
    }
    return new Stmt.Try(
        span(tree), resources, body, catches, tree.getFinallyBlock().map(this::block).orElse(null));
  }

  /**
   * The locals of one declaration. javac gives each variable its own statement; the first one's
   * span starts at the declaration (modifiers and type), the last one's ends with the statement.
   */
  private List<Stmt> localVars(VariableDeclarationExpr tree, Node statement) {
    List<Stmt> vars = new ArrayList<>();
    List<VariableDeclarator> declarators = tree.getVariables();
    Span whole = span(statement);
    for (int i = 0; i < declarators.size(); i++) {
      VariableDeclarator v = declarators.get(i);
      Expr init = v.getInitializer().map(this::expr).orElse(null);
      TypeRef type =
          v.getType().isVarType()
              ? (init == null ? TypeRef.unknown() : init.type())
              : typeOf(v.getType(), false);
      declare(v.getNameAsString(), Expr.NameKind.LOCAL, type);
      Span s = whole;
      if (declarators.size() > 1 && whole.isKnown()) {
        Span own = span(v);
        int start = i == 0 ? whole.start() : own.start();
        int end = i == declarators.size() - 1 ? whole.end() : own.end();
        s = own.isKnown() ? new Span(start, end) : whole;
      }
      vars.add(new Stmt.LocalVar(s, type, v.getNameAsString(), init));
    }
    return vars;
  }

  private void declare(String name, Expr.NameKind kind, TypeRef type) {
    if (locals.isEmpty()) {
      locals.push(new HashMap<>());
    }
    locals.peek().put(name, new Local(kind, type));
  }

  private Local local(String name) {
    for (Map<String, Local> s : locals) {
      Local l = s.get(name);
      if (l != null) {
        return l;
      }
    }
    return null;
  }

  private TypeRef typeOf(Type type, boolean varargs) {
    String name = context.resolveType(type);
    if (name != null && varargs) {
      name = name + "[]";
    }
    return types.of(name);
  }

  Expr expr(Expression tree) {
    if (tree instanceof EnclosedExpr e) {
      return expr(e.getInner());
    }
    if (tree instanceof CastExpr c) {
      return expr(c.getExpression());
    }
    if (tree instanceof MethodCallExpr call) {
      return call(call);
    }
    if (tree instanceof ObjectCreationExpr n) {
      List<Expr> args = new ArrayList<>();
      for (Expression a : n.getArguments()) {
        args.add(expr(a));
      }
      return new Expr.New(
          span(tree), typeOf(n.getType(), false), args, n.getAnonymousClassBody().isPresent());
    }
    if (tree instanceof LambdaExpr lambda) {
      Map<String, Local> lambdaScope = new HashMap<>();
      List<String> params = new ArrayList<>();
      for (Parameter p : lambda.getParameters()) {
        params.add(p.getNameAsString());
        TypeRef type = p.getType().isUnknownType() ? TypeRef.unknown() : typeOf(p.getType(), false);
        lambdaScope.put(p.getNameAsString(), new Local(Expr.NameKind.PARAMETER, type));
      }
      locals.push(lambdaScope);
      Statement body = lambda.getBody();
      Stmt bodyStmt =
          body instanceof ExpressionStmt e
              ? new Stmt.ExprStmt(span(e.getExpression()), expr(e.getExpression()))
              : stmt(body);
      locals.pop();
      return new Expr.Lambda(span(tree), params, bodyStmt);
    }
    if (tree instanceof NameExpr id) {
      return name(id);
    }
    if (tree instanceof FieldAccessExpr select) {
      return fieldAccess(select);
    }
    if (tree instanceof ThisExpr t) {
      Expr qualifier = t.getTypeName().map(n -> typeName(t, n.asString())).orElse(null);
      String type =
          t.getTypeName().isPresent()
              ? context.resolveTypeName(t.getTypeName().get().asString())
              : context.thisType();
      return new Expr.Name(span(tree), qualifier, "this", Expr.NameKind.OTHER, types.of(type));
    }
    if (tree instanceof SuperExpr s) {
      Expr qualifier = s.getTypeName().map(n -> typeName(s, n.asString())).orElse(null);
      return new Expr.Name(
          span(tree), qualifier, "super", Expr.NameKind.OTHER, types.of(context.superType()));
    }
    if (tree instanceof IntegerLiteralExpr i) {
      return new Expr.Literal(span(tree), literal(i));
    }
    if (tree instanceof LongLiteralExpr l) {
      return new Expr.Literal(span(tree), literal(l));
    }
    if (tree instanceof DoubleLiteralExpr d) {
      String text = d.getValue();
      Object value =
          text.endsWith("f") || text.endsWith("F")
              ? (Object) Float.valueOf((float) d.asDouble())
              : (Object) d.asDouble();
      return new Expr.Literal(span(tree), value);
    }
    if (tree instanceof BooleanLiteralExpr b) {
      return new Expr.Literal(span(tree), b.getValue());
    }
    if (tree instanceof CharLiteralExpr c) {
      return new Expr.Literal(span(tree), c.asChar());
    }
    if (tree instanceof StringLiteralExpr s) {
      return new Expr.Literal(span(tree), s.asString());
    }
    if (tree instanceof TextBlockLiteralExpr s) {
      return new Expr.Literal(span(tree), s.asString());
    }
    if (tree instanceof NullLiteralExpr) {
      return new Expr.Literal(span(tree), null);
    }
    if (tree instanceof AssignExpr a) {
      return new Expr.Assign(
          span(tree), expr(a.getTarget()), a.getOperator().asString(), expr(a.getValue()));
    }
    if (tree instanceof UnaryExpr u) {
      String operator =
          switch (u.getOperator()) {
            case PREFIX_INCREMENT, POSTFIX_INCREMENT -> "++";
            case PREFIX_DECREMENT, POSTFIX_DECREMENT -> "--";
            default -> u.getOperator().asString();
          };
      return new Expr.Unary(span(tree), operator, expr(u.getExpression()));
    }
    if (tree instanceof BinaryExpr b) {
      return new Expr.Binary(
          span(tree), b.getOperator().asString(), expr(b.getLeft()), expr(b.getRight()));
    }
    if (tree instanceof InstanceOfExpr test) {
      Expr tested = expr(test.getExpression());
      TypeRef type = typeOf(test.getType(), false);
      test.getPattern().ifPresent(p -> declarePattern(p));
      return new Expr.InstanceOf(span(tree), tested, type);
    }
    if (tree instanceof ConditionalExpr c) {
      return new Expr.Conditional(
          span(tree), expr(c.getCondition()), expr(c.getThenExpr()), expr(c.getElseExpr()));
    }
    if (tree instanceof ArrayAccessExpr access) {
      return new Expr.ArrayAccess(span(tree), expr(access.getName()), expr(access.getIndex()));
    }
    if (tree instanceof ArrayCreationExpr array) {
      List<dev.bounded.checks.model.Node> children = new ArrayList<>();
      array.getLevels().forEach(l -> l.getDimension().ifPresent(d -> children.add(expr(d))));
      array
          .getInitializer()
          .ifPresent(init -> init.getValues().forEach(v -> children.add(expr(v))));
      return new Expr.Other(span(tree), "new array", children);
    }
    if (tree instanceof ArrayInitializerExpr init) {
      List<dev.bounded.checks.model.Node> children = new ArrayList<>();
      init.getValues().forEach(v -> children.add(expr(v)));
      return new Expr.Other(span(tree), "new array", children);
    }
    if (tree instanceof ClassExpr c) {
      return new Expr.Name(
          span(tree),
          new Expr.Name(
              span(c.getType()),
              null,
              c.getType().asString(),
              Expr.NameKind.TYPE,
              typeOf(c.getType(), false)),
          "class",
          Expr.NameKind.OTHER,
          types.of("java.lang.Class"));
    }
    // Method references, switch expressions: not described further (as javac's default).
    return new Expr.Other(span(tree), otherKind(tree), List.of());
  }

  private void declarePattern(PatternExpr pattern) {
    if (pattern instanceof TypePatternExpr t) {
      declare(t.getNameAsString(), Expr.NameKind.LOCAL, typeOf(t.getType(), false));
    }
  }

  private static Object literal(IntegerLiteralExpr i) {
    try {
      return i.asNumber();
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Object literal(LongLiteralExpr l) {
    try {
      return l.asNumber().longValue();
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** An unqualified name: a local, a parameter, a field, a type, or (unknown) a field. */
  private Expr.Name name(NameExpr id) {
    String name = id.getNameAsString();
    Local l = local(name);
    if (l != null) {
      return new Expr.Name(span(id), null, name, l.kind(), l.type());
    }
    ScannerTypes.Field field = context.field(name);
    if (field != null) {
      return new Expr.Name(
          span(id),
          null,
          name,
          Expr.NameKind.FIELD,
          types.resolveIn(field.owner(), field.field().type()));
    }
    for (String owner : scope.staticOwners(name)) {
      ScannerTypes.Field imported = types.field(owner, name);
      if (imported != null) {
        return new Expr.Name(
            span(id),
            null,
            name,
            Expr.NameKind.FIELD,
            types.resolveIn(imported.owner(), imported.field().type()));
      }
      if (types.isEnum(owner)) {
        return new Expr.Name(span(id), null, name, Expr.NameKind.FIELD, types.of(owner));
      }
    }
    String type = context.resolveTypeName(name);
    if (type != null) {
      return new Expr.Name(span(id), null, name, Expr.NameKind.TYPE, types.of(type));
    }
    if (looksLikeType(name)) {
      return new Expr.Name(span(id), null, name, Expr.NameKind.TYPE, TypeRef.unknown());
    }
    // Not a local and not a type: a field the scanner cannot see (inherited from a library).
    return new Expr.Name(span(id), null, name, Expr.NameKind.FIELD, TypeRef.unknown());
  }

  private Expr.Name typeName(Node node, String written) {
    String type = context.resolveTypeName(written);
    return new Expr.Name(span(node), null, written, Expr.NameKind.TYPE, types.of(type));
  }

  /** {@code a.b}: a qualified type, a static or instance field, or an array's length. */
  private Expr fieldAccess(FieldAccessExpr select) {
    String member = select.getNameAsString();
    String dotted = dottedName(select);
    if (dotted != null && !isVariable(dotted.substring(0, dotted.indexOf('.')))) {
      String type = context.resolveTypeName(dotted);
      if (type != null && types.exists(type)) {
        return new Expr.Name(
            span(select), qualifier(select), member, Expr.NameKind.TYPE, types.of(type));
      }
    }
    Expr qualifier = expr(select.getScope());
    TypeRef type = TypeRef.unknown();
    Expr.NameKind kind = Expr.NameKind.FIELD;
    if (qualifier instanceof Expr.Name q && q.kind() == Expr.NameKind.OTHER && isPackage(q)) {
      // A package name, then a type of it: known by name only.
      boolean isType = Character.isUpperCase(member.charAt(0));
      return new Expr.Name(
          span(select),
          qualifier,
          member,
          isType ? Expr.NameKind.TYPE : Expr.NameKind.OTHER,
          isType ? types.of(dotted) : TypeRef.unknown());
    }
    TypeRef qualifierType = qualifier.type();
    if (qualifierType.isKnown()) {
      if (member.equals("length") && qualifierType.name().endsWith("[]")) {
        type = types.of("int");
      } else {
        ScannerTypes.Field field = types.field(qualifierType.name(), member);
        if (field != null) {
          type = types.resolveIn(field.owner(), field.field().type());
        } else if (qualifier instanceof Expr.Name q
            && q.kind() == Expr.NameKind.TYPE
            && types.isEnum(qualifierType.name())) {
          type = qualifierType;
        } else if (qualifier instanceof Expr.Name q && q.kind() == Expr.NameKind.TYPE) {
          String nested = types.memberType(qualifierType.name(), member);
          if (nested != null) {
            return new Expr.Name(
                span(select), qualifier, member, Expr.NameKind.TYPE, types.of(nested));
          }
        }
      }
    }
    return new Expr.Name(span(select), qualifier, member, kind, type);
  }

  /** The qualifier of a dotted type name, as names: {@code java.util} of {@code java.util.List}. */
  private Expr qualifier(FieldAccessExpr select) {
    Expression scopeExpr = select.getScope();
    if (scopeExpr instanceof NameExpr n) {
      String resolved = context.resolveTypeName(n.getNameAsString());
      return new Expr.Name(
          span(n),
          null,
          n.getNameAsString(),
          resolved != null ? Expr.NameKind.TYPE : Expr.NameKind.OTHER,
          types.of(resolved));
    }
    FieldAccessExpr inner = (FieldAccessExpr) scopeExpr;
    String dotted = dottedName(inner);
    String resolved = dotted == null ? null : context.resolveTypeName(dotted);
    boolean isType = resolved != null && types.exists(resolved);
    return new Expr.Name(
        span(inner),
        qualifier(inner),
        inner.getNameAsString(),
        isType ? Expr.NameKind.TYPE : Expr.NameKind.OTHER,
        isType ? types.of(resolved) : TypeRef.unknown());
  }

  private static boolean isPackage(Expr.Name name) {
    return !name.type().isKnown()
        && !name.name().isEmpty()
        && Character.isLowerCase(name.name().charAt(0));
  }

  private boolean isVariable(String name) {
    return local(name) != null || context.field(name) != null;
  }

  /** {@code a.b.c} when every part is an identifier, else {@code null}. */
  private static String dottedName(Expression e) {
    if (e instanceof NameExpr n) {
      return n.getNameAsString();
    }
    if (e instanceof FieldAccessExpr f) {
      String scopeName = dottedName(f.getScope());
      return scopeName == null ? null : scopeName + "." + f.getNameAsString();
    }
    return null;
  }

  private static boolean looksLikeType(String name) {
    if (!Character.isUpperCase(name.charAt(0))) {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      if (Character.isLowerCase(name.charAt(i))) {
        return true; // CamelCase; ALL_CAPS is a constant
      }
    }
    return name.length() == 1;
  }

  private Expr.Call call(MethodCallExpr tree) {
    Expr receiver = tree.getScope().map(this::expr).orElse(null);
    String name = tree.getNameAsString();
    Span nameSpan = span(tree.getName());
    List<Expr> args = new ArrayList<>();
    for (Expression a : tree.getArguments()) {
      args.add(expr(a));
    }
    List<TypeRef> argTypes = new ArrayList<>();
    for (Expr a : args) {
      argTypes.add(a.type());
    }
    String owner = null;
    ScannerTypes.Resolved resolved = null;
    if (receiver == null) {
      for (String type : context.lookupTypes()) {
        resolved = types.method(type, name, argTypes);
        if (resolved != null) {
          owner = type;
          break;
        }
      }
      if (resolved == null) {
        for (String type : scope.staticOwners(name)) {
          resolved = types.method(type, name, argTypes);
          if (resolved != null) {
            owner = type;
            break;
          }
        }
      }
    } else if (receiver.type().isKnown()) {
      owner = receiver.type().name();
      resolved = types.method(owner, name, argTypes);
    }
    MethodRef method = resolved == null ? null : resolved.ref();
    TypeRef result = method == null ? TypeRef.unknown() : types.result(owner, name, args.size());
    Expr.Call call =
        new Expr.Call(
            span(tree), receiver, name, args, configured(method, owner, name), result, nameSpan);
    if (resolved != null && resolved.decl() != null) {
      calls.put(call, resolved);
    }
    if (receiver == null || (receiver instanceof Expr.Name self && self.name().equals("this"))) {
      CallableDeclaration<?> own = anonymousMember(name, args.size());
      if (own != null) {
        anonymousCalls.put(call, own);
      }
    }
    return call;
  }

  /**
   * The method of that name and arity that the innermost class declares when it is anonymous (which
   * the declaration index leaves out), if exactly one; otherwise {@code null}.
   */
  private CallableDeclaration<?> anonymousMember(String name, int arity) {
    if (!context.ownerName().isEmpty() || context.members() == null) {
      return null;
    }
    CallableDeclaration<?> found = null;
    for (BodyDeclaration<?> member : context.members()) {
      if (member instanceof MethodDeclaration m
          && m.getNameAsString().equals(name)
          && m.getParameters().size() == arity
          && m.getBody().isPresent()) {
        if (found != null) {
          return null;
        }
        found = m;
      }
    }
    return found;
  }

  /** Adds {@code @Idempotent} to a method the settings declare idempotent. */
  private MethodRef configured(MethodRef method, String owner, String name) {
    if (idempotentMethods.isEmpty() || owner == null) {
      return method == null ? MethodRef.unresolved(name) : method;
    }
    TypeRef ownerType = method == null ? types.of(owner) : method.owner();
    boolean idempotent = false;
    for (String configured : idempotentMethods) {
      int hash = configured.indexOf('#');
      if (configured.substring(hash + 1).equals(name)
          && (types.of(owner).isSubtypeOf(configured.substring(0, hash))
              || ownerType.isSubtypeOf(configured.substring(0, hash)))) {
        idempotent = true;
      }
    }
    if (!idempotent) {
      return method == null ? MethodRef.unresolved(name) : method;
    }
    MethodRef base = method;
    return MethodRef.resolved(
        ownerType,
        name,
        base != null && base.isStatic(),
        () -> base == null ? List.of() : base.thrown(),
        () -> {
          List<String> annotations = new ArrayList<>(base == null ? List.of() : base.annotations());
          annotations.add("dev.bounded.runtime.Idempotent");
          return annotations;
        });
  }

  private static String otherKind(Node tree) {
    return tree.getClass().getSimpleName();
  }

  /** Whether a callable has a body to analyse. */
  static BlockStmt bodyOf(CallableDeclaration<?> callable) {
    if (callable instanceof MethodDeclaration m) {
      return m.getBody().orElse(null);
    }
    if (callable instanceof ConstructorDeclaration c) {
      return c.getBody();
    }
    return null;
  }
}
