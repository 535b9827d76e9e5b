package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes that a class keeps to send again: an item whose write failed, put back into a buffer field
 * that the class writes from again ({@code batchQueue.add(batch)} after {@code tryToWrite(batch)}
 * failed, and {@code tryToWrite(entry)} over {@code batchQueue} on the next flush). A write that
 * failed after it was sent may have been applied; sent again, it is applied twice. Used by {@link
 * NonIdempotentRetryRule}.
 */
final class ResentBuffers {
  private ResentBuffers() {}

  /** Names of calls that write or send what they are handed. */
  static final Pattern WRITES = Pattern.compile("(?i).*(write|send|publish|deliver|transmit).*");

  /** Calls by which a method takes the items of a buffer field to write them again. */
  private static final Set<String> DRAINS =
      Set.of(
          "iterator",
          "listIterator",
          "forEach",
          "stream",
          "peek",
          "peekFirst",
          "poll",
          "pollFirst",
          "take",
          "takeFirst",
          "remove",
          "removeFirst",
          "getFirst",
          "drainTo");

  /** Failures that prove nothing was sent. */
  private static final Set<String> NOTHING_SENT =
      Set.of(
          "java.net.ConnectException",
          "java.net.UnknownHostException",
          "java.net.NoRouteToHostException",
          "java.net.http.HttpConnectTimeoutException",
          "java.nio.channels.UnresolvedAddressException");

  /** Words of a branch taken when the write failed: {@code case FAILED_RETRY_POSSIBLE:}. */
  private static final Pattern FAILED = Pattern.compile("(?is).*(fail|error).*");

  /**
   * A call on the failure path of a write that puts the written item back into a buffer field the
   * class writes from again. Returns the call that puts it back and the field, or {@code null}.
   *
   * @param analysis the method
   * @param write a call named for a write, handed {@code item}
   * @param item the item written
   * @return the put-back, or {@code null}
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static PutBack putBack(MethodAnalysis analysis, Expr.Call write, Expr.Name item) {
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (!(n instanceof Expr.Call call) || call == write) {
        continue;
      }
      String buffer = bufferPutInto(analysis, call, item.name());
      if (buffer != null
          && onFailurePath(analysis, write, call)
          && writtenFromAgain(analysis, buffer, write.name())) {
        return new PutBack(call, buffer);
      }
    }
    return null;
  }

  /**
   * A put-back of a failed write.
   *
   * @param call the call that puts the item back
   * @param buffer the buffer field
   */
  record PutBack(Expr.Call call, String buffer) {}

  /**
   * The item a write sends: an argument that is a local or a parameter of the project's or a
   * library's own type (a batch, a message, a record), or {@code null}.
   */
  static Expr.Name writtenItem(Expr.Call write) {
    if (!WRITES.matcher(write.name()).matches()
        || (write.receiver() != null && write.receiver().type().name().startsWith("java."))) {
      return null; // a stream's or a file's write: no peer gets it twice
    }
    for (Expr arg : write.args()) {
      if (arg instanceof Expr.Name item
          && item.qualifier() == null
          && (item.kind() == Expr.NameKind.LOCAL || item.kind() == Expr.NameKind.PARAMETER)
          && item.type().isKnown()
          && !item.type().name().startsWith("java.")
          && !item.type().name().endsWith("[]")
          && !item.type().isSubtypeOf("java.lang.Throwable")
          && Character.isUpperCase(item.type().simpleName().charAt(0))) {
        return item;
      }
    }
    return null;
  }

