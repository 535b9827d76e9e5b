package dev.bounded.checks.rules;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The user's configuration of the rules, the same for every frontend. The Error Prone plugin reads
 * it from {@code -XepOpt:} flags, the scanner from its command line.
 *
 * @param nonIdempotentMethods methods to treat as {@code @NonIdempotent}, as {@code
 *     com.acme.Payments#charge} (flag {@code Bounded:NonIdempotent})
 * @param idempotencyKeyHeaders header names whose presence makes a request safe to retry, compared
 *     case-insensitively (flag {@code Bounded:IdempotencyKeyHeader}, default {@code
 *     Idempotency-Key})
 * @param timeoutMethods further methods that take a per-call timeout, as {@code
 *     com.acme.Client#fetch} (flag {@code PerAttemptTimeout:Methods})
 */
public record RuleConfig(
    Set<String> nonIdempotentMethods,
    Set<String> idempotencyKeyHeaders,
    Set<String> timeoutMethods) {

  /** The default header that carries an idempotency key. */
  public static final String DEFAULT_IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

  /** The defaults: nothing extra, and the {@code Idempotency-Key} header. */
  public static final RuleConfig DEFAULT =
      new RuleConfig(Set.of(), Set.of(DEFAULT_IDEMPOTENCY_KEY_HEADER), Set.of());

  /**
   * Copies and normalises the sets, validating method references.
   *
   * @throws IllegalArgumentException for a method reference not of the form {@code Type#method}
   */
  public RuleConfig {
    nonIdempotentMethods = validated(nonIdempotentMethods, "Bounded:NonIdempotent");
    timeoutMethods = validated(timeoutMethods, "PerAttemptTimeout:Methods");
    idempotencyKeyHeaders =
        idempotencyKeyHeaders.stream()
            .map(h -> h.trim().toLowerCase(Locale.ROOT))
            .filter(h -> !h.isEmpty())
            .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * Tells whether a header name is one of the configured idempotency-key headers.
   *
   * @param header a header name as written
   * @return {@code true} if it names an idempotency key
   */
  public boolean isIdempotencyKeyHeader(String header) {
    return idempotencyKeyHeaders.contains(header.trim().toLowerCase(Locale.ROOT));
  }

  private static Set<String> validated(Set<String> methods, String flag) {
    for (String method : methods) {
      int hash = method.indexOf('#');
      if (hash <= 0 || hash == method.length() - 1 || method.indexOf('#', hash + 1) >= 0) {
        throw new IllegalArgumentException(
            "-XepOpt:"
                + flag
                + " takes methods as fully.qualified.Type#method, separated by commas; got '"
                + method
                + "'");
      }
    }
    return Set.copyOf(methods);
  }
}
