package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A loop as the analysis sees it: a loop statement, or a lambda passed to {@code forEach}, which
 * runs its body once per element.
 */
public final class LoopInfo {

  /** The kinds of loop. */
  public enum Kind {
    /** {@code for (init; condition; update)}. */
    FOR,
    /** {@code while (condition)}. */
    WHILE,
    /** {@code do ... while (condition)}. */
    DO_WHILE,
    /** {@code for (T x : iterable)}. */
    FOR_EACH,
    /** {@code source.forEach(x -> body)}. */
    FOR_EACH_LAMBDA,
    /**
     * A method that calls itself from a catch clause: each call is an attempt. The "loop" is the
     * method's body; its {@linkplain #statement() statement} is {@code null}.
     */
    RECURSION,
    /**
     * A task's body ({@code run()}) that schedules the task itself again ({@code
     * executor.schedule(this, delay, unit)}): a background loop spelt as rescheduling. The "loop"
     * is the method's body; its {@linkplain #statement() statement} is {@code null}.
     */
    RESCHEDULE
  }

  /** The signs that a loop retries: the analysis's evidence, kept for messages and tests. */
  public enum Evidence {
    /** A catch clause can complete and let the loop go round again. */
    RETRYING_CATCH,
    /**
     * The attempt is a helper of the unit that catches its own failure and returns ({@code
     * manage()} that logs and counts, {@code createSocket()} that returns {@code null}); the loop
     * goes round again after it.
     */
    CAUGHT_IN_HELPER,
    /** The loop ends once the operation succeeds (return, break, or a success flag). */
    EXITS_ON_SUCCESS,
    /** A counter is incremented each round and compared against a cap. */
    COUNTS_ATTEMPTS,
    /** The loop sleeps between rounds. */
    SLEEPS,
    /** The loop takes a new item each round: a per-item loop, never a retry loop. */
    TAKES_ITEMS,
    /** A {@code forEach} over a numeric range: an attempts loop spelt as a stream. */
    NUMERIC_RANGE,
    /**
     * Whether to go round is decided by a retry policy's call ({@code shouldRetry(..)}, {@code
     * retryLoop.shouldContinue()}, {@code backoff.nextBackOff()}): the cap is the policy's.
     */
    POLICY_DECIDED,
    /** The loop condition checks a request to stop ({@code while (running)}). */
    STOP_FLAG,
    /** A for-each over nodes or addresses that tries the operation on each until one succeeds. */
    FAILOVER,
    /**
     * A for-each over nodes or addresses (by the names and types it is written with), whatever it
     * does with them: with {@link #EXITS_ON_SUCCESS} and no retrying catch, a failover decided by a
     * result ({@code if (probe(url)) break;}).
     */
    OVER_NODES
  }

  private final Kind kind;
  private final Node node;
  private final Stmt statement;
  private final String label;
  private final Expr condition;
  private final List<Stmt> init;
  private final List<Expr> update;
  private final Expr iterable;
  private final Stmt body;
  private Set<Evidence> evidence;
  private boolean retry;
  private boolean background;

  LoopInfo(
      Kind kind,
      Node node,
      Stmt statement,
      String label,
      Expr condition,
      List<Stmt> init,
      List<Expr> update,
      Expr iterable,
      Stmt body) {
    this.kind = kind;
    this.node = node;
    this.statement = statement;
    this.label = label;
    this.condition = condition;
    this.init = init;
    this.update = update;
    this.iterable = iterable;
    this.body = body;
  }

  static LoopInfo of(Stmt.Loop loop) {
    Kind kind =
        switch (loop.kind()) {
          case FOR -> Kind.FOR;
          case WHILE -> Kind.WHILE;
          case DO_WHILE -> Kind.DO_WHILE;
          case FOR_EACH -> Kind.FOR_EACH;
        };
    return new LoopInfo(
        kind,
        loop,
        loop,
        loop.label(),
        loop.condition(),
        loop.init(),
        loop.update(),
        loop.iterable(),
        loop.body());
  }

  static LoopInfo ofRecursion(Stmt.Block body) {
    return new LoopInfo(Kind.RECURSION, body, null, null, null, List.of(), List.of(), null, body);
  }

