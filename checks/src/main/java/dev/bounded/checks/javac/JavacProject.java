package dev.bounded.checks.javac;

import com.google.errorprone.VisitorState;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreePath;
import com.sun.tools.javac.api.JavacTrees;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symtab;
import com.sun.tools.javac.code.Types;
import com.sun.tools.javac.comp.Enter;
import com.sun.tools.javac.util.Context;
import com.sun.tools.javac.util.Options;
import dev.bounded.checks.model.MethodModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import javax.tools.JavaFileObject;

/**
 * The other compilation units of one compilation, as far as a unit index may ask about them: the
 * declaration of a method invoked from the unit being analysed, when javac compiles its source in
 * the same run ({@link dev.bounded.checks.model.UnitIndex#declarationInProject}).
 *
 * <p>Error Prone runs on a unit once javac has attributed and flowed it. Under the compile policy
 * {@code simple}, which Error Prone requires, javac attributes and flows every unit before it
 * desugars any, so the other units' trees are attributed and not yet lowered while any unit is
 * analysed. Under another policy that does not hold for every unit, and nothing is answered. A
 * class not yet attributed (javac's {@code UNATTRIBUTED} flag) is not answered either.
 *
 * <p>Each other unit gets an index of its own, made on first use and kept for the compilation, so a
 * method's model is built once however many units call it. Belongs to the compilation's {@link
 * AnalysisCache.Session}; not thread-safe, as javac's analysis is not.
 */
final class JavacProject {
  private final Context context;
  private final boolean enabled;
  private final IdentityHashMap<CompilationUnitTree, JavacUnitIndex> units =
      new IdentityHashMap<>();
  private final IdentityHashMap<MethodModel, JavacUnitIndex> owners = new IdentityHashMap<>();
  private final IdentityHashMap<Symbol.MethodSymbol, Symbol.MethodSymbol> implementations =
      new IdentityHashMap<>();
  private final IdentityHashMap<Symbol.MethodSymbol, Declaration> declarations =
      new IdentityHashMap<>();
  private JavacTrees trees;
  private Enter enter;
  private JavacUnitIndex current;
  private List<Symbol.ClassSymbol> sourceClasses;

  JavacProject(Context context) {
    this.context = context;
    this.enabled = "simple".equals(Options.instance(context).get("compilePolicy"));
  }

  /**
   * Returns the model of a method javac compiles from source in this compilation, in its own unit's
   * index.
   *
   * @param symbol the invoked method
   * @param asking the index of the unit being analysed (never answered here: it knows its own)
   * @return the model, or {@code null} if the method's tree is not available attributed
   */
  MethodModel declaration(Symbol.MethodSymbol symbol, JavacUnitIndex asking) {
    if (!enabled) {
      return null;
    }
    Symbol.ClassSymbol owner = symbol.enclClass();
    if (owner == null
        || (owner.flags_field & Flags.UNATTRIBUTED) != 0
        || owner.sourcefile == null
        || owner.sourcefile.equals(asking.unit().getSourceFile())) {
      return null;
    }
    Declaration found = declarations.get(symbol);
    if (found == null) {
      found = find(symbol);
      declarations.put(symbol, found);
    }
    if (found.method() == null) {
      return null;
    }
    CompilationUnitTree unit = found.unit();
    JavacUnitIndex index = current != null && current.unit() == unit ? current : index(unit);
    return index.model(found.method(), found.enclosing());
  }

  /** Where a method is declared with a body in a source class, or {@link Declaration#NONE}. */
  private Declaration find(Symbol.MethodSymbol symbol) {
    if (trees == null) {
      trees = JavacTrees.instance(context);
    }
    TreePath path;
    try {
      path = trees.getPath(symbol);
    } catch (RuntimeException e) {
      return Declaration.NONE; // javac could not find the declaration's environment
    }
    if (path == null
        || !(path.getLeaf() instanceof MethodTree method)
        || method.getBody() == null
        || path.getParentPath() == null
        || !(path.getParentPath().getLeaf() instanceof ClassTree enclosing)) {
      return Declaration.NONE;
    }
    return new Declaration(method, enclosing, path.getCompilationUnit());
  }

  /**
   * A method's declaration: its tree, its class's and its unit's. Looking one up walks the trees of
   * its class and its unit, so each symbol's is looked up once per compilation.
   */
  private record Declaration(MethodTree method, ClassTree enclosing, CompilationUnitTree unit) {
    static final Declaration NONE = new Declaration(null, null, null);
  }

