package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.model.Finding;
import java.util.List;

/**
 * One of Bounded's rules: a method's analysis in, findings out. Rules are stateless and
 * thread-safe; frontends (the Error Prone plugin, the scanner) run them.
 */
public interface Rule {

  /**
   * Returns the rule's name: the check name, the {@code @SuppressWarnings} key and the name of its
   * page under {@code docs/rules/}.
   *
   * @return the name
   */
  String name();

  /**
   * Checks one method.
   *
   * @param analysis the method's shared analysis
   * @param config the user's configuration
   * @return the findings, in source order
   */
  List<Finding> check(MethodAnalysis analysis, RuleConfig config);
}
