package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode G: an executor created in a method ({@code Executors.newFixedThreadPool(..)}, {@code
 * new ThreadPoolExecutor(..)}, ...), kept only in a local variable, and not shut down on every
 * path: not in a {@code finally} block nor as a try-with-resources resource, and neither returned,
 * stored nor handed to another call. Its threads outlive the call (for ever, for a fixed pool's
 * non-daemon threads, which also keep the JVM from exiting), and so do the tasks still queued.
 *
 * <p>Fix: the statements after the creation wrapped in {@code try { .. } finally {
 * executor.shutdown(); }} (a trailing {@code shutdown()} moves into the {@code finally}).
 */
public final class UnownedExecutorRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "UnownedExecutor";

  private static final String EXECUTORS = "java.util.concurrent.Executors";
  private static final String EXECUTOR_SERVICE = "java.util.concurrent.ExecutorService";
  private static final Set<String> SHUTDOWNS = Set.of("shutdown", "shutdownNow", "close");

  /**
   * Calls that hand a task over without waiting for it ({@code invokeAll} waits, and can be
   * interrupted with the pool's threads still running).
   */
  private static final Set<String> HANDOVERS = Set.of("submit", "execute");

  /** How an executor is shut down. */
  private enum Shutdown {
    NEVER,
    NOT_ON_EVERY_PATH,
    ALWAYS
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Stmt.LocalVar local)
          || local.init() == null
          || !createsExecutor(local.init())
          || isResource(analysis, local)
          || escapes(analysis, local.name())) {
        continue;
      }
      Shutdown shutdown = shutdown(analysis, local.name());
      if (shutdown == Shutdown.ALWAYS || shutDownRightAfterSubmitting(analysis, local)) {
        continue;
      }
      String message =
          shutdown == Shutdown.NEVER
              ? "This executor is created here, kept only in '"
                  + local.name()
                  + "' and never shut down: its threads and queued tasks outlive the call (a"
                  + " pool's non-daemon threads also keep the JVM from exiting). Shut it down in a"
                  + " finally block, or use TaskScope"
              : "This executor is shut down only when no exception is thrown before: on a failure"
                  + " its threads and queued tasks outlive the call. Shut it down in a finally"
                  + " block, or use TaskScope";
      findings.add(new Finding(NAME, local.span(), message, fixes(analysis, local)));
    }
    for (Expr.Call call : Nodes.calls(analysis.method().body())) {
      for (int i = 0; i < call.args().size(); i++) {
        Expr arg = call.args().get(i);
        if (createsExecutor(arg) && onlyRunsTasks(analysis, call, i)) {
          findings.add(
              new Finding(
                  NAME,
                  arg.span(),
                  "This executor is created for one call and never shut down: "
                      + call.name()
                      + "(..) only hands it tasks, so its threads outlive the call (a pool's"
                      + " non-daemon threads also keep the JVM from exiting). Create it where it"
                      + " can be shut down in a finally block, or use TaskScope",
                  List.of()));
        }
      }
    }
    return findings;
  }

  /**
   * Whether the method of the unit that {@code call} invokes only hands tasks to its parameter
   * {@code index} ({@code executor.execute(task)}): it neither stores, returns, passes on nor shuts
   * it down, so nobody owns the executor created for the call.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean onlyRunsTasks(MethodAnalysis analysis, Expr.Call call, int index) {
    MethodModel callee = analysis.context().unit().declarationOf(call);
    if (callee == null
        || callee == analysis.method()
        || callee.body() == null
        || index >= callee.params().size()) {
      return false;
    }
    String param = callee.params().get(index).name();
    boolean used = false;
    for (Node n : Nodes.preOrder(callee.body())) {
      for (Node child : n.children()) {
        if (child instanceof Expr.Name name && name.isVariable(param) && name.qualifier() == null) {
          if (!(n instanceof Expr.Call use
              && use.receiver() == child
              && CallNames.SUBMISSIONS.contains(use.name()))) {
            return false;
          }
          used = true;
        }
      }
    }
    return used;
  }

  /**
   * Whether the executor is shut down right after its tasks were handed to it: in the block that
   * creates it, with only hand-overs to it ({@code submit}, {@code execute}, and the tasks'
   * construction) in between, nothing can fail on the way (the fresh executor accepts them).
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean shutDownRightAfterSubmitting(
      MethodAnalysis analysis, Stmt.LocalVar local) {
    if (!(analysis.parent(local) instanceof Stmt.Block block)) {
      return false;
    }
    List<Stmt> statements = block.statements();
    int at = -1;
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) == local) {
        at = i;
      }
    }
    for (int i = at + 1; at >= 0 && i < statements.size(); i++) {
      Stmt s = statements.get(i);
      if (isShutdownStatement(s, local.name())) {
        return true;
      }
      if (!(s instanceof Stmt.ExprStmt || s instanceof Stmt.LocalVar)) {
        return false;
      }
      for (Node n : Nodes.sameFrame(s)) {
        if (n instanceof Expr.Call c
            && !(c.receiver() instanceof Expr.Name r
                && r.isVariable(local.name())
                && HANDOVERS.contains(c.name()))) {
          return false;
        }
      }
    }
    return false;
  }

  private static boolean createsExecutor(Expr init) {
    if (init instanceof Expr.Call call) {
      return CallNames.OWNED_EXECUTOR_FACTORIES.contains(call.name())
          && Nodes.isStaticCallOn(call, EXECUTORS);
    }
    if (init instanceof Expr.New created) {
      return CallNames.OWNED_EXECUTOR_CLASSES.contains(created.type().simpleName())
          && created.type().isSubtypeOf(EXECUTOR_SERVICE)
          && !created.hasBody();
    }
    return false;
  }

  private static boolean isResource(MethodAnalysis analysis, Stmt.LocalVar local) {
    return analysis.parent(local) instanceof Stmt.Try t && t.resources().contains(local);
  }

  /**
   * Whether the executor may be owned elsewhere: returned, assigned, handed to a call or a
   * constructor, or captured by a lambda.
   */
  private static boolean escapes(MethodAnalysis analysis, String variable) {
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Stmt.Return r && r.value() != null && Nodes.mentions(r.value(), variable)) {
        return true;
      }
      if (n instanceof Expr.Assign assign && Nodes.mentions(assign.value(), variable)) {
        return true;
      }
      if (n instanceof Stmt.LocalVar other
          && other.init() != null
          && !other.name().equals(variable)
          && isBareMention(other.init(), variable)) {
        return true;
      }
      if (n instanceof Expr.Call call && !call.name().endsWith("Async")) {
        for (Expr arg : call.args()) {
          if (Nodes.mentions(arg, variable)) {
            return true;
          }
        }
      }
      if (n instanceof Expr.New created) {
        for (Expr arg : created.args()) {
          if (Nodes.mentions(arg, variable)) {
            return true;
          }
        }
      }
      if (n instanceof Expr.Lambda lambda && Nodes.mentions(lambda.body(), variable)) {
        return true;
      }
      if (n instanceof Expr.Other other
          && other.description().contains("MEMBER_REFERENCE")
          && Nodes.mentions(other, variable)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isBareMention(Expr expr, String variable) {
    if (expr instanceof Expr.Conditional c) {
      return isBareMention(c.whenTrue(), variable) || isBareMention(c.whenFalse(), variable);
    }
    return expr instanceof Expr.Name name && name.isVariable(variable);
  }

  private static Shutdown shutdown(MethodAnalysis analysis, String variable) {
    Shutdown found = Shutdown.NEVER;
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Call call
          && SHUTDOWNS.contains(call.name())
          && call.receiver() instanceof Expr.Name receiver
          && receiver.isVariable(variable)) {
        if (isInFinally(analysis, call)) {
          return Shutdown.ALWAYS;
        }
        found = Shutdown.NOT_ON_EVERY_PATH;
      }
    }
    return found;
  }

  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean isInFinally(MethodAnalysis analysis, Node node) {
    Node child = node;
    for (Node p = analysis.parent(node); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Try t && t.finallyBlock() == child) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static List<Fix> fixes(MethodAnalysis analysis, Stmt.LocalVar local) {
    if (!(analysis.parent(local) instanceof Stmt.Block block) || !local.span().isKnown()) {
      return List.of();
    }
    List<Stmt> statements = block.statements();
    int at = statements.indexOf(local);
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) == local) {
        at = i;
      }
    }
    List<Stmt> region = new ArrayList<>(statements.subList(at + 1, statements.size()));
    String variable = local.name();
    for (Stmt s : region) {
      if (!s.span().isKnown()) {
        return List.of();
      }
    }
    // A shutdown after which nothing uses the executor moves into the finally block.
    int moved = -1;
    for (int i = region.size() - 1; i >= 0; i--) {
      if (isShutdownStatement(region.get(i), variable)) {
        moved = i;
        break;
      }
      if (Nodes.mentions(region.get(i), variable)) {
        break;
      }
    }
    if (region.isEmpty() || (moved == 0 && region.size() == 1)) {
      return List.of();
    }
    String source = analysis.context().source();
    String indent = Source.indentAt(source, local.span().start());
    String inner = Source.deeper(source, indent);
    String unit = inner.substring(indent.length());
    int start = region.get(0).span().start();
    int end = region.get(region.size() - 1).span().end();
    String text;
    String shutdown;
    if (moved >= 0) {
      Span s = region.get(moved).span();
      shutdown = source.substring(s.start(), s.end());
      String before = source.substring(start, s.start()).stripTrailing();
      String after = source.substring(s.end(), end);
      text = moved == 0 ? after.stripLeading() : before + after;
    } else {
      shutdown = variable + ".shutdown();";
      text = source.substring(start, end);
    }
    String body = text.replace("\n", "\n" + unit).replaceAll("\n" + unit + "(?=\n)", "\n");
    String replacement =
        "try {\n"
            + inner
            + body
            + "\n"
            + indent
            + "} finally {\n"
            + inner
            + shutdown
            + "\n"
            + indent
            + "}";
    return List.of(
        new Fix(
            "Shut the executor down in a finally block",
            List.of(Edit.replace(new Span(start, end), replacement)),
            Set.of()));
  }

  private static boolean isShutdownStatement(Stmt stmt, String variable) {
    return stmt instanceof Stmt.ExprStmt e
        && e.expr() instanceof Expr.Call call
        && SHUTDOWNS.contains(call.name())
        && call.receiver() instanceof Expr.Name receiver
        && receiver.isVariable(variable);
  }
}