  /**
   * Returns the one body that a call of a method declared without one runs, when the classes javac
   * compiles from source in this compilation hold exactly one: an interface's or an abstract
   * class's method that a single source class implements ({@code client.execute(request)} with
   * {@code Client.Default} the only class implementing {@code Client}). Classes that inherit that
   * body are the same implementation. Lambdas, anonymous and local classes, and implementations on
   * the class path are not seen.
   *
   * @param symbol the invoked method
   * @return the implementing method, or {@code null} if the method has a body itself, or none or
   *     several source classes implement it
   */
  Symbol.MethodSymbol onlyImplementation(Symbol.MethodSymbol symbol) {
    if (!enabled
        || (symbol.flags() & Flags.ABSTRACT) == 0
        || symbol.isStatic()
        || !(symbol.owner instanceof Symbol.ClassSymbol owner)
        || !isSource(owner)) {
      return null; // a library's interface (Runnable, List): its implementers are everywhere
    }
    if (implementations.containsKey(symbol)) {
      return implementations.get(symbol);
    }
    Types types = Types.instance(context);
    Symbol.MethodSymbol found = null;
    boolean several = false;
    for (Symbol.ClassSymbol c : sourceClasses()) {
      if (c == owner || (c.flags_field & Flags.UNATTRIBUTED) != 0 || !c.isSubClass(owner, types)) {
        continue;
      }
      Symbol.MethodSymbol implementation;
      try {
        implementation = symbol.implementation(c, types, true);
      } catch (RuntimeException e) {
        continue; // a class javac could not complete
      }
      if (implementation == null
          || implementation == symbol
          || (implementation.flags() & Flags.ABSTRACT) != 0) {
        continue;
      }
      if (found != null && found != implementation) {
        several = true;
        break;
      }
      found = implementation;
    }
    Symbol.MethodSymbol answer = several ? null : found;
    implementations.put(symbol, answer);
    return answer;
  }

  /**
   * Whether javac compiles the class from source in this compilation. A class also found on the
   * class path (a stale build's output, the library's own jar) keeps that class file as its {@code
   * classfile}, though javac entered it from source: it has an environment of this compilation.
   */
  private boolean isSource(Symbol.ClassSymbol c) {
    if (c.sourcefile == null || c.sourcefile.getKind() != JavaFileObject.Kind.SOURCE) {
      return false;
    }
    if (c.classfile == null || c.classfile.getKind() == JavaFileObject.Kind.SOURCE) {
      return true;
    }
    if (enter == null) {
      enter = Enter.instance(context);
    }
    return enter.getEnv(c) != null;
  }

  /** The top-level and member classes javac compiles from source, listed on first use. */
  private List<Symbol.ClassSymbol> sourceClasses() {
    if (sourceClasses == null) {
      List<Symbol.ClassSymbol> found = new ArrayList<>();
      for (Symbol.ClassSymbol c : Symtab.instance(context).getAllClasses()) {
        if (isSource(c) && (c.flags_field & Flags.INTERFACE) == 0) {
          found.add(c);
        }
      }
      sourceClasses = found;
    }
    return sourceClasses;
  }

  /**
   * Records the index of the unit Error Prone analyses now: another unit's method that calls back
   * into it gets that index's models, the ones its own analysis compares with.
   *
   * @param index the current unit's index
   */
  void analysing(JavacUnitIndex index) {
    current = index;
  }

  /**
   * The index of a unit of this compilation, made on first use.
   *
   * @param unit a compilation unit
   * @return its index
   */
  JavacUnitIndex index(CompilationUnitTree unit) {
    JavacUnitIndex index = units.get(unit);
    if (index == null) {
      Timing.count(Timing.UNITS_INDEXED, 1);
      VisitorState state =
          VisitorState.createForUtilityPurposes(context).withPath(new TreePath(unit));
      index = new JavacUnitIndex(state, unit, () -> text(unit), this, true);
      units.put(unit, index);
    }
    return index;
  }

  /**
   * Returns the index the project made for the unit, if another unit asked about one of its methods
   * (so its models are built already).
   *
   * @param unit a compilation unit
   * @return its index, or {@code null}
   */
  JavacUnitIndex existing(CompilationUnitTree unit) {
    return units.get(unit);
  }

  /**
   * Records which index built a model, so that another unit's index can hand out its context.
   *
   * @param model a method model
   * @param index the index that built it
   */
  void built(MethodModel model, JavacUnitIndex index) {
    owners.put(model, index);
  }

  /**
   * Returns the index that built a model.
   *
   * @param model a method model
   * @return the index that owns it, or {@code null}
   */
  JavacUnitIndex ownerOf(MethodModel model) {
    return current != null && current.owns(model) ? current : owners.get(model);
  }

  private static String text(CompilationUnitTree unit) {
    try {
      return unit.getSourceFile().getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
