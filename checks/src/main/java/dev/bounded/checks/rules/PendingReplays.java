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
      return fieldIn(analysis, loop.iterable());
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
          String field = fieldIn(analysis, value);
          if (field != null) {
            return field;
          }
        }
      }
    }
    return null;
  }

  /**
   * The field an expression walks: {@code pending}, {@code pending.values().iterator()}, or a copy
   * of it in a local ({@code copy = new ArrayList<>(requests.values())}).
   */
  private static String fieldIn(MethodAnalysis analysis, Expr expr) {
    Expr e = expr;
    while (e instanceof Expr.Call step && WALKS.contains(step.name()) && step.args().isEmpty()) {
      e = step.receiver();
    }
    if (e instanceof Expr.Name field && field.kind() == Expr.NameKind.FIELD) {
      return field.name();
    }
    if (e instanceof Expr.Name local
        && local.qualifier() == null
        && local.kind() == Expr.NameKind.LOCAL) {
      for (Expr value : analysis.valuesOf(local.name())) {
        if (value instanceof Expr.New copy && copy.args().size() == 1) {
          String field = fieldIn(analysis, copy.args().get(0));
          if (field != null) {
            return field;
          }
        }
      }
    }
    return null;
  }

  /** Calls by which a replay runs a held request again: {@code request.run()}. */
  private static final Set<String> RUNS =
      Set.of("run", "execute", "send", "write", "perform", "invoke", "doTask", "process");

  /**
   * A failure callback of a request the class holds in a field until it completes ({@code
   * requests.put(id, this)}) that, for some failures (an I/O failure), keeps it there, while its
   * other branch removes it ({@code requests.remove(id)}) and fails it, when the class runs every
   * request the field holds again on a new connection ({@code for (request : new
   * ArrayList<>(requests.values())) request.run();}). Returns the condition that decides to keep
   * it, and the field, or {@code null}.
   *
   * @param analysis a method
   * @return the decision and the field, or {@code null}
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static Kept keptForReplay(MethodAnalysis analysis) {
    MethodModel method = analysis.method();
    String failure = null;
    for (MethodModel.Param param : method.params()) {
      String simple = param.type().simpleName();
      if (param.type().isSubtypeOf("java.lang.Throwable")
          || simple.endsWith("Exception")
          || simple.endsWith("Throwable")
          || simple.endsWith("Error")) {
        failure = param.name();
      }
    }
    if (failure == null || method.body() == null) {
      return null;
    }
    for (Node n : Nodes.sameFrame(method.body())) {
      if (!(n instanceof Stmt.If check)
          || check.otherwise() == null
          || !Nodes.mentions(check.condition(), failure)) {
        continue;
      }
      String removedThen = removedFrom(check.then());
      String removedOtherwise = removedFrom(check.otherwise());
      String field = removedThen != null ? removedThen : removedOtherwise;
      if (field == null
          || (removedThen != null && removedOtherwise != null)
          || !holdsItself(analysis, method.owner(), field)
          || !replaysField(analysis, field)) {
        continue;
      }
      return new Kept(check.condition(), field);
    }
    return null;
  }

  /**
   * A decision to keep a failed request for a replay.
   *
   * @param condition the test whose branch keeps it
   * @param field the field that holds it
   */
  record Kept(Expr condition, String field) {}

  /** The field a branch removes an item from ({@code requests.remove(id)}), or {@code null}. */
  private static String removedFrom(Stmt branch) {
    for (Node n : Nodes.sameFrame(branch)) {
      if (n instanceof Expr.Call remove
          && remove.name().equals("remove")
          && remove.receiver() instanceof Expr.Name field
          && field.kind() == Expr.NameKind.FIELD) {
        return field.name();
      }
    }
    return null;
  }

  /** Whether a method of the class puts the object itself into the field: {@code put(id, this)}. */
  private static boolean holdsItself(MethodAnalysis analysis, String owner, String field) {
    for (MethodModel other : analysis.context().unit().methods()) {
      if (other.body() == null || !other.owner().equals(owner)) {
        continue;
      }
      for (Node n : Nodes.sameFrame(other.body())) {
        if (n instanceof Expr.Call put
            && (put.name().equals("put") || put.name().equals("add"))
            && put.receiver() instanceof Expr.Name held
            && held.kind() == Expr.NameKind.FIELD
            && held.name().equals(field)
            && put.args().stream()
                .anyMatch(a -> a instanceof Expr.Name self && self.name().equals("this"))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a method of the unit walks the field and runs each item again. */
  private static boolean replaysField(MethodAnalysis analysis, String field) {
    for (MethodModel other : analysis.context().unit().methods()) {
      if (other.body() == null) {
        continue;
      }
      MethodAnalysis otherAnalysis = analysis.calleeAnalysis(other);
      if (otherAnalysis == null) {
        continue;
      }
      for (Node n : Nodes.preOrder(other.body())) {
        if (!(n instanceof Stmt.Loop loop)
            || loop.variable() == null
            || !field.equals(walkedField(otherAnalysis, loop))) {
          continue;
        }
        String item = loop.variable().name();
        for (Node m : Nodes.sameFrame(loop.body())) {
          if (m instanceof Expr.Call run
              && RUNS.contains(run.name())
              && run.receiver() instanceof Expr.Name receiver
              && receiver.qualifier() == null
              && receiver.name().equals(item)) {
            return true;
          }
        }
      }
    }
    return false;
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
