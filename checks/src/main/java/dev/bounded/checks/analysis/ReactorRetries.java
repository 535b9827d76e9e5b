package dev.bounded.checks.analysis;

import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Project Reactor's retry operators (reactor-core 3.x), read as library retry policies: {@code
 * Mono}/{@code Flux} {@code retry()}, {@code retry(n)}, {@code retryWhen(spec)} and {@code
 * repeatWhenEmpty(..)}, and the {@code reactor.util.retry.Retry} specs handed to {@code retryWhen}.
 * What Reactor does by default, from its javadoc and sources:
 *
 * <ul>
 *   <li>{@code retry()} resubscribes after every error, for ever; {@code retry(n)} at most {@code
 *       n} times; {@code Retry.indefinitely()} is {@code Retry.max(Long.MAX_VALUE)};
 *   <li>{@code Retry.backoff(n, min)} is exponential ({@code min * 2^k}) with a jitter factor of
 *       0.5 and a {@code maxBackoff} of {@code Duration.ofMillis(Long.MAX_VALUE)}: no cap;
 *   <li>{@code Retry.fixedDelay(n, d)} sets min = max = {@code d} and a jitter of 0; as the jitter
 *       is clamped between the min and max backoff, {@code jitter(..)} changes nothing there, and
 *       only {@code minBackoff(..)}/{@code maxBackoff(..)} switch it back to exponential;
 *   <li>{@code Mono.repeatWhenEmpty(companion)} resubscribes as long as the source completes empty
 *       and the companion emits, with no cap of its own (it is {@code
 *       repeatWhenEmpty(Integer.MAX_VALUE, companion)}; another {@code maxRepeat} caps it); {@code
 *       repeat()}/{@code repeatWhen(..)} resubscribe after a success: polling, not a retry.
 * </ul>
 *
 * <p>A spec is read from the expression handed to {@code retryWhen}: a chain from one of {@code
 * Retry}'s factories, or a local or a field of the same class that holds one.
 */
public final class ReactorRetries {
  /** {@code reactor.core.publisher.Mono}. */
  public static final String MONO = "reactor.core.publisher.Mono";

  /** {@code reactor.core.publisher.Flux}. */
  public static final String FLUX = "reactor.core.publisher.Flux";

  /** {@code reactor.util.retry.Retry}, the specs' factory. */
  public static final String RETRY = "reactor.util.retry.Retry";

  /** Attempts that never run out: {@code Long.MAX_VALUE}. */
  public static final long FOREVER = Long.MAX_VALUE;

  /** Attempts the code does not state with a constant. */
  public static final long UNKNOWN = -1;

  private static final Set<String> FACTORIES =
      Set.of("backoff", "fixedDelay", "max", "maxInARow", "indefinitely");

  /** Calls in a {@code repeatWhenEmpty} companion that end it: a count, a time, a condition. */
  private static final Set<String> COMPANION_BOUNDS =
      Set.of(
          "take",
          "takeWhile",
          "takeUntil",
          "takeUntilOther",
          "zipWith",
          "range",
          "timeout",
          "index",
          "next",
          "elementAt",
          "limitRequest",
          "error");

  private static final Set<String> COMPARISONS = Set.of("<", ">", "<=", ">=");

  /** Operators after a retry that bound it by time: {@code timeout(..)}, {@code block(d)}. */
  private static final Set<String> TIMED_WAITS =
      Set.of("block", "blockFirst", "blockLast", "blockOptional");

  /** Adapters that subscribe and hand the values to blocking code. */
  private static final Set<String> BLOCKING_ADAPTERS = Set.of("toFuture", "toIterable", "toStream");

  private ReactorRetries() {}

  /**
   * A {@code Retry} spec: the factory call that made it and what the chain after it sets.
   *
   * @param factory the {@code Retry.backoff/fixedDelay/max/maxInARow/indefinitely} call
   * @param attempts the retries it allows: {@link #FOREVER}, {@link #UNKNOWN}, or the count
   * @param chain the calls applied to the factory's result, innermost first ({@code maxBackoff},
   *     {@code jitter}, {@code filter}, ...)
   */
  public record Spec(Expr.Call factory, long attempts, List<Expr.Call> chain) {
    /** Copies the list. */
    public Spec {
      chain = List.copyOf(chain);
    }

    /**
     * Returns the last call of the chain with that name, or {@code null}.
     *
     * @param name a method name
     * @return the call that wins (the outermost), or {@code null}
     */
    public Expr.Call last(String name) {
      Expr.Call found = null;
      for (Expr.Call call : chain) {
        if (call.name().equals(name)) {
          found = call;
        }
      }
      return found;
    }
  }

  /**
   * Tells whether a call is an operator of {@code Mono} or {@code Flux} (or of a subtype).
   *
   * @param call a call
   * @return {@code true} if its receiver or declaring type is a Reactor publisher
   */
  public static boolean isPublisherOperator(Expr.Call call) {
    return isOn(call, MONO) || isOn(call, FLUX);
  }

  private static boolean isOn(Expr.Call call, String type) {
    return call.method().owner().isSubtypeOf(type)
        || (call.receiver() != null && call.receiver().type().isSubtypeOf(type));
  }

