package dev.bounded.checks.rules;

import java.util.List;

/** The registry of Bounded's rules: every frontend runs exactly these. */
public final class Rules {
  private static final List<Rule> ALL =
      List.of(
          new InterruptRetriedRule(),
          new InterruptSwallowedRule(),
          new UnclassifiedRetryRule(),
          new UnclassifiedExceptionRetryRule(),
          new PerAttemptTimeoutRule(),
          new UnboundedSubmissionRule(),
          new UnboundedExecutorRule(),
          new NonIdempotentRetryRule(),
          new UnboundedRetryRule(),
          new UnboundedBackgroundRetryRule(),
          new BackoffWithoutJitterRule(),
          new UncappedBackoffRule(),
          new RetryPolicyWithoutJitterRule(),
          new CancellationRetriedRule(),
          new UntimedWaitRule(),
          new UnownedExecutorRule(),
          new NestedRetryRule());

  private Rules() {}

  /**
   * Returns every rule, in a fixed order.
   *
   * @return the rules
   */
  public static List<Rule> all() {
    return ALL;
  }

  /**
   * Returns the rule of this name.
   *
   * @param name a rule name
   * @return the rule
   * @throws IllegalArgumentException if no rule has that name
   */
  public static Rule named(String name) {
    for (Rule rule : ALL) {
      if (rule.name().equals(name)) {
        return rule;
      }
    }
    throw new IllegalArgumentException("no rule named " + name + "; the rules are " + names());
  }

  private static List<String> names() {
    return ALL.stream().map(Rule::name).toList();
  }
}
