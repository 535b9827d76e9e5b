package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many short scopes, seeded, through every path of the lock-free hand-over: 1 to 60 forks each, so
 * that idle threads are reused, parked and woken; in a quarter of the scopes one subtask fails
 * while others block until interrupted; half of the scopes have a deadline (far away, so the
 * threads signal the owner on every completion); one in twenty is closed without a join. Bounded in
 * count (1,500 scopes per seed, 2 seeds), a few seconds here, so it runs with every build.
 *
 * <p>Each scope is checked: join fails if and only if a subtask failed, and then counts exactly the
 * subtasks that are {@code FAILED}; without a failure every result is the subtask's own; after
 * close no subtask is {@code RUNNING} and no thread the scope started is alive.
 */
@Timeout(60)
final class TaskScopeStressTest {
  private static final int SCOPES = 1_500;

  @ParameterizedTest
  @ValueSource(longs = {13L, 2026L})
  void everyScopeSettlesEverySubtaskAndLeavesNoThread(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int failedScopes = 0;
    for (int i = 0; i < SCOPES; i++) {
      if (runOne(random, i)) {
        failedScopes++;
      }
    }
    assertThat(failedScopes).isBetween(SCOPES / 8, SCOPES / 2); // both outcomes were exercised
  }

  /** Runs one seeded scope and checks it; returns whether its join failed. */
  private static boolean runOne(SplittableRandom random, int index) {
    RecordingThreadFactory threads = new RecordingThreadFactory("stress-" + index);
    int forks = 1 + random.nextInt(60);
    int failing = random.nextInt(4) == 0 ? random.nextInt(forks) : -1;
    boolean join = random.nextInt(20) != 0;
    TaskScope.Builder builder = TaskScope.builder().name("stress-" + index).threadFactory(threads);
    if (random.nextBoolean()) {
      builder.deadline(Deadline.after(Duration.ofHours(1)));
    }
    List<Subtask<Integer>> subtasks = new ArrayList<>();
    TaskScopeFailedException failure = null;
    boolean closedWithoutJoin = false;
    TaskScope scope = builder.open();
    try {
      for (int i = 0; i < forks; i++) {
        int value = i;
        // Blockers only where a failure will cancel them, or close will: else join would wait.
        boolean blocks = (failing >= 0 || !join) && random.nextInt(8) == 0;
        subtasks.add(
            scope.fork(
                () -> {
                  if (value == failing) {
                    throw new IllegalStateException("subtask " + value);
                  }
                  if (blocks) {
                    new CountDownLatch(1).await(); // until the scope cancels it
                  }
                  return value;
                }));
      }
      if (join) {
        try {
          scope.join();
        } catch (TaskScopeFailedException e) {
          failure = e;
        }
      }
    } finally {
      try {
        scope.close();
      } catch (IllegalStateException misuse) {
        closedWithoutJoin = true;
      }
    }

    assertThat(closedWithoutJoin).isEqualTo(!join && !subtasks.isEmpty());
    assertThat(subtasks).noneMatch(s -> s.state() == Subtask.State.RUNNING);
    threads.assertNoneAlive();
    if (join) {
      assertThat(failure != null).as("scope %d failed", index).isEqualTo(failing >= 0);
    }
    if (failure != null) {
      long failed = subtasks.stream().filter(s -> s.state() == Subtask.State.FAILED).count();
      assertThat(failure.failures()).isEqualTo((int) failed).isEqualTo(1);
      assertThat(subtasks.get(failing).state()).isEqualTo(Subtask.State.FAILED);
    } else if (join) {
      for (int i = 0; i < forks; i++) {
        assertThat(subtasks.get(i).get()).isEqualTo(i);
      }
    }
    return failure != null;
  }
}