  /**
   * Tells whether a call is one of {@code Retry}'s factories.
   *
   * @param call a call
   * @return {@code true} for {@code Retry.backoff(..)}, {@code fixedDelay}, {@code max}, {@code
   *     maxInARow}, {@code indefinitely}
   */
  public static boolean isFactory(Expr.Call call) {
    return FACTORIES.contains(call.name()) && Nodes.isStaticCallOn(call, RETRY);
  }

  /**
   * Reads the spec handed to {@code retryWhen(..)}: a chain from a factory, or a variable holding
   * one.
   *
   * @param analysis the method's analysis
   * @param expr the argument
   * @return the spec, or {@code null} when it is not one of {@code Retry}'s factories' chains
   */
  public static Spec specOf(MethodAnalysis analysis, Expr expr) {
    List<Expr> origins = analysis.origins(expr);
    if (origins.size() != 1) {
      return null;
    }
    List<Expr.Call> chain = new ArrayList<>();
    for (Expr e = origins.get(0); e instanceof Expr.Call call; e = call.receiver()) {
      if (isFactory(call)) {
        Collections.reverse(chain);
        Spec spec = new Spec(call, factoryAttempts(analysis, call), chain);
        Expr.Call max = spec.last("maxAttempts");
        return max == null || max.args().size() != 1
            ? spec
            : new Spec(call, count(analysis, max.args().get(0)), chain);
      }
      chain.add(call);
    }
    return null;
  }

  /** The spec's chain when read from its factory outwards: the calls made on its result. */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  static List<Expr.Call> chainAfter(MethodAnalysis analysis, Expr.Call factory) {
    List<Expr.Call> chain = new ArrayList<>();
    Expr current = factory;
    for (Node p = analysis.parent(current);
        p instanceof Expr.Call call && call.receiver() == current;
        p = analysis.parent(current)) {
      chain.add(call);
      current = call;
    }
    return chain;
  }

  /**
   * Reads a spec from its factory call outwards (for rules that look at the factory itself).
   *
   * @param analysis the method's analysis
   * @param factory a factory call ({@link #isFactory})
   * @return the spec
   */
  public static Spec specAt(MethodAnalysis analysis, Expr.Call factory) {
    List<Expr.Call> chain = chainAfter(analysis, factory);
    Spec spec = new Spec(factory, factoryAttempts(analysis, factory), chain);
    Expr.Call max = spec.last("maxAttempts");
    return max == null || max.args().size() != 1
        ? spec
        : new Spec(factory, count(analysis, max.args().get(0)), chain);
  }

  private static long factoryAttempts(MethodAnalysis analysis, Expr.Call factory) {
    if (factory.name().equals("indefinitely")) {
      return FOREVER;
    }
    return factory.args().isEmpty() ? UNKNOWN : count(analysis, factory.args().get(0));
  }

  /**
   * The retries a retry operator allows, or {@code null} when the call is none: {@code retry()}
   * ({@link #FOREVER}), {@code retry(n)}, {@code retryWhen(spec)} with a spec this class reads.
   *
   * @param analysis the method's analysis
   * @param call a call
   * @return the retries, {@link #UNKNOWN} when not a constant, or {@code null}
   */
  public static Long retries(MethodAnalysis analysis, Expr.Call call) {
    if (!call.name().startsWith("retry") || !isPublisherOperator(call)) {
      return null; /* Fast path: not a Reactor retry operator. */
    }
    if (call.name().equals("retry") && call.args().isEmpty()) {
      return FOREVER;
    }
    if (call.name().equals("retry") && call.args().size() == 1) {
      return count(analysis, call.args().get(0));
    }
    if (call.name().equals("retryWhen") && call.args().size() == 1) {
      Spec spec = specOf(analysis, call.args().get(0));
      return spec == null ? Long.valueOf(UNKNOWN) : Long.valueOf(spec.attempts());
    }
    return null;
  }

