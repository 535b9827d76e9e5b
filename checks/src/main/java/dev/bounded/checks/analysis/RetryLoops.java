package dev.bounded.checks.analysis;

import dev.bounded.checks.analysis.LoopInfo.Evidence;
import dev.bounded.checks.analysis.LoopInfo.Kind;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides which loops are retry loops: the analysis every retry rule stands on.
 *
 * <p>A retry loop repeats the same operation until it succeeds or gives up. The evidence, all read
 * at the loop's own level (not in nested loops or lambdas):
 *
 * <ul>
 *   <li>a <b>retrying catch</b>: a catch clause that can complete (neither rethrows, returns nor
 *       breaks on every path) so the loop goes round again, or that continues the loop;
 *   <li><b>exits on success</b>: a {@code return} or {@code break} outside catch clauses, or a loop
 *       condition that reads a variable the body sets outside catch clauses ({@code while (!done)},
 *       {@code while (result == null)});
 *   <li><b>counts attempts</b>: a local counter incremented each round and compared against a cap
 *       (not against a size or length, and not used as an index);
 *   <li><b>sleeps</b> between rounds ({@code Thread.sleep}, {@code TimeUnit.sleep}, {@code
 *       parkNanos}).
 * </ul>
 *
 * A loop is a retry loop when it has a retrying catch or sleeps, and exits on success (a loop that
 * goes on after a success, even a counted one, repeats the operation rather than retrying it); a
 * {@code forEach} over a numeric range ({@code IntStream.range(0, 3)}) with a retrying catch is one
 * too, since a lambda cannot leave the iteration. Counting attempts is recorded as evidence. Never
 * retry loops: for-each loops and {@code forEach} over collections, and loops that take a new item
 * each round ({@code take}, {@code poll()}, {@code accept}, {@code next}, {@code readLine}, ...):
 * they process items, they do not repeat an operation. Worker loops ({@code while (running)})
 * neither exit on success nor count, so they are not retry loops either.
 */
final class RetryLoops {
  /** Calls that take a new item each round. {@code poll} counts only without a timeout. */
  private static final Set<String> ITEM_CALLS =
      Set.of(
          "take",
          "accept",
          "next",
          "nextLine",
          "nextToken",
          "readLine",
          "readObject",
          "receive",
          "nextElement",
          "hasNext",
          "hasMoreElements",
          "hasMoreTokens",
          "pollFirst",
          "pollLast",
          "pop",
          "dequeue",
          "takeFirst",
          "takeLast");

  /** Names of calls that fetch the next item, by shape. */
  private static final Pattern ITEM_SHAPE =
      Pattern.compile("(next|take|pop|dequeue|fetchNext|poll)[A-Z]\\w*");

  /** Names that compute the next delay, not the next item. */
  private static final Pattern NOT_AN_ITEM =
      Pattern.compile("(?i).*(delay|backoff|wait|sleep|interval|timeout|attempt).*");

  /** Calls whose integer argument is an index: a counter passed to them walks items. */
  private static final Set<String> INDEX_CALLS =
      Set.of(
          "get",
          "set",
          "remove",
          "charAt",
          "codePointAt",
          "elementAt",
          "subList",
          "substring",
          "valueAt",
          "keyAt",
          "getInt",
          "getLong",
          "getString",
          "getObject");

  /** Calls and fields that give a collection's size: a counter compared with them walks items. */
  private static final Set<String> SIZE_NAMES =
      Set.of("size", "length", "count", "getSize", "getLength", "getCount", "getRowCount");

  private RetryLoops() {}

  static void classify(MethodAnalysis analysis, LoopInfo loop) {
    List<Node> level = analysis.loopLevel(loop);
    Set<Evidence> evidence = EnumSet.noneOf(Evidence.class);
    if (takesItems(loop, level)) {
      evidence.add(Evidence.TAKES_ITEMS);
    }
    if (hasRetryingCatch(analysis, loop, level)) {
      evidence.add(Evidence.RETRYING_CATCH);
    }
    if (exitsOnSuccess(analysis, loop)) {
      evidence.add(Evidence.EXITS_ON_SUCCESS);
    }
    if (countsAttempts(level)) {
      evidence.add(Evidence.COUNTS_ATTEMPTS);
    }
    if (sleeps(level)) {
      evidence.add(Evidence.SLEEPS);
    }
    if (loop.kind() == Kind.FOR_EACH_LAMBDA && isNumericRange(loop.iterable())) {
      evidence.add(Evidence.NUMERIC_RANGE);
    }
    boolean perItem =
        evidence.contains(Evidence.TAKES_ITEMS)
            || loop.kind() == Kind.FOR_EACH
            || (loop.kind() == Kind.FOR_EACH_LAMBDA && !evidence.contains(Evidence.NUMERIC_RANGE));
    boolean retries =
        evidence.contains(Evidence.RETRYING_CATCH) || evidence.contains(Evidence.SLEEPS);
    // A loop that goes on after a success repeats the operation; it does not retry it.
    boolean retry =
        (!perItem && retries && evidence.contains(Evidence.EXITS_ON_SUCCESS))
            || (evidence.contains(Evidence.NUMERIC_RANGE)
                && evidence.contains(Evidence.RETRYING_CATCH));
    loop.classify(evidence, retry);
  }

