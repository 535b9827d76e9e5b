package dev.bounded.checks.javac;

import com.google.errorprone.ErrorProneFlags;
import dev.bounded.checks.rules.RuleConfig;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads Bounded's {@code -XepOpt:} flags into the frontend-neutral {@link RuleConfig}, once per
 * checker instance. Bad values fail the compilation with a message naming the flag.
 */
final class Flags {
  /** Methods to treat as {@code @NonIdempotent}: {@code com.acme.Payments#charge,...}. */
  static final String NON_IDEMPOTENT = "Bounded:NonIdempotent";

  /** Headers that carry an idempotency key (default {@code Idempotency-Key}). */
  static final String IDEMPOTENCY_KEY_HEADER = "Bounded:IdempotencyKeyHeader";

  /** Further methods that take a timeout: {@code com.acme.Client#fetch,...}. */
  static final String TIMEOUT_METHODS = "PerAttemptTimeout:Methods";

  /** Where the rule pages live, to link from diagnostics: a URL or path ending in '/'. */
  static final String DOCS_URL = "Bounded:DocsUrl";

  private Flags() {}

  static RuleConfig ruleConfig(ErrorProneFlags flags) {
    Set<String> headers = new LinkedHashSet<>(flags.getSetOrEmpty(IDEMPOTENCY_KEY_HEADER));
    if (headers.isEmpty()) {
      headers.add(RuleConfig.DEFAULT_IDEMPOTENCY_KEY_HEADER);
    }
    return new RuleConfig(
        flags.getSetOrEmpty(NON_IDEMPOTENT), headers, flags.getSetOrEmpty(TIMEOUT_METHODS));
  }

  static Optional<String> docsUrl(ErrorProneFlags flags) {
    return flags.get(DOCS_URL).map(url -> url.endsWith("/") ? url : url + "/");
  }
}
