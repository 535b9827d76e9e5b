package dev.bounded.scanner.javaparser;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Problem;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import com.github.javaparser.ast.stmt.BlockStmt;
import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The scanner's frontend: javaparser in, the rules' findings out, in two passes. {@link #index}
 * records a file's declarations (call it for every file first), then {@link #analyse} builds each
 * relevant method's model and runs the rules. The caller decides which parsed files, if any, to
 * keep between the passes. Thread-safe: files may be indexed and analysed concurrently (each pass
 * completes before the next starts).
 */
public final class JavaParserFrontend {
  /** The newest language level javaparser 3.28.2 supports, Java 26 (BUILD-NOTES 9). */
  public static final ParserConfiguration.LanguageLevel LANGUAGE_LEVEL =
      ParserConfiguration.LanguageLevel.JAVA_26;

  /** One parser per thread: javaparser's parser is not thread-safe, and cheap to keep. */
  private static final ThreadLocal<JavaParser> PARSER =
      ThreadLocal.withInitial(
          () ->
              new JavaParser(
                  new ParserConfiguration()
                      .setLanguageLevel(LANGUAGE_LEVEL)
                      .setAttributeComments(false)
                      .setTabSize(1)));

  private final List<Rule> rules;
  private final RuleConfig config;
  private final Set<String> idempotentMethods;
  private final Boolean runtimeAvailable;
  private final DeclarationIndex index;
  private final ScannerTypes types;
  private final Sources sources;

  /**
   * Reads another scanned file's code when the analysis of one file needs it (whether a method it
   * calls retries). Called from the threads that analyse files, concurrently.
   */
  @FunctionalInterface
  public interface Sources {
    /**
     * Returns a scanned file, parsed.
     *
     * @param file its path as the scan reports it (as given to {@link #index(CompilationUnit,
     *     String)})
     * @return the parsed file, or {@code null} if it cannot be read or parsed now
     */
    ParsedFile read(String file);
  }

  /**
   * A finding with where it was found.
   *
   * @param finding what the rule reported
   * @param member the enclosing member, as {@code Outer.Inner#method}: part of its fingerprint
   */
  public record Located(Finding finding, String member) {}

  /** A file javaparser could not parse, with the first problem's message. */
  public static final class UnparsableException extends Exception {
    private static final long serialVersionUID = 1L;

    UnparsableException(String message) {
      super(message);
    }
  }

  /**
   * Creates the frontend of one scan.
   *
   * @param rules the rules to run
   * @param config the rules' configuration
   * @param idempotentMethods methods to treat as {@code @Idempotent}, as {@code Type#method}
   * @param runtimeAvailable whether fixes may use Bounded's runtime; {@code null} to decide from
   *     the scanned files (some file imports {@code dev.bounded.runtime})
   */
  public JavaParserFrontend(
      List<Rule> rules,
      RuleConfig config,
      Set<String> idempotentMethods,
      Boolean runtimeAvailable) {
    this(rules, config, idempotentMethods, runtimeAvailable, new DeclarationIndex());
  }

  /**
   * Creates a frontend over declarations indexed elsewhere: the language server's workspace index,
   * with the analysed file's current declarations laid over it.
   *
   * @param rules the rules to run
   * @param config the rules' configuration
   * @param idempotentMethods methods to treat as {@code @Idempotent}, as {@code Type#method}
   * @param runtimeAvailable whether fixes may use Bounded's runtime; {@code null} to decide from
   *     the indexed files
   * @param index the declarations the rules see; {@link #index} adds to it
   */
  public JavaParserFrontend(
      List<Rule> rules,
      RuleConfig config,
      Set<String> idempotentMethods,
      Boolean runtimeAvailable,
      DeclarationIndex index) {
    this(rules, config, idempotentMethods, runtimeAvailable, index, null);
  }

  /**
   * Creates a frontend that may read the other scanned files' code: a call's callee declared in
   * another file is analysed for facts that cross files (which methods retry).
   *
   * @param rules the rules to run
   * @param config the rules' configuration
   * @param idempotentMethods methods to treat as {@code @Idempotent}, as {@code Type#method}
   * @param runtimeAvailable whether fixes may use Bounded's runtime; {@code null} to decide from
   *     the indexed files
   * @param index the declarations the rules see; {@link #index} adds to it
   * @param sources reads the files {@link #index(CompilationUnit, String)} recorded, or {@code
   *     null} to use only their declarations
   */
  public JavaParserFrontend(
      List<Rule> rules,
      RuleConfig config,
      Set<String> idempotentMethods,
      Boolean runtimeAvailable,
      DeclarationIndex index,
      Sources sources) {
    this.rules = List.copyOf(rules);
    this.config = config;
    this.idempotentMethods = Set.copyOf(idempotentMethods);
    this.runtimeAvailable = runtimeAvailable;
    this.index = index;
    this.types = new ScannerTypes(index);
    this.sources = sources;
  }

  /**
   * Parses a file at the newest language level.
   *
   * @param text the file's text
   * @return the compilation unit
   * @throws UnparsableException if it is not Java javaparser can read
   */
  public static CompilationUnit parse(String text) throws UnparsableException {
    ParseResult<CompilationUnit> result;
    try {
      result = PARSER.get().parse(text);
    } catch (StackOverflowError e) {
      PARSER.remove(); // its state is unknown after an overflow
      throw new UnparsableException("too deeply nested to parse");
    }
    if (!result.isSuccessful() || result.getResult().isEmpty()) {
      List<Problem> problems = result.getProblems();
      String message = problems.isEmpty() ? "cannot be parsed" : describe(problems.get(0));
      throw new UnparsableException(message);
    }
    return result.getResult().get();
  }

  private static String describe(Problem problem) {
    String where =
        problem
            .getLocation()
            .flatMap(l -> l.getBegin().getRange())
            .map(r -> "line " + r.begin.line + ": ")
            .orElse("");
    String message = problem.getMessage();
    int newline = message.indexOf('\n');
    message = newline < 0 ? message : message.substring(0, newline);
    int expected = message.indexOf(", expected one of");
    if (expected > 0) {
      message = message.substring(0, expected); // javaparser lists every token it would take
    }
    return "syntax error at " + where + message;
  }

  /**
   * The first pass: records a file's declarations.
   *
   * @param unit the parsed file
   * @return whether any method (or class initialiser) of the file needs the second pass
   */
  public boolean index(CompilationUnit unit) {
    return index(unit, null);
  }

  /**
   * The first pass: records a file's declarations, and where its code can be read again.
   *
   * @param unit the parsed file
   * @param file its path as the scan reports it, for {@link Sources}; or {@code null}
   * @return whether any method (or class initialiser) of the file needs the second pass
   */
  public boolean index(CompilationUnit unit, String file) {
    FileScope scope = FileScope.of(unit);
    Declarations.index(unit, scope, file, index);
    boolean[] relevant = {false};
    unit.walk(
        Node.TreeTraversal.PREORDER,
        n -> {
          if (!relevant[0]) {
            relevant[0] = isRelevantCallable(n) || isRelevantClass(n);
          }
        });
    return relevant[0];
  }

  /**
   * The second pass: runs the rules on every relevant method and class initialiser of a file.
   *
   * @param file the file's text and path
   * @param unit the parsed file
   * @return the findings, in source order per method
   */
  public List<Located> analyse(SourceFile file, CompilationUnit unit) {
    FileScope scope = FileScope.of(unit);
    ScannedProject project = new ScannedProject(sources, types, idempotentMethods, this::hasType);
    JavaParserUnitIndex units =
        new JavaParserUnitIndex(
            file, unit, scope, types, idempotentMethods, this::hasType, project);
    project.add(file.path(), units);
    List<Located> findings = new ArrayList<>();
    List<Node> nodes = new ArrayList<>();
    unit.walk(Node.TreeTraversal.PREORDER, nodes::add);
    for (Node n : nodes) {
      MethodModel model = null;
      if (isRelevantCallable(n)) {
        model = units.model((CallableDeclaration<?>) n);
      } else if (isRelevantClass(n)) {
        model = units.initialisers(n, members(n));
      }
      if (model == null) {
        continue; /* Fast path: nothing here a rule could report. */
      }
      MethodAnalysis analysis = MethodAnalysis.of(model, units.contextOf(model));
      String member = memberName(n);
      for (Rule rule : rules) {
        if (isSuppressed(n, rule.name())) {
          continue;
        }
        for (Finding finding : rule.check(analysis, config)) {
          if (finding.span().isKnown()) {
            findings.add(new Located(finding, member));
          }
        }
      }
    }
    return findings;
  }

  /**
   * The second pass on a file parsed for a long-lived client.
   *
   * @param file the parsed file
   * @return the findings, in source order per method
   */
  public List<Located> analyse(ParsedFile file) {
    return analyse(file.source(), file.unit());
  }

  private static boolean isRelevantCallable(Node n) {
    if (n instanceof CallableDeclaration<?> c) {
      BlockStmt body = JavaParserModelBuilder.bodyOf(c);
      // A failure callback may schedule a retry through a helper of its class; a re-send by name
      // may repeat writes without a loop.
      return body != null
          && (CallNames.isFailureHandlerName(c.getNameAsString())
              || CallNames.isResendName(c.getNameAsString())
              || Relevance.isRelevant(body));
    }
    return false;
  }

  /** A class (named, local or anonymous) whose field initialisers or blocks may hold a finding. */
  private static boolean isRelevantClass(Node n) {
    NodeList<BodyDeclaration<?>> members = members(n);
    if (members == null) {
      return false;
    }
    for (BodyDeclaration<?> member : members) {
      if (member instanceof FieldDeclaration field) {
        for (VariableDeclarator v : field.getVariables()) {
          if (v.getInitializer().isPresent() && Relevance.isRelevant(v.getInitializer().get())) {
            return true;
          }
        }
      } else if (member instanceof InitializerDeclaration block
          && Relevance.isRelevant(block.getBody())) {
        return true;
      }
    }
    return false;
  }

  private static NodeList<BodyDeclaration<?>> members(Node n) {
    if (n instanceof TypeDeclaration<?> t) {
      return t.getMembers();
    }
    if (n instanceof ObjectCreationExpr o) {
      return o.getAnonymousClassBody().orElse(null);
    }
    return null;
  }

  /**
   * Returns the number of types the first pass indexed.
   *
   * @return the count
   */
  public int indexedTypes() {
    return index.size();
  }

  private boolean hasType(String qualifiedName) {
    if (qualifiedName.startsWith("dev.bounded.runtime.")) {
      return runtimeAvailable != null ? runtimeAvailable : index.usesPackage("dev.bounded.runtime");
    }
    if (qualifiedName.startsWith("java.") || qualifiedName.startsWith("javax.")) {
      return true;
    }
    return index.type(qualifiedName) != null;
  }

  /** {@code Outer.Inner#method(T)}, the classes named as written (anonymous ones left out). */
  private static String memberName(Node node) {
    StringBuilder classes = new StringBuilder();
    if (node instanceof TypeDeclaration<?> t) {
      classes.append(t.getNameAsString());
    }
    for (Node n = node.getParentNode().orElse(null);
        n != null;
        n = n.getParentNode().orElse(null)) {
      if (n instanceof TypeDeclaration<?> t) {
        classes.insert(0, classes.length() == 0 ? t.getNameAsString() : t.getNameAsString() + ".");
      }
    }
    if (!(node instanceof CallableDeclaration<?> callable)) {
      return classes + "#" + MethodModel.INITIALISERS;
    }
    StringBuilder params = new StringBuilder();
    callable
        .getParameters()
        .forEach(
            p -> params.append(params.length() == 0 ? "" : ",").append(p.getType().asString()));
    return classes + "#" + callable.getNameAsString() + "(" + params + ")";
  }

  /** {@code @SuppressWarnings("Rule")} on the method or anything enclosing it. */
  private static boolean isSuppressed(Node node, String rule) {
    for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
      if (n instanceof NodeWithAnnotations<?> annotated) {
        for (AnnotationExpr a : annotated.getAnnotations()) {
          String name = a.getNameAsString();
          if ((name.equals("SuppressWarnings") || name.equals("java.lang.SuppressWarnings"))
              && suppresses(a, rule)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean suppresses(AnnotationExpr annotation, String rule) {
    Expression value = null;
    if (annotation instanceof SingleMemberAnnotationExpr single) {
      value = single.getMemberValue();
    } else if (annotation instanceof com.github.javaparser.ast.expr.NormalAnnotationExpr normal) {
      for (var pair : normal.getPairs()) {
        if (pair.getNameAsString().equals("value")) {
          value = pair.getValue();
        }
      }
    }
    if (value instanceof StringLiteralExpr s) {
      return s.asString().equals(rule);
    }
    if (value instanceof ArrayInitializerExpr array) {
      for (Expression e : array.getValues()) {
        if (e instanceof StringLiteralExpr s && s.asString().equals(rule)) {
          return true;
        }
      }
    }
    return false;
  }
}