  /**
   * Tells whether a catch clause lets {@code loop} go round again: it can complete normally and
   * control then reaches the end of the loop body, or it continues the loop.
   *
   * @param analysis the method's analysis
   * @param clause a catch clause whose innermost loop is {@code loop}
   * @param loop the loop
   * @return {@code true} if the loop can start another round after this clause ran
   */
  static boolean goesRoundAgain(MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    if (continuesLoop(analysis, clause.body(), loop)) {
      return true;
    }
    return Flow.canCompleteNormally(clause.body())
        && reachesEndOfBody(analysis, analysis.tryOf(clause), loop);
  }

  private static boolean hasRetryingCatch(
      MethodAnalysis analysis, LoopInfo loop, List<Node> level) {
    for (Node node : level) {
      if (node instanceof Stmt.Try t) {
        for (Stmt.Catch clause : t.catches()) {
          if (goesRoundAgain(analysis, clause, loop)) {
            return true;
          }
        }
      }
    }
    // A catch in a nested loop may retry this one with a labelled continue.
    if (loop.label() != null) {
      for (Node n : Nodes.sameFrame(loop.body())) {
        if (n instanceof Stmt.Catch clause && continuesLoop(analysis, clause.body(), loop)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether control leaving {@code stmt} normally reaches the end of the loop's body. */
  private static boolean reachesEndOfBody(MethodAnalysis analysis, Stmt stmt, LoopInfo loop) {
    Node child = stmt;
    for (Node p = analysis.parent(stmt); child != loop.body(); child = p, p = analysis.parent(p)) {
      if (p == null) {
        return false;
      }
      if (p instanceof Stmt.Block block) {
        boolean after = false;
        for (Stmt s : block.statements()) {
          if (after && !Flow.canCompleteNormally(s)) {
            return false;
          }
          after |= s == child;
        }
      }
    }
    return true;
  }

  /** Whether {@code body} holds a {@code continue} of the loop (a {@code return} in forEach). */
  private static boolean continuesLoop(MethodAnalysis analysis, Stmt body, LoopInfo loop) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Stmt.Continue c && targets(analysis, c, c.label(), loop)) {
        return true;
      }
      if (loop.kind() == Kind.FOR_EACH_LAMBDA
          && n instanceof Stmt.Return
          && analysis.enclosingLambda(n) != null
          && analysis.forEachLoop(analysis.enclosingLambda(n)) == loop) {
        return true;
      }
    }
    return false;
  }

  /** Whether a break or continue with this label (or none) targets {@code loop}. */
  private static boolean targets(MethodAnalysis analysis, Node jump, String label, LoopInfo loop) {
    if (label != null) {
      return label.equals(loop.label());
    }
    for (Node p = analysis.parent(jump); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.Switch && jump instanceof Stmt.Break) {
        return false;
      }
      if (p instanceof Stmt.Loop) {
        return p == loop.node();
      }
      if (p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  private static boolean exitsOnSuccess(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() == Kind.FOR_EACH_LAMBDA) {
      return false; // a forEach lambda cannot leave the iteration
    }
    Node loopNode = loop.node();
    for (Node n : Nodes.sameFrame(loop.body())) {
      if (analysis.isInCatchBody(n, loopNode)) {
        continue;
      }
      if (n instanceof Stmt.Return) {
        return true;
      }
      if (n instanceof Stmt.Break b && targets(analysis, b, b.label(), loop)) {
        return true;
      }
    }
    if (loop.condition() == null) {
      return false;
    }
    Set<String> read = new HashSet<>();
    for (Node n : Nodes.sameFrame(loop.condition())) {
      if (n instanceof Expr.Name name && name.kind() != Expr.NameKind.TYPE) {
        read.add(name.name());
      }
    }
    for (Node n : Nodes.sameFrame(loop.body())) {
      if (n instanceof Expr.Assign assign
          && assign.operator().equals("=")
          && assign.target() instanceof Expr.Name target
          && read.contains(target.name())
          && !analysis.isInCatchBody(n, loopNode)) {
        return true;
      }
    }
    return false;
  }

  private static boolean countsAttempts(List<Node> level) {
    Set<String> incremented = new HashSet<>();
    for (Node n : level) {
      String counter = incrementedVariable(n);
      if (counter != null) {
        incremented.add(counter);
      }
    }
    if (incremented.isEmpty()) {
      return false;
    }
    for (Node n : level) {
      if (n instanceof Expr.ArrayAccess access) {
        incremented.removeIf(v -> Nodes.mentions(access.index(), v));
      } else if (n instanceof Expr.Call call && INDEX_CALLS.contains(call.name())) {
        for (Expr arg : call.args()) {
          if (arg instanceof Expr.Name name) {
            incremented.remove(name.name());
          }
        }
      }
    }
    for (Node n : level) {
      if (n instanceof Expr.Binary binary && isComparison(binary.operator())) {
        for (String counter : incremented) {
          if (comparesCounterWithCap(binary, counter)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static String incrementedVariable(Node n) {
    if (n instanceof Expr.Unary unary
        && (unary.operator().equals("++") || unary.operator().equals("--"))
        && unary.operand() instanceof Expr.Name name
        && name.isVariable(name.name())) {
      return name.name();
    }
    if (n instanceof Expr.Assign assign && assign.target() instanceof Expr.Name name) {
      if (!name.isVariable(name.name())) {
        return null;
      }
      if (assign.operator().equals("+=") || assign.operator().equals("-=")) {
        return name.name();
      }
      if (assign.operator().equals("=")
          && assign.value() instanceof Expr.Binary b
          && (b.operator().equals("+") || b.operator().equals("-"))
          && Nodes.mentions(b, name.name())) {
        return name.name();
      }
    }
    return null;
  }

  private static boolean comparesCounterWithCap(Expr.Binary binary, String counter) {
    boolean left = Nodes.mentions(binary.left(), counter);
    boolean right = Nodes.mentions(binary.right(), counter);
    if (left == right) {
      return false;
    }
    Expr bound = left ? binary.right() : binary.left();
    for (Node n : Nodes.preOrder(bound)) {
      if (n instanceof Expr.Call call && SIZE_NAMES.contains(call.name())) {
        return false;
      }
      if (n instanceof Expr.Name name && name.qualifier() != null && name.name().equals("length")) {
        return false;
      }
    }
    return true;
  }

  private static boolean isComparison(String operator) {
    return switch (operator) {
      case "<", "<=", ">", ">=", "==", "!=" -> true;
      default -> false;
    };
  }

  private static boolean takesItems(LoopInfo loop, List<Node> level) {
    for (Node n : level) {
      if (n instanceof Expr.Call call) {
        String name = call.name();
        if (ITEM_CALLS.contains(name) || (name.equals("poll") && call.args().isEmpty())) {
          return true;
        }
        if (name.equals("read") && loop.condition() != null && contains(loop.condition(), call)) {
          return true;
        }
        if (isRemovalFromFront(call)) {
          return true;
        }
      }
    }
    return takesItemByShape(loop);
  }

  /** {@code list.remove(0)}, {@code deque.removeFirst()}: consuming a collection. */
  private static boolean isRemovalFromFront(Expr.Call call) {
    return (call.name().equals("remove")
            && call.args().size() == 1
            && call.args().get(0) instanceof Expr.Literal index
            && Integer.valueOf(0).equals(index.value()))
        || ((call.name().equals("removeFirst") || call.name().equals("removeLast"))
            && call.args().isEmpty());
  }

  /**
   * Whether the loop fetches its next item by a call of an item-taking shape ({@code nextItem()},
   * {@code takeBatch()}, {@code popTask()}), in its condition or as the value of a local at the top
   * of its body; never a call that computes a delay ({@code nextDelay()}, {@code nextBackoff()}).
   */
  private static boolean takesItemByShape(LoopInfo loop) {
    List<Expr> fetches = new ArrayList<>();
    if (loop.condition() != null) {
      for (Node n : Nodes.sameFrame(loop.condition())) {
        if (n instanceof Expr.Call call) {
          fetches.add(call);
        }
      }
    }
    if (loop.body() instanceof Stmt.Block block && !block.statements().isEmpty()) {
      Stmt first = block.statements().get(0);
      if (first instanceof Stmt.LocalVar local && local.init() != null) {
        fetches.add(local.init());
      } else if (first instanceof Stmt.ExprStmt statement
          && statement.expr() instanceof Expr.Assign assign) {
        fetches.add(assign.value());
      }
    }
    for (Expr fetch : fetches) {
      if (fetch instanceof Expr.Call call
          && ITEM_SHAPE.matcher(call.name()).matches()
          && !NOT_AN_ITEM.matcher(call.name()).matches()) {
        return true;
      }
    }
    return false;
  }

  private static boolean sleeps(List<Node> level) {
    for (Node n : level) {
      if (n instanceof Expr.Call call && CallNames.SLEEPS.contains(call.name())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNumericRange(Expr source) {
    for (Expr e = source; e instanceof Expr.Call call; e = call.receiver()) {
      if ((call.name().equals("range") || call.name().equals("rangeClosed"))
          && call.receiver() instanceof Expr.Name type
          && (type.name().equals("IntStream") || type.name().equals("LongStream"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean contains(Node root, Node target) {
    for (Node n : Nodes.preOrder(root)) {
      if (n == target) {
        return true;
      }
    }
    return false;
  }
}
