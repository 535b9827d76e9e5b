package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class RecordingSleeperTest {
  private final ManualTicker ticker = new ManualTicker();
  private final RecordingSleeper sleeper = new RecordingSleeper(ticker);

  @AfterEach
  void clearInterruptFlag() {
    Thread.interrupted();
  }

  @Test
  void recordsEachDelayAndAdvancesTheTickerInstead() throws InterruptedException {
    sleeper.sleep(Duration.ofMillis(100));
    sleeper.sleep(Duration.ofMillis(250));

    assertThat(sleeper.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(250));
    assertThat(sleeper.totalSlept()).isEqualTo(Duration.ofMillis(350));
    assertThat(ticker.read()).isEqualTo(Duration.ofMillis(350).toNanos());
  }

  @Test
  void throwsLikeThreadSleepWhenTheThreadIsInterruptedOnEntry() {
    Thread.currentThread().interrupt();

    assertThatThrownBy(() -> sleeper.sleep(Duration.ofSeconds(1)))
        .isInstanceOf(InterruptedException.class);
    assertThat(Thread.currentThread().isInterrupted())
        .as("flag cleared, as Thread.sleep")
        .isFalse();
    assertThat(ticker.read()).isZero();
  }

  @Test
  void aChosenSleepIsInterrupted() throws InterruptedException {
    sleeper.interruptSleep(2);

    sleeper.sleep(Duration.ofMillis(1));
    assertThatThrownBy(() -> sleeper.sleep(Duration.ofMillis(2)))
        .isInstanceOf(InterruptedException.class)
        .hasMessageContaining("PT0.002S");

    assertThat(sleeper.sleeps()).hasSize(2);
    assertThat(ticker.read()).isEqualTo(1_000_000L);
  }

  @Test
  void sleepsAreCountedFromOne() {
    assertThatThrownBy(() -> sleeper.interruptSleep(0)).hasMessageContaining("was 0");
  }
}
