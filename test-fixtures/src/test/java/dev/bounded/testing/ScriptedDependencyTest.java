package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

final class ScriptedDependencyTest {

  @Test
  void failsInOrderThenReturnsAndCounts() throws Exception {
    IOException first = new IOException("first");
    IllegalStateException second = new IllegalStateException("second");
    ScriptedDependency<String> dependency =
        ScriptedDependency.failing(first, second).thenReturning("ok");

    assertThatThrownBy(dependency::call).isSameAs(first);
    assertThat(dependency.failuresLeft()).isEqualTo(1);
    assertThatThrownBy(dependency::call).isSameAs(second);
    assertThat(dependency.call()).isEqualTo("ok");
    assertThat(dependency.call()).isEqualTo("ok");
    assertThat(dependency.calls()).isEqualTo(4);
    assertThat(dependency.failuresLeft()).isZero();
  }

  @Test
  void throwsErrorsAsTheyAre() {
    OutOfMemoryError oom = new OutOfMemoryError("heap");

    assertThatThrownBy(ScriptedDependency.failing(oom).thenReturning(1)::call).isSameAs(oom);
  }

  @Test
  void refusesAThrowableThatACallCouldNotThrow() {
    assertThatThrownBy(() -> ScriptedDependency.failing(new Throwable("raw")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("raw");
  }

  @Test
  void concurrentCallersEachConsumeADistinctFailureExactlyOnce() throws Exception {
    int threads = 8;
    List<Exception> failures = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      failures.add(new IOException("f" + i));
    }
    ScriptedDependency<String> dependency =
        ScriptedDependency.failing(failures.toArray(new Exception[0])).thenReturning("ok");
    List<Object> outcomes = Collections.synchronizedList(new ArrayList<>());
    CyclicBarrier start = new CyclicBarrier(threads);
    CountDownLatch done = new CountDownLatch(threads);
    List<Thread> workers = new ArrayList<>();

    for (int i = 0; i < threads; i++) {
      Thread worker =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int call = 0; call < 2; call++) {
                    try {
                      outcomes.add(dependency.call());
                    } catch (Exception e) {
                      outcomes.add(e);
                    }
                  }
                } catch (Exception e) {
                  outcomes.add(new AssertionError("barrier broken", e));
                } finally {
                  done.countDown();
                }
              },
              "scripted-caller-" + i);
      workers.add(worker);
      worker.start();
    }
    done.await();
    for (Thread worker : workers) {
      worker.join();
    }

    assertThat(workers).noneMatch(Thread::isAlive);
    assertThat(dependency.calls()).isEqualTo(2 * threads);
    assertThat(outcomes).hasSize(2 * threads);
    assertThat(outcomes.stream().filter(o -> o instanceof IOException).toList())
        .containsExactlyInAnyOrderElementsOf(failures);
    assertThat(outcomes.stream().filter("ok"::equals).toList()).hasSize(threads);
  }
}
