package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Failure mode E: a retry loop repeats a call that may have committed: an HTTP POST or PATCH, a
 * JDBC update, a method marked {@code @NonIdempotent} or listed in {@code
 * -XepOpt:Bounded:NonIdempotent}. A write that timed out after the request was sent may have taken
 * effect; the retry applies it again.
 *
 * <p>Not reported: reads (GET, SELECT); {@code @Idempotent} methods; requests that carry an
 * idempotency-key header whose value is made once, outside the loop; loops that retry only failures
 * that prove nothing was sent ({@code ConnectException}, {@code UnknownHostException}, {@code
 * HttpConnectTimeoutException}). No automatic fix: choosing the key is the author's job.
 */
public final class NonIdempotentRetryRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "NonIdempotentRetry";

  /** Failures that prove the request never left: retrying them cannot duplicate a write. */
  private static final Set<String> NOTHING_SENT =
      Set.of(
          "java.net.ConnectException",
          "java.net.UnknownHostException",
          "java.net.NoRouteToHostException",
          "java.net.http.HttpConnectTimeoutException",
          "java.nio.channels.UnresolvedAddressException");

  private static final Set<String> JDBC_WRITES =
      Set.of("executeUpdate", "executeLargeUpdate", "executeBatch", "executeLargeBatch");

  private static final Set<String> WRITE_METHODS = Set.of("POST", "PATCH");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (LoopInfo loop : analysis.retryLoops()) {
      if (retriesOnlyUnsentFailures(analysis, loop)) {
        continue;
      }
      for (Node n : analysis.loopLevel(loop)) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        String what = nonIdempotentCall(analysis, loop, call, config);
        if (what != null) {
          findings.add(
              new Finding(
                  NAME,
                  call.nameSpan(),
                  "This retry loop repeats "
                      + what
                      + ", which may have committed: an attempt that timed out after the request"
                      + " was sent may have taken effect, and the retry applies it again. "
                      + remedy(what, config),
                  List.of()));
        }
      }
    }
    return findings;
  }

  /**
   * What to do instead. For HTTP writes, which headers count as an idempotency key and the flag
   * that adds one: a key already sent under another name (X-Request-Id) is not recognised.
   */
  private static String remedy(String what, RuleConfig config) {
    String fallback =
        "mark the method @Idempotent if repeating it is safe, or stop on an unknown outcome"
            + " (UnknownOutcomeException)";
    if (!what.startsWith("an HTTP ")) {
      return "Send an idempotency key made once before the loop, " + fallback;
    }
    List<String> headers = new ArrayList<>(config.idempotencyKeyHeaders());
    headers.sort(null);
    List<String> shown = new ArrayList<>();
    for (String header : headers) {
      shown.add(
          header.equals(RuleConfig.DEFAULT_IDEMPOTENCY_KEY_HEADER.toLowerCase(Locale.ROOT))
              ? RuleConfig.DEFAULT_IDEMPOTENCY_KEY_HEADER
              : header);
    }
    return "Send an idempotency key made once before the loop in a header that counts as one ("
        + String.join(", ", shown)
        + "; a key sent under another header counts once it is added with"
        + " -XepOpt:Bounded:IdempotencyKeyHeader=Idempotency-Key,X-Request-Id), "
        + fallback;
  }

  /** Describes the call if repeating it may duplicate a write, or returns {@code null}. */
  private static String nonIdempotentCall(
      MethodAnalysis analysis, LoopInfo loop, Expr.Call call, RuleConfig config) {
    if (call.method().hasAnnotation("Idempotent")) {
      return null;
    }
    if ((call.isCallTo("java.net.http.HttpClient", "send")
            || call.isCallTo("java.net.http.HttpClient", "sendAsync"))
        && !call.args().isEmpty()) {
      return httpClientWrite(analysis, loop, call.args().get(0), config);
    }
    if (call.isCallTo("java.net.HttpURLConnection", "setRequestMethod")
        && call.args().size() == 1
        && isWriteMethod(Nodes.stringLiteral(call.args().get(0)))
        && !urlConnectionKeyed(analysis, loop, config)) {
      return "an HTTP " + Nodes.stringLiteral(call.args().get(0)).toUpperCase(Locale.ROOT);
    }
    if (isJdbcStatement(call.receiver())) {
      if (JDBC_WRITES.contains(call.name())) {
        return "a JDBC " + call.name();
      }
      if (call.name().equals("execute")) {
        String sql =
            call.args().isEmpty()
                ? preparedSql(analysis, call.receiver())
                : sql(analysis, call.args().get(0));
        if (sql != null && !isRead(sql)) {
          return "a JDBC execute of " + firstWord(sql);
        }
      }
    }
    if (call.method().hasAnnotation("NonIdempotent")) {
      return "@NonIdempotent " + call.name() + "()";
    }
    for (String configured : config.nonIdempotentMethods()) {
      int hash = configured.indexOf('#');
      if (call.isCallTo(configured.substring(0, hash), configured.substring(hash + 1))) {
        return configured + " (configured as non-idempotent)";
      }
    }
    return null;
  }

  private static String httpClientWrite(
      MethodAnalysis analysis, LoopInfo loop, Expr request, RuleConfig config) {
    for (Expr origin : analysis.origins(request)) {
      String method = null;
      boolean keyed = false;
      for (Expr e = origin; e instanceof Expr.Call step; e = step.receiver()) {
        if (step.name().equals("POST")) {
          method = "POST";
        } else if (step.name().equals("method") && !step.args().isEmpty()) {
          String m = Nodes.stringLiteral(step.args().get(0));
          if (isWriteMethod(m)) {
            method = m.toUpperCase(Locale.ROOT);
          }
        } else if ((step.name().equals("header") || step.name().equals("setHeader"))
            && step.args().size() == 2
            && isKeyHeader(step.args().get(0), config)
            && madeOnce(analysis, loop, step.args().get(1))) {
          keyed = true;
        }
      }
      if (method != null && !keyed) {
        return "an HTTP " + method;
      }
    }
    return null;
  }

  /** Whether the loop sets an idempotency key, made once, on its HttpURLConnection. */
  private static boolean urlConnectionKeyed(
      MethodAnalysis analysis, LoopInfo loop, RuleConfig config) {
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call
          && (call.name().equals("setRequestProperty") || call.name().equals("addRequestProperty"))
          && call.args().size() == 2
          && isKeyHeader(call.args().get(0), config)
          && madeOnce(analysis, loop, call.args().get(1))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isKeyHeader(Expr name, RuleConfig config) {
    String header = Nodes.stringLiteral(name);
    return header != null && config.isIdempotencyKeyHeader(header);
  }

  /**
   * Whether a value is made once per logical operation, not once per attempt: written outside the
   * loop, or a parameter, field or constant, or a local assigned only outside the loop.
   */
  private static boolean madeOnce(MethodAnalysis analysis, LoopInfo loop, Expr value) {
    Span loopSpan = loop.span();
    if (value.span().isKnown() && !loopSpan.contains(value.span())) {
      return true;
    }
    if (value instanceof Expr.Literal) {
      return true;
    }
    if (value instanceof Expr.Name name) {
      if (name.kind() == Expr.NameKind.PARAMETER || name.kind() == Expr.NameKind.FIELD) {
        return true;
      }
      if (name.isVariable(name.name())) {
        List<Expr> values = analysis.valuesOf(name.name());
        return !values.isEmpty()
            && values.stream().allMatch(v -> v.span().isKnown() && !loopSpan.contains(v.span()));
      }
    }
    return false;
  }

  /**
   * Whether the loop goes round only after failures that prove nothing was sent: every retrying
   * catch clause catches only such types, and every try block they guard leaves the loop when it
   * completes (so no result, such as a 5xx status, is retried).
   */
  private static boolean retriesOnlyUnsentFailures(MethodAnalysis analysis, LoopInfo loop) {
    boolean anyRetryingCatch = false;
    for (Stmt.Catch clause : analysis.catches()) {
      if (analysis.loopOf(clause) != loop || !analysis.goesRoundAgain(clause, loop)) {
        continue;
      }
      anyRetryingCatch = true;
      for (TypeRef type : clause.types()) {
        if (!NOTHING_SENT.contains(type.name())) {
          return false;
        }
      }
      if (Flow.canCompleteNormally(analysis.tryOf(clause).body())) {
        return false;
      }
    }
    return anyRetryingCatch;
  }

  private static boolean isJdbcStatement(Expr receiver) {
    return receiver != null && receiver.type().isSubtypeOf("java.sql.Statement");
  }

  private static String sql(MethodAnalysis analysis, Expr expr) {
    for (Expr origin : analysis.origins(expr)) {
      String literal = Nodes.stringLiteral(origin);
      if (literal != null) {
        return literal;
      }
    }
    return null;
  }

  private static String preparedSql(MethodAnalysis analysis, Expr statement) {
    for (Expr origin : analysis.origins(statement)) {
      if (origin instanceof Expr.Call prepare
          && (prepare.name().equals("prepareStatement") || prepare.name().equals("prepareCall"))
          && !prepare.args().isEmpty()) {
        return sql(analysis, prepare.args().get(0));
      }
    }
    return null;
  }

  private static boolean isWriteMethod(String method) {
    return method != null && WRITE_METHODS.contains(method.toUpperCase(Locale.ROOT));
  }

  private static boolean isRead(String sql) {
    String word = firstWord(sql);
    return Set.of("SELECT", "WITH", "SHOW", "EXPLAIN", "VALUES", "DESCRIBE", "DESC").contains(word);
  }

  private static String firstWord(String sql) {
    String trimmed = sql.strip();
    int end = 0;
    while (end < trimmed.length() && Character.isLetter(trimmed.charAt(end))) {
      end++;
    }
    return trimmed.substring(0, end).toUpperCase(Locale.ROOT);
  }
}
