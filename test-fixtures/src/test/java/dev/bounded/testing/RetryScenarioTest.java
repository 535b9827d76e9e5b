package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.DeadlineExceededException;
import dev.bounded.runtime.RetriesExhaustedException;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.UnknownOutcomeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Retry against scripted dependencies, as users of the test fixtures would write it. */
final class RetryScenarioTest {
  private final ManualTicker ticker = new ManualTicker();
  private final RecordingSleeper sleeper = new RecordingSleeper(ticker);

  private RetryPolicy.Builder policy() {
    return RetryPolicy.builder()
        .maxAttempts(3)
        .backoff(Duration.ofMillis(100), Duration.ofSeconds(1))
        .retryOn(IOException.class)
        .sleeper(sleeper)
        .random(FixedRandom.highest());
  }

  @Test
  void aFlakyDependencyIsCalledThreeTimesAndBackoffSpendsTheDeadline() throws Exception {
    ScriptedDependency<String> inventory =
        ScriptedDependency.failing(new ConnectException("refused"), new ConnectException("refused"))
            .thenReturning("42 in stock");
    Deadline deadline = Deadline.after(Duration.ofSeconds(2), ticker);

    String stock = policy().build().call(deadline, attempt -> inventory.call());

    assertThat(stock).isEqualTo("42 in stock");
    assertThat(inventory.calls()).isEqualTo(3);
    assertThat(sleeper.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(1700));
  }

  @Test
  void aDownDependencyExhaustsTheAttempts() {
    ScriptedDependency<String> down =
        ScriptedDependency.failing(
                new ConnectException("1"), new ConnectException("2"), new ConnectException("3"))
            .thenReturning("never");

    Throwable thrown = catchThrowable(() -> policy().build().call(attempt -> down.call()));

    assertThat(thrown).isInstanceOf(RetriesExhaustedException.class);
    assertThat(down.calls()).isEqualTo(3);
  }

  @Test
  void aDeadlineShorterThanTheBackoffFailsWithoutSleeping() {
    ScriptedDependency<String> down =
        ScriptedDependency.failing(new ConnectException("1")).thenReturning("late");

    Throwable thrown =
        catchThrowable(
            () ->
                policy()
                    .build()
                    .call(Deadline.after(Duration.ofMillis(50), ticker), attempt -> down.call()));

    assertThat(thrown).isInstanceOf(DeadlineExceededException.class);
    assertThat(sleeper.sleeps()).isEmpty();
  }

  @Test
  void anHttpTimeoutMayHaveBeenProcessedSoAPostIsNotRetried() {
    ScriptedDependency<String> post =
        ScriptedDependency.failing(new HttpTimeoutException("request timed out"))
            .thenReturning("created");

    Throwable thrown = catchThrowable(() -> policy().build().call(attempt -> post.call()));

    assertThat(thrown).isInstanceOf(UnknownOutcomeException.class);
    assertThat(post.calls()).isEqualTo(1);
  }

  @Test
  void anHttpConnectTimeoutSentNothingSoItIsAnOrdinaryTransientFailure() throws Exception {
    ScriptedDependency<String> post =
        ScriptedDependency.failing(new HttpConnectTimeoutException("connect timed out"))
            .thenReturning("created");

    String created = policy().build().call(attempt -> post.call());

    assertThat(created).isEqualTo("created");
    assertThat(post.calls()).isEqualTo(2);
  }
}
