package dev.bounded.checks.model;

import java.util.List;

/**
 * What a rule reports: where, why, and how to fix it.
 *
 * @param rule the rule's name, which is also its {@code @SuppressWarnings} key
 * @param span where the problem is; a frontend reports at its start
 * @param message one line: what fails and why, then what to do
 * @param fixes safe fixes, best first; empty when no edit preserves the intended behaviour
 */
public record Finding(String rule, Span span, String message, List<Fix> fixes) {

  /** Copies the list. */
  public Finding {
    fixes = List.copyOf(fixes);
  }
}