  /**
   * The buffer field a call puts the item into: directly ({@code batchQueue.add(batch)}) or through
   * a method of the class that adds its parameter to the field ({@code addToBatchQueue(batch)}).
   * Sets and maps remember items, they do not queue them to be written.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static String bufferPutInto(MethodAnalysis analysis, Expr.Call call, String item) {
    int index = argumentIndex(call, item);
    if (index < 0) {
      return null;
    }
    String direct = enqueuedField(call);
    if (direct != null) {
      return direct;
    }
    MethodModel helper = analysis.context().unit().declarationOf(call);
    if (helper == null
        || helper == analysis.method()
        || helper.body() == null
        || index >= helper.params().size()) {
      return null;
    }
    String param = helper.params().get(index).name();
    for (Node n : Nodes.sameFrame(helper.body())) {
      if (n instanceof Expr.Call inner && argumentIndex(inner, param) >= 0) {
        String field = enqueuedField(inner);
        if (field != null) {
          return field;
        }
      }
    }
    return null;
  }

  private static String enqueuedField(Expr.Call call) {
    if (CallNames.ENQUEUES.contains(call.name())
        && call.receiver() instanceof Expr.Name queue
        && queue.kind() == Expr.NameKind.FIELD
        && !queue.type().isSubtypeOf("java.util.Set")
        && !queue.type().isSubtypeOf("java.util.Map")) {
      return queue.name();
    }
    return null;
  }

  private static int argumentIndex(Expr.Call call, String name) {
    for (int i = 0; i < call.args().size(); i++) {
      if (call.args().get(i) instanceof Expr.Name arg
          && arg.qualifier() == null
          && arg.name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Whether the put-back runs only when the write failed: in a catch clause around the write (not
   * one of failures that prove nothing was sent), or in a branch on the write's result taken for a
   * failure ({@code case FAILED_RETRY_POSSIBLE:}, {@code if (result.failed())}, {@code if
   * (!send(item))}).
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean onFailurePath(MethodAnalysis analysis, Expr.Call write, Expr.Call back) {
    Node child = back;
    for (Node p = analysis.parent(back); p != null; child = p, p = analysis.parent(p)) {
      if (p instanceof Stmt.Catch clause) {
        return Nodes.preOrder(analysis.tryOf(clause).body()).stream().anyMatch(n -> n == write)
            && !clause.types().stream().allMatch(t -> NOTHING_SENT.contains(t.name()));
      }
      if (p instanceof Stmt.Switch choice
          && child instanceof Stmt.Block branch
          && readsResult(analysis, choice.selector(), write)
          && FAILED.matcher(caseLabel(analysis, branch)).matches()) {
        return true;
      }
      if (p instanceof Stmt.If check
          && check.then() == child
          && readsResult(analysis, check.condition(), write)
          && ((check.condition() instanceof Expr.Unary not && not.operator().equals("!"))
              || (check.condition().span().isKnown()
                  && FAILED
                      .matcher(analysis.context().text(check.condition().span()))
                      .matches()))) {
        return true;
      }
      if (p instanceof Expr.Lambda || p == analysis.method().body()) {
        return false;
      }
    }
    return false;
  }

  /** The text of a switch case before its first statement: {@code case FAILED_RETRY_POSSIBLE:}. */
  private static String caseLabel(MethodAnalysis analysis, Stmt.Block branch) {
    Span span = branch.span();
    if (!span.isKnown()) {
      return "";
    }
    int end = span.end();
    if (!branch.statements().isEmpty() && branch.statements().get(0).span().isKnown()) {
      end = branch.statements().get(0).span().start();
    }
    return analysis.context().text(new Span(span.start(), Math.max(span.start(), end)));
  }

  /** Whether an expression holds the write, or reads a local the write's result was stored in. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean readsResult(MethodAnalysis analysis, Expr expr, Expr.Call write) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n == write) {
        return true;
      }
      if (n instanceof Expr.Name local
          && local.qualifier() == null
          && local.kind() == Expr.NameKind.LOCAL) {
        for (Expr value : analysis.valuesOf(local.name())) {
          if (value == write || (value.span().isKnown() && value.span().equals(write.span()))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Whether a method of the class takes the items of the buffer ({@code batchQueue.iterator()},
   * {@code poll()}, a for-each over it) and makes a write of the same name again.
   */
  private static boolean writtenFromAgain(MethodAnalysis analysis, String buffer, String write) {
    String owner = analysis.method().owner();
    for (MethodModel other : analysis.context().unit().methods()) {
      if (other.body() == null || !other.owner().equals(owner)) {
        continue;
      }
      boolean drains = false;
      boolean writes = false;
      for (Node n : Nodes.preOrder(other.body())) {
        drains |=
            (n instanceof Expr.Call call
                    && DRAINS.contains(call.name())
                    && isField(call.receiver(), buffer))
                || (n instanceof Stmt.Loop loop && isField(loop.iterable(), buffer));
        writes |= n instanceof Expr.Call call && call.name().equals(write);
      }
      if (drains && writes) {
        return true;
      }
    }
    return false;
  }

  private static boolean isField(Expr expr, String name) {
    return expr instanceof Expr.Name field
        && field.kind() == Expr.NameKind.FIELD
        && field.name().equals(name);
  }
}
