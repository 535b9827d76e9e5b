package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.stmt.BlockStmt;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The unit index of one scanned file, as the compiler frontend's is of one compilation unit: every
 * method's model, built on first use and once, and the declaration in the file of the method a call
 * invokes. Facts from other files reach the model through the {@link DeclarationIndex} (a call's
 * thrown types, annotations and parameter names). Mirrors {@code JavacUnitIndex}. Not thread-safe:
 * one file is analysed by one thread.
 */
final class JavaParserUnitIndex implements UnitIndex {
  private final SourceFile file;
  private final CompilationUnit unit;
  private final FileScope scope;
  private final ScannerTypes types;
  private final Set<String> idempotentMethods;
  private final Predicate<String> hasType;
  private final ScannedProject project;
  private final IdentityHashMap<Expr.Call, ScannerTypes.Resolved> calls = new IdentityHashMap<>();
  private final IdentityHashMap<Expr.Call, CallableDeclaration<?>> anonymousCalls =
      new IdentityHashMap<>();
  private final IdentityHashMap<Node, MethodModel> models = new IdentityHashMap<>();
  private final IdentityHashMap<MethodModel, ClassContext> contextOf = new IdentityHashMap<>();
  private final Map<Class<?>, Object> memos = new HashMap<>();
  private Map<String, CallableDeclaration<?>> byKey;
  private List<MethodModel> methods;

  JavaParserUnitIndex(
      SourceFile file,
      CompilationUnit unit,
      FileScope scope,
      ScannerTypes types,
      Set<String> idempotentMethods,
      Predicate<String> hasType,
      ScannedProject project) {
    this.file = file;
    this.project = project;
    this.unit = unit;
    this.scope = scope;
    this.types = types;
    this.idempotentMethods = idempotentMethods;
    this.hasType = hasType;
  }

  /** The model of a method of this file, built once. */
  MethodModel model(CallableDeclaration<?> callable) {
    MethodModel model = models.get(callable);
    if (model == null) {
      ClassContext context = ClassContext.of(callable, scope, types);
      model = builder(context).method(callable, JavaParserModelBuilder.bodyOf(callable));
      models.put(callable, model);
      contextOf.put(model, context);
      project.built(model, this);
    }
    return model;
  }

  /** The synthetic method of a class's field initialisers and initialiser blocks, built once. */
  MethodModel initialisers(Node classNode, NodeList<BodyDeclaration<?>> members) {
    MethodModel model = models.get(classNode);
    if (model == null) {
      ClassContext context = ClassContext.of(classNode, scope, types);
      model = builder(context).initialisers(classNode, members);
      models.put(classNode, model);
      contextOf.put(model, context);
      project.built(model, this);
    }
    return model;
  }

  private JavaParserModelBuilder builder(ClassContext context) {
    return new JavaParserModelBuilder(
        file, scope, types, context, idempotentMethods, calls, anonymousCalls);
  }

  @Override
  public List<MethodModel> methods() {
    if (methods == null) {
      List<MethodModel> all = new ArrayList<>();
      for (CallableDeclaration<?> c : callables()) {
        all.add(model(c));
      }
      methods = List.copyOf(all);
    }
    return methods;
  }

  @Override
  public MethodModel declarationOf(Expr.Call call) {
    CallableDeclaration<?> own = anonymousCalls.get(call);
    if (own != null) {
      return model(own);
    }
    ScannerTypes.Resolved resolved = calls.get(call);
    if (resolved == null || resolved.decl() == null) {
      return null;
    }
    CallableDeclaration<?> c = callable(resolved);
    return c == null ? null : model(c);
  }

  @Override
  public MethodModel declarationInProject(Expr.Call call) {
    MethodModel own = declarationOf(call);
    if (own != null) {
      return own;
    }
    ScannerTypes.Resolved resolved = calls.get(call);
    if (resolved == null || resolved.decl() == null) {
      return null;
    }
    ScannerTypes.Resolved implementation = types.onlyImplementation(resolved);
    return project.declaration(implementation != null ? implementation : resolved);
  }

  /** The method or constructor of this file a resolved call names, or {@code null}. */
  CallableDeclaration<?> callable(ScannerTypes.Resolved resolved) {
    if (byKey == null) {
      byKey = new HashMap<>();
      for (CallableDeclaration<?> c : callables()) {
        ClassContext context = ClassContext.of(c, scope, types);
        byKey.put(key(context.ownerName(), name(c), c.getBegin().map(b -> b.line).orElse(-1)), c);
      }
    }
    return byKey.get(key(resolved.owner().name(), resolved.decl().name(), resolved.decl().line()));
  }

  @Override
  public SourceContext contextOf(MethodModel method) {
    ClassContext context = contextOf.get(method);
    if (context == null) {
      JavaParserUnitIndex owner = project.ownerOf(method);
      if (owner == null) {
        throw new IllegalArgumentException("not a method of the scanned files: " + method.name());
      }
      return owner.contextOf(method);
    }
    return new JavaParserSourceContext(file, context.members(), builder(context), hasType, this);
  }

  @Override
  public <T> T memo(Class<T> key, Function<UnitIndex, T> compute) {
    Object value = memos.get(key);
    if (value == null) {
      value = compute.apply(this);
      memos.put(key, value);
    }
    return key.cast(value);
  }

  /** Every method and constructor with a body, in source order. */
  List<CallableDeclaration<?>> callables() {
    List<CallableDeclaration<?>> callables = new ArrayList<>();
    unit.walk(
        Node.TreeTraversal.PREORDER,
        n -> {
          if (n instanceof CallableDeclaration<?> c) {
            BlockStmt body = JavaParserModelBuilder.bodyOf(c);
            if (body != null) {
              callables.add(c);
            }
          }
        });
    return callables;
  }

  private static String name(CallableDeclaration<?> c) {
    return c instanceof com.github.javaparser.ast.body.ConstructorDeclaration
        ? "<init>"
        : c.getNameAsString();
  }

  private static String key(String owner, String name, int line) {
    return owner + "#" + name + "@" + line;
  }
}
