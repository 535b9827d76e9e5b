package dev.bounded.runtime;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: every concurrent history of a shared {@link RetryBudget}'s operations is explained by
 * some sequential order of them. The ticker stands still, so the floor adds nothing and the budget
 * is a pure function of the operations' order; the cap (2 tokens, 0.5 per success) is reached.
 */
public class RetryBudgetLincheckTest {
  private final RetryBudget budget =
      RetryBudget.builder().ratio(0.5).minRetriesPerSecond(0).maxTokens(2).ticker(() -> 0L).build();

  /** Lincheck makes a fresh instance for every scenario it runs. */
  public RetryBudgetLincheckTest() {}

  /** Withdraws a token for a retry, if there is a whole one. */
  @Operation
  public boolean tryAcquireRetry() {
    return budget.tryAcquireRetry();
  }

  /** Deposits half a token. */
  @Operation
  public void recordSuccess() {
    budget.recordSuccess();
  }

  /** Reads the balance. */
  @Operation
  public double availableTokens() {
    return budget.availableTokens();
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions().iterations(20).invocationsPerIteration(200).check(getClass());
  }
}
