package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class RetryBudgetTest {
  private final FakeClock clock = new FakeClock();

  private RetryBudget.Builder budget() {
    return RetryBudget.builder().ticker(clock);
  }

  private static int drain(RetryBudget budget) {
    int granted = 0;
    while (budget.tryAcquireRetry()) {
      granted++;
    }
    return granted;
  }

  @Test
  void startsWithOneSecondOfTheFloor() {
    assertThat(drain(budget().ratio(0).minRetriesPerSecond(5).build())).isEqualTo(5);
  }

  @Test
  void theFloorRefillsWithTickerTime() {
    RetryBudget budget = budget().ratio(0).minRetriesPerSecond(10).build();
    drain(budget);

    clock.advance(Duration.ofMillis(250));
    assertThat(drain(budget)).isEqualTo(2); // 2.5 tokens earned, 2 whole ones spent

    clock.advance(Duration.ofMillis(50));
    assertThat(drain(budget)).isEqualTo(1); // the half token carried over, plus 0.5
  }

  @Test
  void successesDepositTheRatio() {
    RetryBudget budget = budget().ratio(0.1).minRetriesPerSecond(0).build();

    for (int i = 0; i < 25; i++) {
      budget.recordSuccess();
    }

    assertThat(budget.availableTokens()).isEqualTo(2.5);
    assertThat(drain(budget)).isEqualTo(2);
  }

  @Test
  void theBalanceNeverExceedsMaxTokens() {
    RetryBudget budget = budget().ratio(1).minRetriesPerSecond(10).maxTokens(3).build();

    clock.advance(Duration.ofDays(10_000));
    for (int i = 0; i < 100; i++) {
      budget.recordSuccess();
    }

    assertThat(drain(budget)).isEqualTo(3);
  }

  @Test
  void aLongQuietPeriodFillsTheBucketWithoutOverflow() {
    RetryBudget budget =
        budget()
            .ratio(0)
            .minRetriesPerSecond(Integer.MAX_VALUE)
            .maxTokens(Integer.MAX_VALUE)
            .build();
    budget.tryAcquireRetry();

    clock.advance(Duration.ofDays(365 * 200));

    assertThat(budget.availableTokens()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void withNoFloorAndNoSuccessesNothingIsGranted() {
    RetryBudget budget = budget().ratio(0.2).minRetriesPerSecond(0).build();

    clock.advance(Duration.ofHours(1));

    assertThat(budget.tryAcquireRetry()).isFalse();
  }

  @Test
  void rejectsBadSettingsWithTheValueInTheMessage() {
    assertThatThrownBy(() -> RetryBudget.builder().ratio(-0.1)).hasMessageContaining("-0.1");
    assertThatThrownBy(() -> RetryBudget.builder().ratio(Double.NaN)).hasMessageContaining("NaN");
    assertThatThrownBy(() -> RetryBudget.builder().minRetriesPerSecond(-1))
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> RetryBudget.builder().maxTokens(0)).hasMessageContaining("was 0");
  }

  @Test
  void toStringShowsTheSettingsAndBalance() {
    assertThat(budget().ratio(0.25).minRetriesPerSecond(4).maxTokens(8).build().toString())
        .isEqualTo("RetryBudget[ratio=0.25, minRetriesPerSecond=4, maxTokens=8, available=4.0]");
  }
}