  static LoopInfo ofReschedule(Stmt.Block body) {
    return new LoopInfo(Kind.RESCHEDULE, body, null, null, null, List.of(), List.of(), null, body);
  }

  static LoopInfo ofForEach(Expr.Call call, Expr.Lambda lambda, Stmt statement) {
    return new LoopInfo(
        Kind.FOR_EACH_LAMBDA,
        call,
        statement,
        null,
        null,
        List.of(),
        List.of(),
        call.receiver(),
        lambda.body());
  }

  void classify(Set<Evidence> evidence, boolean retry, boolean background) {
    this.evidence = Set.copyOf(evidence.isEmpty() ? EnumSet.noneOf(Evidence.class) : evidence);
    this.retry = retry;
    this.background = background;
  }

  /**
   * Returns the kind of loop.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Returns the loop's node: the {@link Stmt.Loop}, or the {@code forEach} {@link Expr.Call}.
   *
   * @return the node
   */
  public Node node() {
    return node;
  }

  /**
   * Returns the statement that holds the loop: where code that must run once before the loop is
   * inserted.
   *
   * @return the statement, or {@code null} if the loop is not directly in a statement
   */
  public Stmt statement() {
    return statement;
  }

  /**
   * Returns the loop's span.
   *
   * @return the span of its node
   */
  public Span span() {
    return node.span();
  }

  /**
   * Returns the label naming the loop.
   *
   * @return the label, or {@code null}
   */
  public String label() {
    return label;
  }

  /**
   * Returns the loop condition.
   *
   * @return the condition, or {@code null} (none, or a for-each)
   */
  public Expr condition() {
    return condition;
  }

  /**
   * Returns the {@code for} initialisers.
   *
   * @return the initialisers, possibly empty
   */
  public List<Stmt> init() {
    return init;
  }

  /**
   * Returns the {@code for} updates.
   *
   * @return the updates, possibly empty
   */
  public List<Expr> update() {
    return update;
  }

  /**
   * Returns what a for-each or {@code forEach} iterates.
   *
   * @return the iterable or stream, or {@code null}
   */
  public Expr iterable() {
    return iterable;
  }

  /**
   * Returns the body.
   *
   * @return the body statement
   */
  public Stmt body() {
    return body;
  }

  /**
   * Tells whether the analysis found this loop to be a retry loop.
   *
   * @return {@code true} for a retry loop
   */
  public boolean isRetryLoop() {
    return retry;
  }

  /**
   * Tells whether this is a background loop that retries: a keep-alive or reconnect loop ended only
   * by a stop flag ({@code while (running)}), whose catch clause lets it go round again after its
   * operation failed. Not a {@linkplain #isRetryLoop() retry loop} (it never leaves on success),
   * but it retries all the same, without end.
   *
   * @return {@code true} for a background retry loop
   */
  public boolean isBackgroundRetry() {
    return background;
  }

  /**
   * Tells whether the loop ends only when asked to stop: its condition checks a stop flag and it
   * never leaves on success (keep-alive, reconnect and worker loops, and tasks that reschedule
   * themselves), whether or not it takes a new item each round.
   *
   * @return {@code true} for a loop ended only by a stop flag
   */
  public boolean endsOnlyWhenStopped() {
    return !retry
        && evidence.contains(Evidence.STOP_FLAG)
        && !evidence.contains(Evidence.EXITS_ON_SUCCESS)
        && kind != Kind.FOR_EACH
        && kind != Kind.FOR_EACH_LAMBDA;
  }

  /**
   * Tells whether the loop is a method's body standing for a loop: a recursion or a rescheduling
   * task, not a loop statement.
   *
   * @return {@code true} for {@link Kind#RECURSION} and {@link Kind#RESCHEDULE}
   */
  public boolean isWholeMethod() {
    return kind == Kind.RECURSION || kind == Kind.RESCHEDULE;
  }

  /**
   * Returns the evidence the classification rests on.
   *
   * @return the evidence found
   */
  public Set<Evidence> evidence() {
    return evidence;
  }

  @Override
  public String toString() {
    return kind
        + "@"
        + span().start()
        + (retry ? " retry " : background ? " background " : " ")
        + evidence;
  }
}
