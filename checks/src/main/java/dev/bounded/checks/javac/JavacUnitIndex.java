package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.google.errorprone.util.ASTHelpers;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.code.Symbol;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The unit index of one compilation unit: every method's model, built on first use and once, and
 * the methods that calls invoke, by javac's symbols.
 */
final class JavacUnitIndex implements UnitIndex {
  private final CompilationUnitTree unit;
  private final JavacTypes types;
  private final JavacModelBuilder builder;
  private final Supplier<String> source;
  private final JavacProject project;
  private final boolean shared;
  private final IdentityHashMap<Expr.Call, Symbol.MethodSymbol> callSymbols =
      new IdentityHashMap<>();
  private final IdentityHashMap<MethodTree, MethodModel> models = new IdentityHashMap<>();
  private final IdentityHashMap<MethodModel, ClassTree> classOf = new IdentityHashMap<>();
  private final IdentityHashMap<ClassTree, MethodModel> initialisers = new IdentityHashMap<>();
  private final Map<Class<?>, Object> memos = new HashMap<>();
  private Map<MethodTree, ClassTree> trees;
  private Map<Symbol.MethodSymbol, MethodTree> bySymbol;
  private List<MethodModel> methods;

  /**
   * Creates the index of a unit.
   *
   * @param state a visitor state whose path is in the unit
   * @param unit the unit
   * @param source its text, asked for only when a rule needs it
   * @param project the compilation's other units
   * @param shared whether other units' indexes may hand out this one's models ({@link JavacProject}
   *     made it), so that the project must know which index built each
   */
  JavacUnitIndex(
      VisitorState state,
      CompilationUnitTree unit,
      Supplier<String> source,
      JavacProject project,
      boolean shared) {
    this.unit = unit;
    this.project = project;
    this.shared = shared;
    this.types = new JavacTypes(state);
    this.builder = new JavacModelBuilder(state, types, callSymbols);
    this.source = source;
  }

  /** The unit this index describes. */
  CompilationUnitTree unit() {
    return unit;
  }

  /** The model of a method of this unit, built once. */
  MethodModel model(MethodTree tree, ClassTree enclosing) {
    MethodModel model = models.get(tree);
    if (model == null) {
      int previous = Timing.enter(Timing.MODEL);
      Timing.count(Timing.MODELS_BUILT, 1);
      model = builder.method(tree);
      Timing.exit(previous);
      models.put(tree, model);
      classOf.put(model, enclosing);
      if (shared) {
        project.built(model, this);
      }
    }
    return model;
  }

  /** The synthetic method holding a class's field initialisers and initialiser blocks. */
  MethodModel initialisers(ClassTree tree) {
    MethodModel model = initialisers.get(tree);
    if (model == null) {
      int previous = Timing.enter(Timing.MODEL);
      Timing.count(Timing.MODELS_BUILT, 1);
      model = builder.initialisers(tree);
      Timing.exit(previous);
      initialisers.put(tree, model);
      classOf.put(model, tree);
      if (shared) {
        project.built(model, this);
      }
    }
    return model;
  }

  @Override
  public List<MethodModel> methods() {
    if (methods == null) {
      List<MethodModel> all = new ArrayList<>();
      trees().forEach((tree, enclosing) -> all.add(model(tree, enclosing)));
      methods = List.copyOf(all);
    }
    return methods;
  }

  @Override
  public MethodModel declarationOf(Expr.Call call) {
    Symbol.MethodSymbol symbol = callSymbols.get(call);
    return symbol == null ? null : declarationOf(symbol);
  }

  /** The model of a method of this unit, or {@code null}. */
  private MethodModel declarationOf(Symbol.MethodSymbol symbol) {
    if (bySymbol == null) {
      bySymbol = new HashMap<>();
      for (MethodTree tree : trees().keySet()) {
        Symbol.MethodSymbol declared = ASTHelpers.getSymbol(tree);
        if (declared != null) {
          bySymbol.put(declared, tree);
        }
      }
    }
    MethodTree tree = bySymbol.get(symbol);
    return tree == null ? null : model(tree, trees().get(tree));
  }

  @Override
  public MethodModel declarationInProject(Expr.Call call) {
    MethodModel own = declarationOf(call);
    if (own != null) {
      return own;
    }
    Symbol.MethodSymbol symbol = callSymbols.get(call);
    if (symbol == null) {
      return null;
    }
    Symbol.MethodSymbol implementation = project.onlyImplementation(symbol);
    if (implementation == null) {
      return project.declaration(symbol, this);
    }
    MethodModel here = declarationOf(implementation);
    return here != null ? here : project.declaration(implementation, this);
  }

  /** Whether this index built the model. */
  boolean owns(MethodModel model) {
    return classOf.containsKey(model);
  }

  @Override
  public SourceContext contextOf(MethodModel method) {
    if (!classOf.containsKey(method)) {
      JavacUnitIndex owner = project.ownerOf(method);
      if (owner == null) {
        throw new IllegalArgumentException("not a method of this compilation: " + method.name());
      }
      return owner.contextOf(method);
    }
    return new JavacSourceContext(source, classOf.get(method), builder, types, this);
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

  /** Every method with a body and the class that declares it, in source order. */
  private Map<MethodTree, ClassTree> trees() {
    if (trees == null) {
      int previous = Timing.enter(Timing.MODEL);
      Map<MethodTree, ClassTree> found = new LinkedHashMap<>();
      new TreeScanner<Void, ClassTree>() {
        @Override
        public Void visitClass(ClassTree tree, ClassTree enclosing) {
          return super.visitClass(tree, tree);
        }

        @Override
        public Void visitMethod(MethodTree tree, ClassTree enclosing) {
          if (tree.getBody() != null) {
            found.put(tree, enclosing);
          }
          return super.visitMethod(tree, enclosing);
        }
      }.scan(unit, null);
      trees = found;
      Timing.exit(previous);
    }
    return trees;
  }
}
