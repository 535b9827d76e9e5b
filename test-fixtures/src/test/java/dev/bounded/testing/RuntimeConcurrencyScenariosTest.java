package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.DeadlineExceededException;
import dev.bounded.runtime.ShutdownReport;
import dev.bounded.runtime.Subtask;
import dev.bounded.runtime.TaskScope;
import dev.bounded.runtime.TaskScopeFailedException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cross-module scenarios: the runtime's scope and executor, on their default thread factories,
 * under the leak check that users get. Nothing here waits on the clock: a {@link ManualTicker}
 * drives deadlines and latches drive order.
 */
@FailOnThreadLeak
@Timeout(30)
final class RuntimeConcurrencyScenariosTest {

  @Test
  void aFailedScopeLeavesNoThreadBehind() {
    CountDownLatch started = new CountDownLatch(1);
    try (TaskScope scope = TaskScope.builder().name("offer").open()) {
      Subtask<String> stock =
          scope.fork(
              () -> {
                started.countDown();
                new CountDownLatch(1).await(); // a slow dependency, until cancelled
                return "never";
              });
      scope.fork(
          () -> {
            started.await();
            throw new IllegalStateException("pricing down");
          });

      assertThatThrownBy(scope::join)
          .isInstanceOf(TaskScopeFailedException.class)
          .hasRootCauseMessage("pricing down");
      assertThat(stock.state()).isEqualTo(Subtask.State.CANCELLED);
    }
  }

  @Test
  void aScopeOnAManualDeadlineEndsWithDeadlineExceeded() {
    ManualTicker ticker = new ManualTicker();
    CountDownLatch started = new CountDownLatch(1);
    try (TaskScope scope = TaskScope.open(Deadline.after(Duration.ofMillis(200), ticker))) {
      scope.fork(
          () -> {
            started.countDown();
            new CountDownLatch(1).await();
            return "never";
          });
      scope.fork(
          () -> {
            started.await();
            ticker.advance(Duration.ofMillis(201));
            return "the owner wakes when this finishes, and sees the deadline passed";
          });

      assertThatThrownBy(scope::join).isExactlyInstanceOf(DeadlineExceededException.class);
    }
  }

  @Test
  void anExecutorDrainedAndAwaitedLeavesNoWorkerBehind() throws Exception {
    BoundedExecutor executor =
        BoundedExecutor.builder("inventory").workers(2).queueCapacity(8).build();
    Future<Integer> answer = executor.submit(() -> 42);
    assertThat(answer.get()).isEqualTo(42);

    ShutdownReport report = executor.shutdown(Duration.ofDays(1));

    assertThat(report.notRun()).isEmpty();
    assertThat(report.terminated()).isTrue();
    assertThat(executor.awaitTermination(1, java.util.concurrent.TimeUnit.DAYS)).isTrue();
  }
}
