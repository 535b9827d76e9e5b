package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Pending writes sent again on a new connection: a method named for a re-send ({@code
 * resendMessages(cnx)}) that writes every item of a field holding the writes still waiting for
 * their acknowledgement ({@code for (op : pendingMessages) cnx.write(op.cmd)}), itself or through a
 * method of the class it calls. An item whose acknowledgement was lost with the old connection may
 * have been applied: written again, it is applied twice. Used by {@link NonIdempotentRetryRule}.
 */
final class PendingReplays {
  private PendingReplays() {}

  /** Names of calls that put an item on the wire. */
  private static final Pattern WIRE_WRITES =
      Pattern.compile("(write|writeAndFlush|send|sendMessage|sendCommand|publish)");

  /** Calls that walk a collection field: {@code pendingMessages.iterator()}. */
  private static final Set<String> WALKS = Set.of("iterator", "listIterator", "values");

  /** Marks of a repeat the peer can recognise: {@code setDup(true)}, an idempotency flag. */
  private static final Pattern REPEAT_MARK_CALL =
      Pattern.compile("(?i)((set|mark|with)_?dup\\w*|.*idempot.*)");

  private static final Pattern REPEAT_MARK_NAME =
      Pattern.compile("(?i)((is_?)?dup(_?flag)?|.*idempot.*)");

  /**
   * Fields of items that are the same again: subscriptions, registrations, declarations, watches
   * (sent twice, they change nothing).
   */
  private static final Pattern SAME_AGAIN =
      Pattern.compile("(?i).*(subscri|regist|declar|listener|watch).*");

  /**
   * The calls of a re-send method that write every pending item again: the write in its own loop,
   * or the call of the method of the class that holds that loop.
   *
   * @param analysis the method
   * @return where each replay is decided, with the field replayed
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static List<Replay> replays(MethodAnalysis analysis) {
    MethodModel method = analysis.method();
    if (method.body() == null || !CallNames.isResendName(method.name())) {
      return List.of();
    }
    List<Replay> found = new ArrayList<>();
    Replay own = replayLoop(analysis, method);
    if (own != null) {
      found.add(own);
    }
    Set<MethodModel> seen = new HashSet<>();
    for (Node n : Nodes.preOrder(method.body())) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      MethodModel helper = analysis.context().unit().declarationOf(call);
      if (helper == null
          || helper == method
          || helper.body() == null
          || !helper.owner().equals(method.owner())
          || !seen.add(helper)) {
        continue;
      }
      MethodAnalysis helperAnalysis = analysis.calleeAnalysis(helper);
      Replay replay = helperAnalysis == null ? null : replayLoop(helperAnalysis, helper);
      if (replay != null) {
        found.add(new Replay(call, replay.field()));
      }
    }
    return found;
  }

  /**
   * A replay of pending writes.
   *
   * @param call where it is decided: the write in the re-send method's own loop, or the call of the
   *     method that holds the loop
   * @param field the field of pending items
   */
  record Replay(Expr.Call call, String field) {}

  /** A loop of the method over a field's items that writes each item on the wire. */
  private static Replay replayLoop(MethodAnalysis analysis, MethodModel method) {
    for (Node n : Nodes.sameFrame(method.body())) {
      if (!(n instanceof Stmt.Loop loop)) {
        continue;
      }
      String field = walkedField(analysis, loop);
      if (field == null || SAME_AGAIN.matcher(field).matches()) {
        continue;
      }
      Set<String> items = new HashSet<>();
      if (loop.variable() != null) {
        items.add(loop.variable().name());
      }
      List<Node> body = Nodes.sameFrame(loop.body());
      for (Node m : body) {
        if (m instanceof Stmt.LocalVar local) {
          items.add(local.name());
        }
      }
      Expr.Call write = null;
      for (Node m : body) {
        if ((m instanceof Expr.Name name && REPEAT_MARK_NAME.matcher(name.name()).matches())
            || (m instanceof Expr.Call call && REPEAT_MARK_CALL.matcher(call.name()).matches())) {
          write = null;
          break;
        }
        if (write == null
            && m instanceof Expr.Call call
            && WIRE_WRITES.matcher(call.name()).matches()
            && call.args().stream().anyMatch(a -> items.stream().anyMatch(i -> mentions(a, i)))) {
          write = call;
        }
      }
      if (write != null) {
        return new Replay(write, field);
      }
    }
    return null;
  }

  /**
   * The field a loop walks: a for-each over it ({@code for (op : pending)}, {@code
   * pending.values()}), or a loop on an iterator taken from it ({@code it =
   * pendingMessages.iterator(); while (it.hasNext())}).
   */
  private static String walkedField(MethodAnalysis analysis, Stmt.Loop loop) {
    if (loop.iterable() != null) {
      return fieldIn(loop.iterable());
    }
    if (loop.condition() == null) {
      return null;
    }
    for (Node n : Nodes.sameFrame(loop.condition())) {
      if (n instanceof Expr.Call hasNext
          && hasNext.name().equals("hasNext")
          && hasNext.receiver() instanceof Expr.Name iterator
          && iterator.qualifier() == null
          && iterator.kind() == Expr.NameKind.LOCAL) {
        for (Expr value : analysis.valuesOf(iterator.name())) {
          String field = fieldIn(value);
          if (field != null) {
            return field;
          }
        }
      }
    }
    return null;
  }

  /** The field an expression walks: {@code pending}, {@code pending.values().iterator()}. */
  private static String fieldIn(Expr expr) {
    Expr e = expr;
    while (e instanceof Expr.Call step && WALKS.contains(step.name()) && step.args().isEmpty()) {
      e = step.receiver();
    }
    if (e instanceof Expr.Name field && field.kind() == Expr.NameKind.FIELD) {
      return field.name();
    }
    return null;
  }

  private static boolean mentions(Expr expr, String local) {
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Name name
          && name.kind() == Expr.NameKind.LOCAL
          && name.qualifier() == null
          && name.name().equals(local)) {
        return true;
      }
    }
    return false;
  }
}