  /**
   * Tells whether a call is {@code repeatWhenEmpty(..)} with no cap: the one-argument overload (in
   * Reactor, {@code repeatWhenEmpty(Integer.MAX_VALUE, companion)}), or the two-argument one given
   * {@code Integer.MAX_VALUE} ("infinite", its javadoc says), with a lambda companion whose body
   * neither counts, takes, times out nor compares.
   *
   * @param analysis the method's analysis
   * @param call a call
   * @return {@code true} if it resubscribes for as long as the source stays empty
   */
  public static boolean isUncappedRepeatWhenEmpty(MethodAnalysis analysis, Expr.Call call) {
    if (!call.name().equals("repeatWhenEmpty")
        || call.args().isEmpty()
        || call.args().size() > 2
        || !(call.args().get(call.args().size() - 1) instanceof Expr.Lambda companion)
        || !isPublisherOperator(call)) {
      return false;
    }
    if (call.args().size() == 2 && count(analysis, call.args().get(0)) != FOREVER) {
      return false; // a maximum number of repeats
    }
    for (Node n : Nodes.preOrder(companion.body())) {
      if (n instanceof Expr.Call inner && COMPANION_BOUNDS.contains(inner.name())) {
        return false;
      }
      if (n instanceof Expr.Binary binary && COMPARISONS.contains(binary.operator())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Tells whether what a retry operator returns is bounded by time further down the same chain: a
   * {@code timeout(..)}, a {@code take(Duration)} or a timed {@code block(Duration)}. The retries
   * then end when that time does.
   *
   * @param analysis the method's analysis
   * @param call a retry operator
   * @return {@code true} if a later operator of its chain ends it in time
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  public static boolean isTimedDownstream(MethodAnalysis analysis, Expr.Call call) {
    Expr current = call;
    for (Node p = analysis.parent(current);
        p instanceof Expr.Call later && later.receiver() == current;
        p = analysis.parent(current)) {
      if (later.name().equals("timeout")
          || (later.args().size() == 1
              && (later.name().equals("take") || TIMED_WAITS.contains(later.name()))
              && isDuration(later.args().get(0)))) {
        return true;
      }
      current = later;
    }
    return false;
  }

  /**
   * Tells whether what a retry operator returns is subscribed and waited for further down the same
   * chain ({@code block()}, {@code blockFirst()}, {@code blockLast()}, {@code blockOptional()},
   * {@code toFuture()}, {@code toIterable()}, {@code toStream()}): the retries then run inside the
   * calling attempt, not later.
   *
   * @param analysis the method's analysis
   * @param call a retry operator
   * @return {@code true} if a later operator of its chain blocks on it
   */
  @SuppressWarnings("ReferenceEquality") // nodes are compared by identity
  public static boolean isBlockedDownstream(MethodAnalysis analysis, Expr.Call call) {
    Expr current = call;
    for (Node p = analysis.parent(current);
        p instanceof Expr.Call later && later.receiver() == current;
        p = analysis.parent(current)) {
      if (TIMED_WAITS.contains(later.name()) || BLOCKING_ADAPTERS.contains(later.name())) {
        return true;
      }
      current = later;
    }
    return false;
  }

  /**
   * The retry operator a callee whose source the frontend sees returns ({@code Mono<T> fetch() {
   * return client.get().retry(3); }}), for a call whose result is a {@code Mono} or {@code Flux}: a
   * {@code return} of a chain that ends in one of the operators {@link #retries} reads.
   *
   * @param analysis the calling method's analysis
   * @param call a call returning a Reactor publisher
   * @return the operator's retries ({@link #UNKNOWN} when not a constant), or {@code null} when the
   *     callee is not seen, is the caller itself, or returns no such chain
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  public static Long returnedRetries(MethodAnalysis analysis, Expr.Call call) {
    if (!call.type().isSubtypeOf(MONO) && !call.type().isSubtypeOf(FLUX)) {
      return null; /* Fast path: not a publisher. */
    }
    MethodModel callee = analysis.context().unit().declarationInProject(call);
    if (callee == null || callee == analysis.method()) {
      return null;
    }
    MethodAnalysis of = MethodAnalysis.of(callee, analysis.context().unit().contextOf(callee));
    for (Node n : of.bodyFrameNodes()) {
      if (n instanceof Stmt.Return returned && returned.value() != null) {
        for (Expr e = returned.value(); e instanceof Expr.Call chained; e = chained.receiver()) {
          Long retries = retries(of, chained);
          if (retries != null) {
            return retries;
          }
        }
      }
    }
    return null;
  }

  private static boolean isDuration(Expr expr) {
    return expr.type().name().equals("java.time.Duration")
        || (expr instanceof Expr.Call call && Nodes.isStaticCallOn(call, "java.time.Duration"));
  }

  /**
   * A count stated by the code: an {@code int}/{@code long} literal, {@code Long.MAX_VALUE} or
   * {@code Integer.MAX_VALUE} ({@link #FOREVER}), or a local or field of the same class holding
   * one.
   *
   * @param analysis the method's analysis
   * @param expr the count's expression
   * @return the count, {@link #FOREVER}, or {@link #UNKNOWN}
   */
  public static long count(MethodAnalysis analysis, Expr expr) {
    return count(analysis, expr, 0);
  }

  @SuppressWarnings("ReferenceEquality") // an origin that is the expression itself
  private static long count(MethodAnalysis analysis, Expr expr, int depth) {
    if (expr instanceof Expr.Literal literal
        && (literal.value() instanceof Integer || literal.value() instanceof Long)) {
      long value = ((Number) literal.value()).longValue();
      return value >= Integer.MAX_VALUE ? FOREVER : value;
    }
    if (expr instanceof Expr.Name name && name.name().equals("MAX_VALUE")) {
      return name.qualifier() == null
              || (name.qualifier() instanceof Expr.Name q
                  && (q.name().equals("Long") || q.name().equals("Integer")))
          ? FOREVER
          : UNKNOWN;
    }
    if (expr instanceof Expr.Name && depth < 3) {
      List<Expr> origins = analysis.origins(expr);
      if (origins.size() == 1 && origins.get(0) != expr) {
        return count(analysis, origins.get(0), depth + 1);
      }
    }
    return UNKNOWN;
  }
}
