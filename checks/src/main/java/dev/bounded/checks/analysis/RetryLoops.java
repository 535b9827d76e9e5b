package dev.bounded.checks.analysis;

import dev.bounded.checks.analysis.LoopInfo.Evidence;
import dev.bounded.checks.analysis.LoopInfo.Kind;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
 *       parkNanos});
 *   <li>a <b>failure caught in a helper</b>: the attempt is a method of the unit that catches its
 *       own failure and returns, and its result decides the round (or a stop flag ends the loop).
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
  private static final NamePattern ITEM_SHAPE =
      NamePattern.startingWith(
          "(next|take|pop|dequeue|fetchNext|poll|receive|produce)[A-Z]\\w*",
          "next",
          "take",
          "pop",
          "dequeue",
          "fetchnext",
          "poll",
          "receive",
          "produce");

  /** Names that compute the next delay, not the next item. */
  private static final NamePattern NOT_AN_ITEM =
      NamePattern.containing(
          "(?i).*(delay|backoff|wait|sleep|interval|timeout|attempt).*",
          "delay",
          "backoff",
          "wait",
          "sleep",
          "interval",
          "timeout",
          "attempt");

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
    if (loop.kind() == Kind.RECURSION) {
      classifyRecursion(analysis, loop);
      return;
    }
    if (loop.kind() == Kind.RESCHEDULE) {
      // A task that schedules itself again runs until stopped: a background loop.
      Set<Evidence> evidence = EnumSet.of(Evidence.STOP_FLAG);
      for (Node n : analysis.loopLevel(loop)) {
        if (n instanceof Stmt.Try t) {
          for (Stmt.Catch clause : t.catches()) {
            if (goesRoundAgain(analysis, clause, loop)) {
              evidence.add(Evidence.RETRYING_CATCH);
            }
          }
        }
      }
      loop.classify(evidence, false, evidence.contains(Evidence.RETRYING_CATCH));
      return;
    }
    List<Node> level = analysis.loopLevel(loop);
    Set<Evidence> evidence = EnumSet.noneOf(Evidence.class);
    if (takesItems(analysis, loop, level)) {
      evidence.add(Evidence.TAKES_ITEMS);
    }
    if (hasRetryingCatch(analysis, loop, level)) {
      evidence.add(Evidence.RETRYING_CATCH);
    }
    if (!evidence.contains(Evidence.RETRYING_CATCH) && catchesInHelper(analysis, loop, level)) {
      evidence.add(Evidence.CAUGHT_IN_HELPER);
    }
    if (exitsOnSuccess(analysis, loop)) {
      evidence.add(Evidence.EXITS_ON_SUCCESS);
    }
    if (countsAttempts(level)) {
      evidence.add(Evidence.COUNTS_ATTEMPTS);
    }
    if (sleeps(level)
        || (evidence.contains(Evidence.CAUGHT_IN_HELPER)
            && helperWaitsAfterFailure(analysis, loop, level))) {
      evidence.add(Evidence.SLEEPS);
    }
    if (loop.kind() == Kind.FOR_EACH_LAMBDA && isNumericRange(loop.iterable())) {
      evidence.add(Evidence.NUMERIC_RANGE);
    }
    boolean policyCondition = conditionAsksPolicy(loop);
    if (policyCondition || catchAsksPolicy(analysis, loop, level)) {
      evidence.add(Evidence.POLICY_DECIDED);
    }
    if (StopFlags.conditionChecksStop(loop)) {
      evidence.add(Evidence.STOP_FLAG);
    }
    Walk walk = walk(loop);
    if (walk != null) {
      boolean overNodes = overNodes(analysis, walk) && !overAlternatives(analysis, walk);
      if (overNodes) {
        evidence.add(Evidence.OVER_NODES);
      }
      if (evidence.contains(Evidence.RETRYING_CATCH)
          && evidence.contains(Evidence.EXITS_ON_SUCCESS)
          && !leavesOnlyOnMatch(analysis, loop)
          && (overNodes
              || (triesEachInTurn(analysis, loop, walk, level)
                  && !overAlternatives(analysis, walk)))) {
        evidence.add(Evidence.FAILOVER);
      }
      // The same failover with the attempt in a helper that catches its own failure ({@code
      // for (Uri resolved : resolvedList) { tryToConnect(resolved); if (isConnected()) break; }}).
      if (evidence.contains(Evidence.CAUGHT_IN_HELPER)
          && evidence.contains(Evidence.EXITS_ON_SUCCESS)
          && !overAlternatives(analysis, walk)
          && !leavesOnlyOnMatch(analysis, loop)
          && triesEachThroughHelper(analysis, loop, walk, level, overNodes)) {
        evidence.add(Evidence.FAILOVER);
      }
    }
    boolean perItem =
        evidence.contains(Evidence.TAKES_ITEMS)
            || (loop.kind() == Kind.FOR_EACH && !evidence.contains(Evidence.FAILOVER))
            || (loop.kind() == Kind.FOR_EACH_LAMBDA && !evidence.contains(Evidence.NUMERIC_RANGE));
    boolean caught =
        evidence.contains(Evidence.RETRYING_CATCH) || evidence.contains(Evidence.CAUGHT_IN_HELPER);
    boolean retries = caught || evidence.contains(Evidence.SLEEPS);
    // A loop that goes on after a success repeats the operation; it does not retry it.
    boolean leaves = evidence.contains(Evidence.EXITS_ON_SUCCESS) || policyCondition;
    boolean retry =
        (!perItem && retries && leaves)
            || (evidence.contains(Evidence.NUMERIC_RANGE)
                && evidence.contains(Evidence.RETRYING_CATCH));
    // Ended only by a stop flag, it goes round again after its operation failed: a keep-alive
    // or reconnect loop.
    boolean background =
        !retry
            && !evidence.contains(Evidence.TAKES_ITEMS)
            && loop.kind() != Kind.FOR_EACH
            && loop.kind() != Kind.FOR_EACH_LAMBDA
            && evidence.contains(Evidence.STOP_FLAG)
            && caught;
    loop.classify(evidence, retry, background);
  }

  /**
   * A method that calls itself from a catch clause retries: the recursive call is the next attempt;
   * so does one that puts its failed work back ({@link MethodAnalysis#isRequeue}). It counts
   * attempts when the call passes a parameter changed by one ({@code retries - 1}, {@code attempt +
   * 1}) that the method compares.
   */
  private static void classifyRecursion(MethodAnalysis analysis, LoopInfo loop) {
    Set<Evidence> evidence = EnumSet.of(Evidence.RETRYING_CATCH, Evidence.EXITS_ON_SUCCESS);
    List<Node> level = analysis.loopLevel(loop);
    if (recursesOnlyWhenNotFound(analysis, level)) {
      // catch (NoSuchFieldException e) { return find(type.getSuperclass(), name); }: a search up
      // a hierarchy or along a path, not a retry of a failed operation.
      loop.classify(EnumSet.noneOf(Evidence.class), false, false);
      return;
    }
    if (sleeps(level)) {
      evidence.add(Evidence.SLEEPS);
    }
    if (retriesOnlyThroughHelper(analysis, level)) {
      // The helper decides whether to go round (onExceptionImpl: tmp <= timesTotal): its cap is
      // not this method's to see.
      evidence.add(Evidence.POLICY_DECIDED);
    }
    Set<String> stepped = new HashSet<>();
    for (Node n : level) {
      if (n instanceof Expr.Call call
          && analysis.isSelfCall(call)
          && call.args().size() == analysis.method().params().size()) {
        for (int i = 0; i < call.args().size(); i++) {
          if (isStep(call.args().get(i), analysis.method().params().get(i).name())) {
            stepped.add(analysis.method().params().get(i).name());
          }
        }
      }
    }
    // A re-queued item that counts its own tries: int retries = event.incrementRetries();
    for (Node n : level) {
      if (n instanceof Stmt.LocalVar local
          && local.init() instanceof Expr.Call count
          && SELF_COUNT.matches(count.name())) {
        stepped.add(local.name());
      }
    }
    for (Node n : level) {
      if (n instanceof Expr.Binary binary && isComparison(binary.operator())) {
        for (String counter : stepped) {
          if (comparesCounterWithCap(binary, counter)) {
            evidence.add(Evidence.COUNTS_ATTEMPTS);
          }
        }
      }
    }
    loop.classify(evidence, true, false);
  }

  /**
   * Failures that say "too small": the buffer the attempt was given cannot hold the result. A loop
   * that catches one and goes round with a bigger buffer grows it until the result fits; it retries
   * nothing that failed.
   */
  private static final Set<String> CAPACITY =
      Set.of(
          "BufferOverflowException",
          "BufferUnderflowException",
          "ArrayIndexOutOfBoundsException",
          "IndexOutOfBoundsException");

  /**
   * Whether a clause catches only failures of the given simple names: by type where known, else as
   * written (a type neither on the class path nor in the scanned files).
   */
  private static boolean catchesOnly(
      MethodAnalysis analysis, Stmt.Catch clause, Set<String> simpleNames) {
    if (clause.types().isEmpty()) {
      return false;
    }
    for (int i = 0; i < clause.types().size(); i++) {
      TypeRef type = clause.types().get(i);
      String simple =
          type.isKnown() || i >= clause.typeSpans().size()
              ? type.simpleName()
              : simpleName(analysis.context().text(clause.typeSpans().get(i)));
      if (!simpleNames.contains(simple)) {
        return false;
      }
    }
    return true;
  }

  /** The element type of {@code new Exception[n]}, as written: a failure's name. */
  private static final java.util.regex.Pattern FAILURE_ARRAY =
      java.util.regex.Pattern.compile(
          "new\\s+[\\w.]*(Exception|Throwable|Error|Failure)\\s*\\[.*",
          java.util.regex.Pattern.DOTALL);

  /** Whether a new array holds failures ({@code new Throwable[n]}), whose text says so. */
  private static boolean isFailureArray(MethodAnalysis analysis, Expr.Other array) {
    return array.span().isKnown()
        && FAILURE_ARRAY.matcher(analysis.context().text(array.span())).matches();
  }

  /**
   * Calls that make a bigger buffer: {@code ByteBuffer.allocate(n)}, {@code Arrays.copyOf(a, n)}.
   */
  private static final Set<String> ALLOCATIONS =
      Set.of("allocate", "allocateDirect", "copyOf", "copyOfRange", "ensureCapacity");

  /**
   * Whether a catch clause makes a new buffer for the next round ({@code buf = new byte[size * 2]},
   * {@code ByteBuffer bigger = ByteBuffer.allocate(e.getPreferredSize())}): whatever the failure is
   * called, the handler answers "too small" by growing the buffer, and going round retries nothing
   * that failed. An array of failures is no buffer: {@code exceptions = new
   * Exception[seeds.length]} keeps each node's failure of a failover.
   */
  private static boolean growsBuffer(MethodAnalysis analysis, Stmt.Catch clause) {
    for (Node n : Nodes.sameFrame(clause.body())) {
      Expr made =
          n instanceof Stmt.LocalVar local
              ? local.init()
              : n instanceof Expr.Assign assign && assign.operator().equals("=")
                  ? assign.value()
                  : null;
      if (made instanceof Expr.Call call && ALLOCATIONS.contains(call.name())) {
        return true;
      }
      if (made instanceof Expr.Other other
          && other.description().equals("new array")
          && !other.children().isEmpty()
          && !isFailureArray(analysis, other)) {
        return true;
      }
      if (n instanceof Stmt.ExprStmt e
          && e.expr() instanceof Expr.Call call
          && call.name().equals("ensureCapacity")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Failures that say "not yet": {@code Process.exitValue()} while the process still runs. A loop
   * that catches one and goes round polls for the process's end; it retries nothing that failed.
   */
  private static final Set<String> NOT_YET = Set.of("IllegalThreadStateException"); // java.lang

  /** Failures that say "not here": a lookup that may succeed elsewhere, not a transient fault. */
  private static final Set<String> NOT_FOUND =
      Set.of(
          "NoSuchFieldException", // java.lang
          "NoSuchMethodException", // java.lang
          "ClassNotFoundException", // java.lang
          "MissingResourceException", // java.util
          "FileNotFoundException", // java.io
          "NoSuchFileException"); // java.nio.file

  /**
   * Whether every catch clause that makes the recursive call catches only a "not here" failure
   * ({@link #NOT_FOUND}).
   */
  private static boolean recursesOnlyWhenNotFound(MethodAnalysis analysis, List<Node> level) {
    boolean any = false;
    for (Node n : level) {
      if (n instanceof Stmt.Catch clause && callsItself(analysis, clause)) {
        if (!catchesOnly(analysis, clause, NOT_FOUND)) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  private static String simpleName(String written) {
    return written.substring(written.lastIndexOf('.') + 1).strip();
  }

  /** Whether every call that starts the next attempt goes through a helper that calls back. */
  private static boolean retriesOnlyThroughHelper(MethodAnalysis analysis, List<Node> level) {
    boolean throughHelper = false;
    for (Node n : level) {
      if (n instanceof Expr.Call call) {
        if (analysis.isSelfCall(call) || analysis.isRequeue(call)) {
          return false;
        }
        throughHelper |= analysis.isRetryThroughHelper(call);
      }
    }
    return throughHelper;
  }

  private static boolean callsItself(MethodAnalysis analysis, Stmt.Catch clause) {
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Expr.Call call && analysis.isSelfCall(call)) {
        return true;
      }
    }
    return false;
  }

  /** {@code p - 1}, {@code p + 1}, {@code --p}, {@code ++p}: the parameter moved by a step. */
  private static boolean isStep(Expr arg, String param) {
    if (arg instanceof Expr.Unary unary
        && (unary.operator().equals("--") || unary.operator().equals("++"))) {
      return Nodes.mentions(unary.operand(), param);
    }
    return arg instanceof Expr.Binary binary
        && (binary.operator().equals("-") || binary.operator().equals("+"))
        && Nodes.mentions(binary, param);
  }

  /** Calls by which an item counts its own tries: {@code event.incrementRetries()}. */
  private static final NamePattern SELF_COUNT =
      NamePattern.startingWith(
          "(?i)(increment\\w*|getAndIncrement|incrementAndGet)", "increment", "getAndIncrement");

  /** Names of methods that may take items from a queue themselves: {@code flushTraceContext()}. */
  private static final NamePattern ITEM_TAKER =
      NamePattern.containing(
          "(?i).*(flush|drain|consume|dispatch|process|handle|deliver).*",
          "flush",
          "drain",
          "consume",
          "dispatch",
          "process",
          "handle",
          "deliver");

  /** Names of calls by which a retry policy decides whether to go round again. */
  private static final NamePattern POLICY_CALL =
      NamePattern.startingWith(
          "(?i)(should|can|may|allow|is)(retry|retried|continue|reattempt|attempt\\w*|failover)\\w*"
              + "|retry\\w*|next(back[oO]ff|delay|attempt|interval|retry)\\w*|hasAttempts\\w*"
              + "|has(more|remaining)(attempts|retries)\\w*",
          "should",
          "can",
          "may",
          "allow",
          "is",
          "retry",
          "next",
          "has");

  /**
   * Names of objects that decide retries: {@code retryPolicy}, {@code backoff}, {@code retryLoop}.
   */
  private static final NamePattern POLICY_HOLDER =
      NamePattern.containing(
          "(?i).*(retry|retries|retrier|backoff|back_off|policy|policies).*",
          "retr",
          "backoff",
          "back_off",
          "polic");

  /** Names of calls that record the success of an attempt for the loop condition to see. */
  private static final NamePattern SUCCESS_MARK =
      NamePattern.startingWith(
          "(?i)(mark\\w*|set(done|complete\\w*|success\\w*|succeeded)|complete|succeed\\w*|success)",
          "mark",
          "set",
          "complete",
          "succe");

  /**
   * Whether the loop's condition asks a retry policy whether to go round ({@code
   * retryLoop.shouldContinue()}, {@code policy.canRetry(attempt)}).
   */
  private static boolean conditionAsksPolicy(LoopInfo loop) {
    if (loop.condition() != null) {
      for (Node n : Nodes.sameFrame(loop.condition())) {
        if (n instanceof Expr.Call call && isPolicyCall(call)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a catch clause of the loop asks a policy call before going round. */
  private static boolean catchAsksPolicy(MethodAnalysis analysis, LoopInfo loop, List<Node> level) {
    for (Node n : level) {
      if (n instanceof Stmt.If check && analysis.isInCatchBody(check, loop.node())) {
        for (Node m : Nodes.sameFrame(check.condition())) {
          if (m instanceof Expr.Call call && isPolicyCall(call)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean isPolicyCall(Expr.Call call) {
    if (POLICY_CALL.matches(call.name())) {
      return true;
    }
    return call.receiver() instanceof Expr.Name holder
        && POLICY_HOLDER.matches(holder.name())
        && !NamePattern.isConstantName(holder.name());
  }

  /**
   * A loop that walks the elements of an array or a collection, one per round.
   *
   * @param element the variable that holds the round's element
   * @param source the array or collection walked
   */
  record Walk(Stmt.LocalVar element, Expr source) {}

  /**
   * The walk a loop is: a for-each ({@code for (Host seed : seeds)}), or the same written with an
   * index ({@code for (int i = 0; i < seeds.length; i++) { Host seed = seeds[i]; ..}}, also {@code
   * seeds.size()} and {@code seeds.get(i)}), whose first statement takes the round's element into a
   * local; else {@code null}.
   */
  static Walk walk(LoopInfo loop) {
    if (!(loop.node() instanceof Stmt.Loop statement)) {
      return null;
    }
    if (loop.kind() == Kind.FOR_EACH) {
      return statement.variable() == null
          ? null
          : new Walk(statement.variable(), statement.iterable());
    }
    if (loop.kind() != Kind.FOR
        || statement.init().size() != 1
        || !(statement.init().get(0) instanceof Stmt.LocalVar counter)
        || !(statement.condition() instanceof Expr.Binary bound)
        || !bound.operator().equals("<")
        || !(bound.left() instanceof Expr.Name index)
        || !index.name().equals(counter.name())
        || !(statement.body() instanceof Stmt.Block block)
        || block.statements().isEmpty()
        || !(block.statements().get(0) instanceof Stmt.LocalVar element)) {
      return null;
    }
    Expr source = sizedSource(bound.right());
    Expr taken = element.init();
    Expr from =
        taken instanceof Expr.ArrayAccess access && isName(access.index(), counter.name())
            ? access.array()
            : taken instanceof Expr.Call get
                    && get.name().equals("get")
                    && get.args().size() == 1
                    && isName(get.args().get(0), counter.name())
                ? get.receiver()
                : null;
    return source != null && from != null && sameName(source, from)
        ? new Walk(element, source)
        : null;
  }

  /** {@code seeds} of {@code seeds.length} or {@code seeds.size()}, else {@code null}. */
  private static Expr sizedSource(Expr size) {
    if (size instanceof Expr.Name length
        && length.name().equals("length")
        && length.qualifier() != null) {
      return length.qualifier();
    }
    if (size instanceof Expr.Call call && call.name().equals("size") && call.args().isEmpty()) {
      return call.receiver();
    }
    return null;
  }

  private static boolean isName(Expr expr, String name) {
    return expr instanceof Expr.Name n && n.qualifier() == null && n.name().equals(name);
  }

  /**
   * Whether two expressions name the same variable or field ({@code seeds}, {@code this.seeds}).
   */
  private static boolean sameName(Expr a, Expr b) {
    return a instanceof Expr.Name x && b instanceof Expr.Name y && x.name().equals(y.name());
  }

  /**
   * Whether a for-each tries one operation on each element in turn until one succeeds, whatever the
   * elements are called: a try block that uses the element ({@code adminBiz.registry(..)}, {@code
   * fetch(service.getUrl())}) and a catch that goes on to the next one after an I/O failure or any
   * exception ({@code IOException} or a subtype, {@code Exception}, {@code RuntimeException},
   * {@code Throwable}). A catch of one specific failure that says "not here" ({@code
   * ClassNotFoundException} while walking class loaders) is a search, not a failover.
   */
  private static boolean triesEachInTurn(
      MethodAnalysis analysis, LoopInfo loop, Walk walk, List<Node> level) {
    Stmt.LocalVar variable = walk.element();
    if (!Nodes.mentions(loop.body(), variable.name())) {
      return false;
    }
    for (Node node : level) {
      if (node instanceof Stmt.Try t
          && Nodes.calls(t.body()).stream().noneMatch(c -> SEARCHES.matcher(c.name()).matches())) {
        for (Stmt.Catch clause : t.catches()) {
          if (goesRoundAgain(analysis, clause, loop) && catchesTransportFailures(clause)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Calls that look something up locally: a loop that tries them on each element in turn (class
   * loaders, parsers, formats) searches; it does not fail over.
   */
  private static final java.util.regex.Pattern SEARCHES =
      java.util.regex.Pattern.compile(
          "loadClass|findClass|forName|getResource\\w*|parse\\w*|valueOf|decode\\w*|newInstance"
              + "|getMethod|getField|getDeclared\\w*|getConstructor|verify|test|matches");

  private static boolean catchesTransportFailures(Stmt.Catch clause) {
    for (TypeRef type : clause.types()) {
      if (type.isSubtypeOf("java.io.IOException")
          || type.isSupertypeOf("java.io.IOException")
          || type.name().equals("java.lang.RuntimeException")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Names of the alternatives a chain walks, each asked once: providers, strategies, interceptors,
   * handlers, loaders. A loop over them that goes on after a failure asks the next one; it does not
   * try one operation again elsewhere.
   */
  private static final java.util.regex.Pattern ALTERNATIVES =
      java.util.regex.Pattern.compile(
          "(?i).*(provider|strateg|interceptor|chain|handler|listener|loader|plugin|extension"
              + "|filter|converter|callback|hook|factory|factories|method|visitor|observer).*");

  /**
   * Whether a for-each walks a chain of alternatives ({@link #ALTERNATIVES}, by the element's name
   * or type or the iterable's text) or a constant list ({@code for (MethodHandle m :
   * LOCATION_METHODS)}): each is asked once, so it is no failover.
   */
  private static boolean overAlternatives(MethodAnalysis analysis, Walk walk) {
    Stmt.LocalVar variable = walk.element();
    if (ALTERNATIVES.matcher(variable.name()).matches()
        || ALTERNATIVES.matcher(variable.type().simpleName()).matches()) {
      return true;
    }
    Expr iterable = walk.source();
    if (iterable instanceof Expr.Name name && NamePattern.isConstantName(name.name())) {
      return true;
    }
    return iterable != null
        && iterable.span().isKnown()
        && ALTERNATIVES.matcher(analysis.context().text(iterable.span())).matches();
  }

  /** Whether a walk goes over nodes or addresses (by the names and types it is written with). */
  private static boolean overNodes(MethodAnalysis analysis, Walk walk) {
    Stmt.LocalVar variable = walk.element();
    if (CallNames.isNodeName(variable.name())
        || CallNames.isNodeName(variable.type().simpleName())) {
      return true;
    }
    Expr iterable = walk.source();
    if (iterable != null && iterable.span().isKnown()) {
      String text = analysis.context().text(iterable.span());
      return CallNames.isNodeName(text);
    }
    return false;
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
    if (loop.kind() == Kind.RESCHEDULE) {
      // Rescheduled after the failure: in the handler, in a finally, or after the try.
      Stmt.Try t = analysis.tryOf(clause);
      for (Node n : analysis.bodyFrameNodes()) {
        if (n instanceof Expr.Call call
            && analysis.isSelfReschedule(call)
            && n.span().isKnown()
            && t.body().span().isKnown()
            && (n.span().start() >= t.body().span().end())
            && (Flow.canCompleteNormally(clause.body()) || clause.span().contains(n.span()))) {
          return true;
        }
      }
      return false;
    }
    if (loop.kind() == Kind.RECURSION) {
      for (Node n : Nodes.sameFrame(clause.body())) {
        if (n instanceof Expr.Call call && analysis.isNextAttempt(call)) {
          return true;
        }
      }
      return false;
    }
    if (endsLoop(analysis, clause, loop)) {
      return false;
    }
    if (continuesLoop(analysis, clause.body(), loop)) {
      return true;
    }
    return Flow.canCompleteNormally(clause.body())
        && reachesEndOfBody(analysis, analysis.tryOf(clause), loop);
  }

  /**
   * Whether the clause stops the loop it is in: a statement of its own, or of a method of the unit
   * it calls ({@code stop()}, one call deep), sets a flag the loop's condition reads to a value
   * that makes the condition false ({@code done.set(true)} under {@code while (!done.get())},
   * {@code running = false}, {@code state = STOPPED} under {@code while (state != STOPPED)}). The
   * loop then ends after this round: the clause does not go round again. Only statements the clause
   * always runs count (not those under an {@code if}); a flag set so that the loop goes on ({@code
   * retry = true} under {@code while (retry)}) does not.
   */
  private static boolean endsLoop(MethodAnalysis analysis, Stmt.Catch clause, LoopInfo loop) {
    if (loop.condition() == null || loop.kind() == Kind.FOR_EACH) {
      return false;
    }
    Map<String, Object> written = new HashMap<>();
    writtenFlags(analysis, clause.body(), written, 1);
    return !written.isEmpty() && Boolean.FALSE.equals(valueWith(loop.condition(), written));
  }

  /** Setters of atomic holders. */
  private static final Set<String> SETTERS =
      Set.of("set", "lazySet", "setRelease", "setPlain", "setOpaque", "getAndSet");

  /** Getters of atomic holders. */
  private static final Set<String> GETTERS = Set.of("get", "getPlain", "getAcquire", "getOpaque");

  /**
   * Collects the flags a block's own statements always set: name to {@link Boolean} or to the
   * simple name of a constant; follows calls of the unit's methods {@code depth} levels deep.
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  private static void writtenFlags(
      MethodAnalysis analysis, Stmt body, Map<String, Object> written, int depth) {
    if (!(body instanceof Stmt.Block block)) {
      return;
    }
    for (Stmt statement : block.statements()) {
      if (!(statement instanceof Stmt.ExprStmt e)) {
        continue;
      }
      if (e.expr() instanceof Expr.Assign assign
          && assign.operator().equals("=")
          && assign.target() instanceof Expr.Name target) {
        Object value = flagValue(assign.value());
        if (value != null) {
          written.put(target.name(), value);
        }
      } else if (e.expr() instanceof Expr.Call call) {
        if (SETTERS.contains(call.name())
            && call.args().size() == 1
            && call.receiver() instanceof Expr.Name holder) {
          Object value = flagValue(call.args().get(0));
          if (value != null) {
            written.put(holder.name(), value);
          }
        } else if (depth > 0
            && (call.receiver() == null
                || (call.receiver() instanceof Expr.Name self && self.name().equals("this")))) {
          MethodModel callee = analysis.context().unit().declarationOf(call);
          if (callee != null && callee != analysis.method()) {
            writtenFlags(analysis, callee.body(), written, depth - 1);
          }
        }
      }
    }
  }

  /** A boolean literal, or the simple name of a constant ({@code State.STOPPED}). */
  private static Object flagValue(Expr value) {
    if (value instanceof Expr.Literal literal && literal.value() instanceof Boolean b) {
      return b;
    }
    if (value instanceof Expr.Name name && NamePattern.isConstantName(name.name())) {
      return name.name();
    }
    return null;
  }

  /**
   * The value of a condition once the written flags hold, in three values: {@code TRUE}, {@code
   * FALSE}, or {@code null} when it depends on anything else.
   */
  private static Boolean valueWith(Expr condition, Map<String, Object> written) {
    if (condition instanceof Expr.Literal literal && literal.value() instanceof Boolean b) {
      return b;
    }
    Object read = flagRead(condition, written);
    if (read instanceof Boolean b) {
      return b;
    }
    if (condition instanceof Expr.Unary not && not.operator().equals("!")) {
      Boolean operand = valueWith(not.operand(), written);
      return operand == null ? null : !operand;
    }
    if (condition instanceof Expr.Binary binary) {
      switch (binary.operator()) {
        case "&&" -> {
          Boolean left = valueWith(binary.left(), written);
          Boolean right = valueWith(binary.right(), written);
          if (Boolean.FALSE.equals(left) || Boolean.FALSE.equals(right)) {
            return false;
          }
          return (Boolean.TRUE.equals(left) && Boolean.TRUE.equals(right)) ? true : null;
        }
        case "||" -> {
          Boolean left = valueWith(binary.left(), written);
          Boolean right = valueWith(binary.right(), written);
          if (Boolean.TRUE.equals(left) || Boolean.TRUE.equals(right)) {
            return true;
          }
          return (Boolean.FALSE.equals(left) && Boolean.FALSE.equals(right)) ? false : null;
        }
        case "==", "!=" -> {
          Object left = flagRead(binary.left(), written);
          Object right = flagRead(binary.right(), written);
          String constant =
              left instanceof String
                  ? constantName(binary.right())
                  : right instanceof String ? constantName(binary.left()) : null;
          Object state = left instanceof String ? left : right;
          if (constant == null || !(state instanceof String)) {
            return null;
          }
          return binary.operator().equals("==") == state.equals(constant);
        }
        default -> {
          return null;
        }
      }
    }
    return null;
  }

  /** What a written flag holds where the condition reads it ({@code done}, {@code done.get()}). */
  private static Object flagRead(Expr expr, Map<String, Object> written) {
    if (expr instanceof Expr.Name name && name.kind() != Expr.NameKind.TYPE) {
      return written.get(name.name());
    }
    if (expr instanceof Expr.Call call
        && call.args().isEmpty()
        && GETTERS.contains(call.name())
        && call.receiver() instanceof Expr.Name holder) {
      return written.get(holder.name());
    }
    return null;
  }

  private static String constantName(Expr expr) {
    return expr instanceof Expr.Name name && NamePattern.isConstantName(name.name())
        ? name.name()
        : null;
  }

  private static boolean hasRetryingCatch(
      MethodAnalysis analysis, LoopInfo loop, List<Node> level) {
    for (Node node : level) {
      if (node instanceof Stmt.Try t && !onlyWaits(t)) {
        for (Stmt.Catch clause : t.catches()) {
          if (goesRoundAgain(analysis, clause, loop)
              && !catchesOnly(analysis, clause, CAPACITY)
              && !catchesOnly(analysis, clause, NOT_FOUND)
              && !catchesOnly(analysis, clause, NOT_YET)
              && !growsBuffer(analysis, clause)) {
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

  /**
   * Whether the loop's attempt is a helper of the unit that catches its own failure: a call at the
   * loop's level, outside its catch clauses, to another method of the unit whose frame has no loop
   * of its own and a try block around an operation (not only a pause or a clean-up) with a clause
   * that completes or returns ({@code while (!shutdown) { sleep(interval); manage(); }} where
   * {@code manage()} logs and counts an {@code Exception}; {@code socket = createSocket()} that
   * returns {@code null} after an {@code IOException}).
   */
  private static boolean catchesInHelper(MethodAnalysis analysis, LoopInfo loop, List<Node> level) {
    for (Node n : level) {
      MethodModel helper = helperCalled(analysis, loop, n);
      if (helper != null
          && (StopFlags.conditionChecksStop(loop)
              || decidesRound(analysis, (Expr.Call) n, loop)
              || failsOverThrough(analysis, loop, (Expr.Call) n))
          && !swallowingClauses(analysis, helper).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a walk hands each element to the helper and leaves on success, so that a failure the
   * helper swallows sends the walk on to the next element: a failover whose attempt is the helper
   * ({@code for (Uri resolved : resolvedList) { tryToConnect(cur, resolved); if (isConnected()) {
   * break; } }}). The helper's result need not be tested: the loop's own success exit decides.
   */
  private static boolean failsOverThrough(MethodAnalysis analysis, LoopInfo loop, Expr.Call call) {
    Walk walk = walk(loop);
    return walk != null
        && handsElement(call, walk)
        && !QUESTION.matcher(call.name()).matches()
        && !overAlternatives(analysis, walk)
        && !leavesWhatever(analysis, call, loop)
        && exitsOnSuccess(analysis, loop);
  }

  /**
   * Whether the loop is left after the call whatever its outcome: the call is part of a {@code
   * return} or {@code throw} ({@code return readSession(item);}), or a statement after it in its
   * block leaves ({@code if (url.equals(reported)) { probe(url); break; }}). A failure the callee
   * swallows then sends the loop nowhere.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean leavesWhatever(MethodAnalysis analysis, Expr.Call call, LoopInfo loop) {
    Node child = call;
    for (Node p = analysis.parent(call);
        p != null && p != loop.node();
        child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Return || p instanceof Stmt.Throw) {
        return true;
      }
      if (p instanceof Stmt.Block block) {
        boolean after = false;
        for (Stmt statement : block.statements()) {
          if (after && (statement instanceof Stmt.Break || statement instanceof Stmt.Return)) {
            return true;
          }
          after |= statement == child;
        }
      }
    }
    return false;
  }

  private static boolean handsElement(Expr.Call call, Walk walk) {
    for (Expr arg : call.args()) {
      if (Nodes.mentions(arg, walk.element().name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every jump that leaves the loop outside its catch clauses sits under a test that
   * compares two values the code computes ({@code if (address.equals(node.address.getAddress()))
   * return true;}, {@code if (h.name.equals(node.host.name)) ..}): the walk looks for a match among
   * the elements (a peer whose resolved address is a known node's), it does not fail an operation
   * over to the next one. A comparison with a literal or a constant ({@code "OK".equals(reply)})
   * checks an outcome: a success exit.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean leavesOnlyOnMatch(MethodAnalysis analysis, LoopInfo loop) {
    boolean any = false;
    for (Node n : Nodes.sameFrame(loop.body())) {
      if (!(n instanceof Stmt.Return || n instanceof Stmt.Break)
          || analysis.isInCatchBody(n, loop.node())) {
        continue;
      }
      boolean matched = false;
      Node child = n;
      for (Node p = analysis.parent(n);
          p != null && p != loop.node();
          child = p, p = analysis.parent(p)) {
        if (p instanceof Stmt.If check
            && check.then() == child
            && comparesValues(check.condition())) {
          matched = true;
          break;
        }
      }
      if (!matched) {
        return false;
      }
      any = true;
    }
    return any;
  }

  /** Whether a condition calls {@code equals} on two computed values (no literal, no constant). */
  private static boolean comparesValues(Expr condition) {
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Call call
          && (call.name().equals("equals") || call.name().equals("equalsIgnoreCase"))
          && call.receiver() != null
          && call.args().size() == 1
          && isComputed(call.receiver())
          && isComputed(call.args().get(0))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isComputed(Expr expr) {
    return !(expr instanceof Expr.Literal)
        && !(expr instanceof Expr.Name name && NamePattern.isConstantName(name.name()));
  }

  /**
   * Whether a walk tries each element in turn through a helper ({@link #triesEachInTurn} one call
   * deep): a call at the loop's level hands the element to a helper of the unit that swallows its
   * failure, over nodes or with a clause that catches an I/O failure or any exception. A helper
   * named for a question ({@code isPriority(uri)}, {@code compareURIs(candidate, uri)}, {@code
   * matches..}, {@code contains..}) tests each element: the walk searches, it does not fail over.
   */
  private static boolean triesEachThroughHelper(
      MethodAnalysis analysis, LoopInfo loop, Walk walk, List<Node> level, boolean overNodes) {
    for (Node n : level) {
      MethodModel helper = helperCalled(analysis, loop, n);
      if (helper == null
          || !handsElement((Expr.Call) n, walk)
          || QUESTION.matcher(helper.name()).matches()) {
        continue;
      }
      for (Stmt.Catch clause : swallowingClauses(analysis, helper)) {
        if (overNodes || catchesTransportFailures(clause)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Names of methods that answer a question about what they are given. */
  private static final java.util.regex.Pattern QUESTION =
      java.util.regex.Pattern.compile(
          "(is|has|can|compare|equals|matches|contains|same)([A-Z_]\\w*)?");

  /**
   * The other method of the unit, with a body, that a node at the loop's level calls outside the
   * loop's catch clauses; {@code null} when the node is no such call.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static MethodModel helperCalled(MethodAnalysis analysis, LoopInfo loop, Node n) {
    if (!(n instanceof Expr.Call call) || analysis.isInCatchBody(n, loop.node())) {
      return null;
    }
    MethodModel helper = analysis.context().unit().declarationOf(call);
    return helper == null || helper == analysis.method() || helper.body() == null ? null : helper;
  }

  /**
   * Whether a helper that catches its own failure ({@link #catchesInHelper}) waits in the clause
   * that swallows it: a sleep, or a call named for a backoff ({@code
   * reconnectionManager.handleLinearBackoff()}). The loop around it then sleeps between attempts,
   * one call deep.
   */
  private static boolean helperWaitsAfterFailure(
      MethodAnalysis analysis, LoopInfo loop, List<Node> level) {
    for (Node n : level) {
      MethodModel helper = helperCalled(analysis, loop, n);
      if (helper == null) {
        continue;
      }
      for (Stmt.Catch clause : swallowingClauses(analysis, helper)) {
        for (Expr.Call inner : Nodes.calls(clause.body())) {
          if (CallNames.SLEEPS.contains(inner.name()) || BACKOFF_CALL.matches(inner.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Names of calls that back off: {@code backoff()}, {@code handleLinearBackoff()}. */
  private static final NamePattern BACKOFF_CALL =
      NamePattern.containing("(?i).*back_?off.*", "back");

  /**
   * Whether the helper's result decides whether the loop goes round: the call is in the loop's
   * condition, in the condition of an {@code if} that leaves the loop, or gives the value of a
   * variable the loop's condition reads ({@code socket = createSocket()} in {@code while (socket ==
   * null)}). Without a stop flag, a helper whose result nothing tests is one step of a loop that
   * goes round for another reason (a worker that runs one task, then waits for the next).
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean decidesRound(MethodAnalysis analysis, Expr.Call call, LoopInfo loop) {
    Node child = call;
    for (Node p = analysis.parent(call); p != null; child = p, p = analysis.parent(p)) {
      if (p == loop.node()) {
        return child == loop.condition();
      }
      if (p instanceof Stmt.If check
          && check.condition() == child
          && !Flow.canCompleteNormally(check.then())) {
        return true;
      }
      String assigned =
          p instanceof Stmt.LocalVar local && local.init() == child
              ? local.name()
              : p instanceof Expr.Assign assign
                      && assign.value() == child
                      && assign.target() instanceof Expr.Name target
                  ? target.name()
                  : null;
      if (assigned != null) {
        return loop.condition() != null && Nodes.readsName(loop.condition(), assigned);
      }
      if (p instanceof Stmt || p instanceof Expr.Lambda) {
        return false;
      }
    }
    return false;
  }

  /** Calls that clean up rather than attempt an operation: their failures are not retried. */
  private static final Set<String> CLEAN_UPS =
      Set.of(
          "close",
          "closeQuietly",
          "shutdown",
          "shutdownNow",
          "release",
          "cancel",
          "stop",
          "disconnect",
          "destroy",
          "dispose",
          "interrupt",
          "unlock",
          "remove",
          "delete");

  /**
   * The clauses of an attempt helper that catch its own failure and let the caller's loop go round
   * ({@link #swallows}); none when the body is no attempt ({@link #isAttemptHelper}).
   */
  private static List<Stmt.Catch> swallowingClauses(MethodAnalysis analysis, MethodModel helper) {
    if (!isAttemptHelper(helper.body())) {
      return List.of();
    }
    List<Stmt.Catch> clauses = new ArrayList<>();
    for (Node n : Nodes.sameFrame(helper.body())) {
      if (n instanceof Stmt.Try t) {
        for (Stmt.Catch clause : t.catches()) {
          if (swallows(analysis, t, clause)) {
            clauses.add(clause);
          }
        }
      }
    }
    return clauses;
  }

  /**
   * Whether a clause of a helper without loops catches its attempt's failure and lets the caller's
   * loop go round: see {@link #catchesInHelper}.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean swallowsAttemptFailure(MethodAnalysis helper, Stmt.Catch clause) {
    if (helper.method().body() == null || !isAttemptHelper(helper.method().body())) {
      return false;
    }
    Stmt.Try t = helper.tryOf(clause);
    // A clause in a lambda of the helper ({@code () -> { try { softPing(); } catch (Exception e)
    // {} }}, a timer's task) catches a failure of that task, not of the helper's attempt.
    return Nodes.sameFrame(helper.method().body()).stream().anyMatch(n -> n == t)
        && swallows(helper, t, clause);
  }

  /**
   * Whether a method's body can be one attempt of a caller's loop: it takes no item ({@code
   * messageQueue.dequeueNoWait()}: each round then handles another item, not the same attempt), and
   * it has no loop of its own (then it is judged as a loop) except a session's loop that a try
   * statement of the body wraps whole, with no catch clause inside the loop ({@code try { while
   * (!isDone()) { conn.processResponse(); } } catch (RuntimeException e) { log(e); }}): a failure
   * ends the session, and the caller's loop starts the next one.
   */
  private static boolean isAttemptHelper(Node body) {
    return !takesAnItem(body) && loopsOnlyAsGuardedSessions(body);
  }

  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean loopsOnlyAsGuardedSessions(Node body) {
    List<Stmt.Try> guards = new ArrayList<>();
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Stmt.Try t && !t.catches().isEmpty()) {
        guards.add(t);
      }
    }
    for (Node n : Nodes.sameFrame(body)) {
      if (!(n instanceof Stmt.Loop loop)) {
        continue;
      }
      // A session goes on until it is stopped or ends: a while or do loop on a stop check (or
      // for ever), not a walk over a collection or a count.
      if ((loop.kind() != Stmt.LoopKind.WHILE && loop.kind() != Stmt.LoopKind.DO_WHILE)
          || !(loop.condition() == null
              || Flow.isTrue(loop.condition())
              || StopFlags.checksStop(loop.condition()))) {
        return false;
      }
      for (Node inner : Nodes.sameFrame(loop.body())) {
        if (inner instanceof Stmt.Catch) {
          return false;
        }
      }
      boolean guarded = false;
      for (Stmt.Try t : guards) {
        if (Nodes.preOrder(t.body()).stream().anyMatch(m -> m == loop)) {
          guarded = true;
          break;
        }
      }
      if (!guarded) {
        return false;
      }
    }
    return true;
  }

  private static boolean swallows(MethodAnalysis analysis, Stmt.Try t, Stmt.Catch clause) {
    return !onlyWaits(t)
        && attempts(t.body())
        && !handsOn(clause)
        && !catchesOnly(analysis, clause, CAPACITY)
        && !catchesOnly(analysis, clause, NOT_FOUND)
        && !catchesOnly(analysis, clause, NOT_YET)
        && !catchesOnly(analysis, clause, CallNames.INTERRUPT_TYPES)
        && (Flow.canCompleteNormally(clause.body()) || returnsIn(clause.body()));
  }

  private static boolean takesAnItem(Node body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Expr.Call call
          && ((ITEM_CALLS.contains(call.name()) && !call.name().equals("accept"))
              || (call.name().equals("poll") && call.args().isEmpty())
              || (ITEM_SHAPE.matches(call.name())
                  && call.args().isEmpty()
                  && !namesADelay(call)
                  && !RANDOM_DRAWS.contains(call.name()))
              || isRemovalFromFront(call))) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code nextDelay()}, {@code nextBackoff()}: a computed delay, not an item ({@code ..NoWait}
   * is).
   */
  private static boolean namesADelay(Expr.Call call) {
    String name = call.name().toLowerCase(Locale.ROOT);
    return name.contains("delay")
        || name.contains("backoff")
        || name.contains("interval")
        || name.contains("timeout")
        || name.contains("sleep")
        || name.contains("attempt");
  }

  /**
   * Calls that hand a failure to whoever waits for the outcome: the request's owner hears of it,
   * and the caller's loop goes on to other work rather than trying this one again.
   */
  private static final Set<String> HAND_ONS =
      Set.of(
          "completeExceptionally",
          "completeWithError",
          "setException",
          "onError",
          "onFailure",
          "onException",
          "onThrowable",
          "onCompletion",
          "onComplete",
          "fail",
          "failed",
          "reject",
          "resumeWithException");

  /**
   * Whether a clause hands the caught failure on ({@code callback.onCompletion(new
   * ConnectException(.., t), null)}, {@code future.completeExceptionally(e)}).
   */
  private static boolean handsOn(Stmt.Catch clause) {
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Expr.Call call
          && HAND_ONS.contains(call.name())
          && call.args().stream().anyMatch(a -> Nodes.mentions(a, clause.parameter()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a try block attempts an operation: it calls something other than a clean-up or a log,
   * and looks nothing up locally ({@code c.getField("TYPE")}, {@code Integer.parseInt(s)}: a search
   * or a conversion, whose failure says "not here" or "not this").
   */
  private static boolean attempts(Stmt.Block body) {
    List<Expr.Call> calls = Nodes.calls(body);
    if (calls.stream().anyMatch(call -> SEARCHES.matcher(call.name()).matches())) {
      return false;
    }
    for (Expr.Call call : calls) {
      if (!CLEAN_UPS.contains(call.name())
          && !(call.receiver() instanceof Expr.Name receiver
              && receiver.name().toLowerCase(Locale.ROOT).contains("log"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean returnsIn(Stmt.Block body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Stmt.Return) {
        return true;
      }
    }
    return false;
  }

  /** Calls that only wait: the pause of a loop, not an operation that can fail and be retried. */
  private static final Set<String> PAUSES = Set.of("wait", "join", "await", "onSpinWait");

  /**
   * Whether a try block only pauses ({@code try { Thread.sleep(100); } catch (Exception e) {}}):
   * its catch takes the pause's interrupt, not a failure of the loop's operation, so going round
   * after it retries nothing (a loop that polls another thread's state: {@code while
   * (!isRunning())}). What the catch does with the interrupt is the interrupt rules' business.
   */
  private static boolean onlyWaits(Stmt.Try t) {
    if (!t.resources().isEmpty() || t.body().statements().isEmpty()) {
      return false;
    }
    for (Stmt statement : t.body().statements()) {
      if (!(statement instanceof Stmt.ExprStmt e
          && e.expr() instanceof Expr.Call call
          && (CallNames.SLEEPS.contains(call.name()) || PAUSES.contains(call.name())))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether control leaving {@code stmt} normally reaches the end of the loop's body, or a {@code
   * continue} of the loop.
   */
  private static boolean reachesEndOfBody(MethodAnalysis analysis, Stmt stmt, LoopInfo loop) {
    Node child = stmt;
    for (Node p = analysis.parent(stmt); child != loop.body(); child = p, p = analysis.parent(p)) {
      if (p == null) {
        return false;
      }
      if (p instanceof Stmt.Block block) {
        boolean after = false;
        for (Stmt s : block.statements()) {
          if (after && s instanceof Stmt.Continue c && targets(analysis, c, c.label(), loop)) {
            return true; // continue; after the handler: round again
          }
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

  /**
   * Whether the statement just before a {@code break} records a failure ({@code success = false;
   * break;}, a flag named for success set to false): the loop gives up there, it does not leave on
   * success. A flag named otherwise ({@code keepGoing = false; break;}) may as well end a success.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean recordsFailureFirst(MethodAnalysis analysis, Stmt.Break b) {
    if (!(analysis.parent(b) instanceof Stmt.Block block)) {
      return false;
    }
    List<Stmt> statements = block.statements();
    for (int i = 1; i < statements.size(); i++) {
      if (statements.get(i) == b) {
        Stmt before = statements.get(i - 1);
        if (before instanceof Stmt.ExprStmt e
            && e.expr() instanceof Expr.Call report
            && (FAILURE_REPORT.matcher(report.name()).matches() || logsAtFailureLevel(report))) {
          return true; // if (!waitFlush(hint)) { logTimeout(id); break; }: it gives up
        }
        return before instanceof Stmt.ExprStmt e
            && e.expr() instanceof Expr.Assign assign
            && assign.operator().equals("=")
            && assign.target() instanceof Expr.Name flag
            && SUCCESS_FLAG.matcher(flag.name()).matches()
            && assign.value() instanceof Expr.Literal literal
            && Boolean.FALSE.equals(literal.value());
      }
    }
    return false;
  }

  /** {@code logger.log(Level.WARNING, ..)}, {@code log(SentryLevel.ERROR, ..)}. */
  private static boolean logsAtFailureLevel(Expr.Call call) {
    if (!call.name().equals("log") || call.args().isEmpty()) {
      return false;
    }
    return call.args().get(0) instanceof Expr.Name level
        && FAILURE_LEVEL.matcher(level.name()).matches();
  }

  private static final java.util.regex.Pattern FAILURE_LEVEL =
      java.util.regex.Pattern.compile("WARN|WARNING|ERROR|SEVERE|FATAL");

  /**
   * Calls that report a failure: a {@code break} right after one gives up ({@code logTimeout(id);
   * break;}, {@code log.warn(..); break;}); it does not leave on a success.
   */
  private static final java.util.regex.Pattern FAILURE_REPORT =
      java.util.regex.Pattern.compile(
          "warn|warning|error|severe|fatal|(?i).*(fail|timeout|timedout|abort|giveup|givingup).*");

  /** Names of flags that say whether the work succeeded ({@code success}, {@code acquired}). */
  private static final java.util.regex.Pattern SUCCESS_FLAG =
      java.util.regex.Pattern.compile("(?i).*(success|succeed|acquired|\\bok\\b).*");

  private static boolean exitsOnSuccess(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() == Kind.FOR_EACH_LAMBDA) {
      return false; // a forEach lambda cannot leave the iteration
    }
    Node loopNode = loop.node();
    for (Node n : Nodes.sameFrame(loop.body())) {
      if (analysis.isInCatchBody(n, loopNode)
          || leavesWhenExhausted(analysis, n, loop)
          || isGuardBeforeAttempt(analysis, n, loop)) {
        continue;
      }
      if (n instanceof Stmt.Return) {
        return true;
      }
      if (n instanceof Stmt.Break b
          && targets(analysis, b, b.label(), loop)
          && !recordsFailureFirst(analysis, b)) {
        return true;
      }
    }
    if (loop.condition() == null) {
      return false;
    }
    Set<String> read = new HashSet<>();
    Set<String> asked = new HashSet<>();
    for (Node n : Nodes.sameFrame(loop.condition())) {
      if (n instanceof Expr.Name name && name.kind() != Expr.NameKind.TYPE) {
        read.add(name.name());
      }
      if (n instanceof Expr.Call call && call.receiver() instanceof Expr.Name holder) {
        asked.add(holder.name());
      }
    }
    // Success recorded through a call on what the condition asks: retryLoop.markComplete().
    for (Node n : Nodes.sameFrame(loop.body())) {
      if (n instanceof Expr.Call call
          && call.receiver() instanceof Expr.Name holder
          && asked.contains(holder.name())
          && SUCCESS_MARK.matches(call.name())
          && !analysis.isInCatchBody(n, loopNode)) {
        return true;
      }
    }
    for (Node n : Nodes.sameFrame(loop.body())) {
      // A local success flag (done = true); a field read by the condition is a stop flag, and
      // setting it is stopping, not succeeding, unless its name says success (started = true).
      if (n instanceof Expr.Assign assign
          && assign.operator().equals("=")
          && assign.target() instanceof Expr.Name target
          && (target.isVariable(target.name())
              || (SUCCESS_FIELD.matches(target.name()) && isTrueOrValue(assign.value())))
          && read.contains(target.name())
          && !analysis.isInCatchBody(n, loopNode)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a jump leaves the loop because there is nothing (more) to do, not because an attempt
   * succeeded: it is the then-branch of an {@code if} that finds what the round fetched missing
   * ({@code if (msg == null) break;}), a collection empty ({@code isEmpty()}) or a size at its
   * limit ({@code if (consumers.size() >= max) break;}). A loop that leaves that way walks items.
   */
  private static boolean leavesWhenExhausted(MethodAnalysis analysis, Node jump, LoopInfo loop) {
    if (!(jump instanceof Stmt.Return || jump instanceof Stmt.Break)) {
      return false;
    }
    Node child = jump;
    for (Node p = analysis.parent(jump);
        p != null && p != loop.node();
        child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Try || p instanceof Stmt.Loop) {
        return false;
      }
      if (p instanceof Stmt.If check) {
        return check.then() == child && isExhaustionTest(check.condition());
      }
    }
    return false;
  }

  /**
   * Whether a jump leaves the loop before its attempt, on a test of nothing the loop sets: {@code
   * if (!isStopping()) break;} ahead of the {@code try}. It gives up (or stops); it does not leave
   * on success. A test of what an earlier round set ({@code if (conn != null) return conn;}) may
   * see that round's success, and counts.
   */
  private static boolean isGuardBeforeAttempt(MethodAnalysis analysis, Node jump, LoopInfo loop) {
    if (!(jump instanceof Stmt.Return || jump instanceof Stmt.Break) || !jump.span().isKnown()) {
      return false;
    }
    Stmt.Try attempt = null;
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Stmt.Try t && t.span().isKnown()) {
        attempt = t;
        break;
      }
    }
    if (attempt == null || jump.span().end() > attempt.span().start()) {
      return false;
    }
    Node parent = analysis.parent(jump);
    if (parent instanceof Stmt.Block) {
      parent = analysis.parent(parent);
    }
    if (!(parent instanceof Stmt.If guard)) {
      return false;
    }
    Set<String> assigned = Nodes.namesSet(Nodes.sameFrame(loop.body()));
    for (Node n : Nodes.sameFrame(guard.condition())) {
      if (n instanceof Expr.Name name && assigned.contains(name.name())) {
        return false;
      }
    }
    return true;
  }

  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  private static boolean isExhaustionTest(Expr condition) {
    List<Node> negated = new ArrayList<>();
    for (Node n : Nodes.sameFrame(condition)) {
      if (n instanceof Expr.Unary not && not.operator().equals("!")) {
        negated.add(not.operand());
      }
    }
    for (Node n : Nodes.sameFrame(condition)) {
      if (negated.stream().anyMatch(m -> m == n)) {
        continue; // !queue.isEmpty(): there is something
      }
      if (n instanceof Expr.Binary test
          && test.operator().equals("==")
          && (isNull(test.left()) || isNull(test.right()))) {
        return true;
      }
      if (n instanceof Expr.Call call
          && call.args().isEmpty()
          && (call.name().equals("isEmpty") || SIZE_NAMES.contains(call.name()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNull(Expr expr) {
    return expr instanceof Expr.Literal literal && literal.value() == null;
  }

  /** Names of fields that record that the operation succeeded: {@code started}, {@code done}. */
  private static final NamePattern SUCCESS_FIELD =
      NamePattern.containing(
          "(?i)(is|has)?_?(started|connected|done|success|successful|succeeded|complete|completed"
              + "|finished|ready|initiali[sz]ed|established|registered|acquired|subscribed|sent"
              + "|opened|bound|result|response|connection|session|client|channel)",
          "started",
          "connected",
          "done",
          "success",
          "succeeded",
          "complete",
          "finished",
          "ready",
          "initiali",
          "established",
          "registered",
          "acquired",
          "subscribed",
          "sent",
          "opened",
          "bound",
          "result",
          "response",
          "connection",
          "session",
          "client",
          "channel");

  /** {@code true}, or a value that is not {@code false} or {@code null}. */
  private static boolean isTrueOrValue(Expr value) {
    return !(value instanceof Expr.Literal literal
        && (literal.value() == null || Boolean.FALSE.equals(literal.value())));
  }

  private static boolean countsAttempts(List<Node> level) {
    Set<String> incremented = new HashSet<>();
    for (Node n : level) {
      String counter = incrementedVariable(n);
      if (counter != null) {
        incremented.add(counter);
      }
    }
    for (Node n : level) {
      if (n instanceof Stmt.LocalVar local) {
        // Declared in the body, it starts afresh every round: long wait = interval; wait -= spent
        // counts nothing across attempts.
        incremented.remove(local.name());
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
    Expr counted = left ? binary.left() : binary.right();
    if (counted instanceof Expr.Binary remainder && remainder.operator().equals("%")) {
      return false; // if (retry % 4 == 0) warn(..): a cadence, not a cap
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

  /**
   * The calls of an iterator or a queue that may pick the next node to try ({@code
   * servers.next()}): by the names they are written with, failover, not items. A socket's or a
   * channel's {@code receive}, {@code accept} or {@code readLine} takes the next item whatever the
   * socket is called.
   */
  private static final Set<String> ITERATOR_CALLS =
      Set.of("next", "nextElement", "hasNext", "hasMoreElements", "poll", "pollFirst", "pollLast");

  /**
   * Whether an item call picks the next node or address to try ({@code currentServer =
   * servers.next()}, {@code addresses.hasNext()}): a failover, not a new item to process.
   */
  private static boolean picksNode(MethodAnalysis analysis, Expr.Call call) {
    Node parent = analysis.parent(call);
    for (Node argument = call;
        parent instanceof Expr.Call wrapping && isArgument(wrapping, argument);
        parent = analysis.parent(parent)) {
      argument = parent; // uri = addExtraQueryOptions(iter.next())
    }
    if (parent instanceof Expr.Assign assign
        && assign.target() instanceof Expr.Name target
        && CallNames.isNodeName(target.name())) {
      return true;
    }
    if (parent instanceof Stmt.LocalVar local && CallNames.isNodeName(local.name())) {
      return true;
    }
    return call.receiver() != null
        && call.receiver().span().isKnown()
        && CallNames.isNodeName(receiverName(analysis, call.receiver()));
  }

  /**
   * The names a receiver is known by: a field's or variable's own name ({@code callBackQueue} in
   * {@code getInstance().callBackQueue}, not the whole text, whose {@code getInstance()} says
   * nothing of what is taken); for a call, its name and its own receiver's names ({@code
   * serverListMgr.getIterator()}); else its text.
   */
  private static String receiverName(MethodAnalysis analysis, Expr receiver) {
    if (receiver instanceof Expr.Name name) {
      return name.name();
    }
    if (receiver instanceof Expr.Call call) {
      return call.receiver() == null
          ? call.name()
          : call.name() + " " + receiverName(analysis, call.receiver());
    }
    return analysis.context().text(receiver.span());
  }

  /**
   * Whether the {@code next()} that goes with a {@code hasNext()} test picks a node: {@code while
   * (iter.hasNext()) { URI uri = withOptions(iter.next()); .. }} walks the brokers to try.
   */
  private static boolean nextPicksNode(
      MethodAnalysis analysis, Expr.Call hasNext, List<Node> level) {
    if (!(hasNext.receiver() instanceof Expr.Name iterator)) {
      return false;
    }
    for (Node n : level) {
      if (n instanceof Expr.Call next
          && next.name().equals("next")
          && next.receiver() instanceof Expr.Name receiver
          && receiver.name().equals(iterator.name())
          && picksNode(analysis, next)) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean isArgument(Expr.Call call, Node node) {
    for (Expr arg : call.args()) {
      if (arg == node) {
        return true;
      }
    }
    return false;
  }

  /**
   * The names a round gives a new value of its own: locals declared in the loop, and variables
   * assigned there, except where the assignment only starts the walk again once it is exhausted
   * ({@code if (it == null || !it.hasNext()) it = new EvictionIterator(idle);}): that walk goes on
   * across rounds, one item per round.
   */
  private static Set<String> freshResults(List<Node> level) {
    Set<Node> restarts = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Node n : level) {
      if (n instanceof Stmt.If check) {
        for (Node m : Nodes.sameFrame(check.then())) {
          if (m instanceof Expr.Assign assign
              && assign.target() instanceof Expr.Name target
              && namesIn(check.condition(), target.name())) {
            restarts.add(m);
          }
        }
      }
    }
    List<Node> fresh = new ArrayList<>();
    for (Node n : level) {
      // it = null: a reset, so that the next round starts the walk again
      boolean reset =
          n instanceof Expr.Assign assign
              && assign.value() instanceof Expr.Literal nothing
              && nothing.value() == null;
      if (!restarts.contains(n) && !reset) {
        fresh.add(n);
      }
    }
    return Nodes.namesSet(fresh);
  }

  /** Whether a variable or field of that name appears in the expression. */
  private static boolean namesIn(Expr expr, String name) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Name written
          && written.kind() != Expr.NameKind.TYPE
          && written.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean takesItems(MethodAnalysis analysis, LoopInfo loop, List<Node> level) {
    Set<String> fresh = freshResults(level);
    for (Node n : level) {
      if (n instanceof Expr.Call call) {
        String name = call.name();
        if (name.equals("accept") && !call.args().isEmpty()) {
          continue; // a predicate or a consumer, not ServerSocket.accept()
        }
        if (call.receiver() instanceof Expr.Name source && fresh.contains(source.name())) {
          // rs = ps.executeQuery(); if (!rs.next()) ..: each round reads its own fresh result,
          // not the next item of what the loop walks.
          continue;
        }
        if ((ITEM_CALLS.contains(name) || (name.equals("poll") && call.args().isEmpty()))
            && !(ITERATOR_CALLS.contains(name) && picksNode(analysis, call))
            // builder.nextToken(null) sets a field; an item fetch takes no argument
            && !(name.startsWith("next") && !call.args().isEmpty())
            && !analysis.isInCatchBody(call, loop.node())
            && !(name.equals("hasNext") && nextPicksNode(analysis, call, level))) {
          return true;
        }
        if (name.equals("read") && loop.condition() != null && contains(loop.condition(), call)) {
          return true;
        }
        if (isRemovalFromFront(call) && !analysis.isInCatchBody(call, loop.node())) {
          return true;
        }
        if (removesWhatItPicked(level, call) && !analysis.isInCatchBody(call, loop.node())) {
          return true; // task = tasks.first(); .. if (tasks.remove(task)) run(task)
        }
        if (calleeTakesItems(analysis, call)) {
          return true;
        }
      }
      if (advancesAlongChain(n) && !analysis.isInCatchBody(n, loop.node())) {
        return true; // t = t.getCause(): a walk along a chain, one link per round
      }
      if (n instanceof Stmt.LocalVar local
          && local.init() instanceof Expr.Call fetch
          && isQueueRemoval(fetch)
          && !local.type().simpleName().equals("boolean")
          && !analysis.isInCatchBody(n, loop.node())) {
        return true; // Reference<?> ref = queue.remove(timeout): the next enqueued reference
      }
      if (n instanceof Stmt.LocalVar local
          && local.init() instanceof Expr.Call fetch
          && isItemFetch(fetch)
          && !CallNames.isNodeName(local.name())
          && !analysis.isInCatchBody(n, loop.node())) {
        return true; // List<Message> msgs = queue.takeMessages(batch);
      }
      if (n instanceof Expr.Assign assign
          && assign.operator().equals("=")
          && assign.target() instanceof Expr.Name target
          && assign.value() instanceof Expr.Call fetch
          && fetch.name().startsWith("receive")
          && isItemFetch(fetch)
          && !CallNames.isNodeName(target.name())
          && !analysis.isInCatchBody(n, loop.node())) {
        return true; // data = endpoint.receiveBroadcast(): the next datagram, whoever sends it
      }
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name target
          && assign.value() instanceof Expr.Call fetch
          && (fetch.name().equals("poll") || fetch.name().equals("receive"))
          && loop.condition() != null
          && Nodes.mentions(loop.condition(), target.name())) {
        return true; // do { event = events.poll(1, SECONDS); ... } while (event != null);
      }
    }
    return takesItemByShape(loop);
  }

  /** Links of a chain: what {@code t = t.getCause()} or {@code node = node.next} steps along. */
  private static final Set<String> CHAIN_LINKS =
      Set.of(
          "getCause",
          "getParent",
          "getSuperclass",
          "getNext",
          "next",
          "getPrevious",
          "previous",
          "getEnclosingClass",
          "getDeclaringClass",
          "getParentFile",
          "getOwner",
          "cause",
          "parent");

  /**
   * Whether a node moves a variable one link along a chain it points into: {@code t =
   * t.getCause()}, {@code clazz = clazz.getSuperclass()}, {@code node = node.next}.
   */
  private static boolean advancesAlongChain(Node n) {
    if (!(n instanceof Expr.Assign assign)
        || !assign.operator().equals("=")
        || !(assign.target() instanceof Expr.Name target)) {
      return false;
    }
    if (assign.value() instanceof Expr.Call link) {
      return link.args().isEmpty()
          && CHAIN_LINKS.contains(link.name())
          && link.receiver() instanceof Expr.Name from
          && from.name().equals(target.name());
    }
    return assign.value() instanceof Expr.Name field
        && CHAIN_LINKS.contains(field.name())
        && field.qualifier() instanceof Expr.Name from
        && from.name().equals(target.name());
  }

  /**
   * Whether a call goes to a method of the unit that takes items from a queue itself ({@code
   * flushTraceContext()} that polls the next batch): a loop around it consumes them.
   */
  @SuppressWarnings("ReferenceEquality") // models are compared by identity
  private static boolean calleeTakesItems(MethodAnalysis analysis, Expr.Call call) {
    if (!ITEM_TAKER.matches(call.name())) {
      return false;
    }
    MethodModel callee = analysis.context().unit().declarationOf(call);
    if (callee == null || callee == analysis.method()) {
      return false;
    }
    for (Node n : Nodes.sameFrame(callee.body())) {
      if (n instanceof Expr.Call inner
          && ((inner.name().equals("poll") && inner.args().isEmpty())
              || inner.name().equals("take")
              || inner.name().equals("drainTo")
              || isRemovalFromFront(inner))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isItemFetch(Expr.Call call) {
    return ITEM_SHAPE.matches(call.name())
        && !NOT_AN_ITEM.matches(call.name())
        && !RANDOM_DRAWS.contains(call.name());
  }

  /**
   * A random source's draws ({@code random.nextLong()}, {@code RandomShift.instance().nextInt()}):
   * a fresh value, not the next item of what the loop walks.
   */
  private static final Set<String> RANDOM_DRAWS =
      Set.of(
          "nextInt",
          "nextLong",
          "nextDouble",
          "nextFloat",
          "nextGaussian",
          "nextBoolean",
          "nextBytes",
          "nextExponential");

  /** Calls that look at the first element of a collection without taking it. */
  private static final Set<String> PEEKS =
      Set.of("first", "peek", "peekFirst", "element", "getFirst", "firstKey", "firstEntry");

  /**
   * {@code ref = queue.remove(timeout)} on a queue ({@code ReferenceQueue.remove}): a blocking take
   * of the next element, with a timeout.
   */
  private static boolean isQueueRemoval(Expr.Call call) {
    return call.name().equals("remove")
        && call.args().size() == 1
        && call.receiver() instanceof Expr.Name queue
        && (queue.type().isSubtypeOf("java.lang.ref.ReferenceQueue")
            || queue.name().toLowerCase(java.util.Locale.ROOT).endsWith("queue"));
  }

  /**
   * Whether the call removes from a collection the element the round picked from it: {@code task =
   * tasks.first(); .. tasks.remove(task)}. The round takes that element; the next round looks at
   * the next one.
   */
  private static boolean removesWhatItPicked(List<Node> level, Expr.Call call) {
    if (!call.name().equals("remove")
        || call.args().size() != 1
        || !(call.receiver() instanceof Expr.Name from)
        || !(call.args().get(0) instanceof Expr.Name picked)) {
      return false;
    }
    for (Node n : level) {
      Expr value = null;
      String target = null;
      if (n instanceof Expr.Assign assign
          && assign.operator().equals("=")
          && assign.target() instanceof Expr.Name written) {
        target = written.name();
        value = assign.value();
      } else if (n instanceof Stmt.LocalVar local) {
        target = local.name();
        value = local.init();
      }
      if (picked.name().equals(target)
          && value instanceof Expr.Call peek
          && PEEKS.contains(peek.name())
          && peek.args().isEmpty()
          && peek.receiver() instanceof Expr.Name source
          && source.name().equals(from.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code list.remove(0)}, {@code deque.removeFirst()}, {@code queue.remove()}: consuming a
   * collection.
   */
  private static boolean isRemovalFromFront(Expr.Call call) {
    return (call.name().equals("remove") && call.args().isEmpty() && call.receiver() != null)
        || (call.name().equals("remove")
            && call.args().size() == 1
            && call.args().get(0) instanceof Expr.Literal index
            && Integer.valueOf(0).equals(index.value()))
        || ((call.name().equals("removeFirst") || call.name().equals("removeLast"))
            && call.args().isEmpty());
  }

  /**
   * Whether a variable named for a node is given it by a rotation's own call ({@code
   * hosts.nextHost()}), not by an iterator's {@code next()}/{@code nextElement()}.
   */
  private static boolean picksNodeByRotation(String variable, Expr value) {
    return CallNames.isNodeName(variable)
        && value instanceof Expr.Call call
        && !ITERATOR_CALLS.contains(call.name());
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
      // while (running) { try { Runnable task = produceTask(); .. } catch (Throwable t) {..} }
      if (first instanceof Stmt.Try t
          && t.resources().isEmpty()
          && !t.body().statements().isEmpty()) {
        first = t.body().statements().get(0);
      }
      // A node a rotation picks for the round (String host = hosts.nextHost()) is where the
      // attempt goes, not an item it handles: a reconnect loop cycling through servers. An
      // iterator's next element (addresses.nextElement()) is a walk, whatever it is named.
      if (first instanceof Stmt.LocalVar local
          && local.init() != null
          && !picksNodeByRotation(local.name(), local.init())) {
        fetches.add(local.init());
      } else if (first instanceof Stmt.ExprStmt statement
          && statement.expr() instanceof Expr.Assign assign
          && !(assign.target() instanceof Expr.Name target
              && picksNodeByRotation(target.name(), assign.value()))) {
        fetches.add(assign.value());
      }
    }
    for (Expr fetch : fetches) {
      if (fetch instanceof Expr.Call call && isItemFetch(call)) {
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
