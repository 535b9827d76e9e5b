package dev.bounded.scanner.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The debouncer runs the latest task of a key once the key has been quiet for the delay. */
final class DebouncerTest {
  private final ManualScheduler clock = new ManualScheduler();
  private final List<String> ran = new ArrayList<>();
  private final Debouncer debouncer = new Debouncer(Duration.ofMillis(150), clock, Runnable::run);

  @Test
  void aBurstRunsOnceAfterTheLastChange() {
    debouncer.submit("a", () -> ran.add("a1"));
    clock.advance(Duration.ofMillis(100));
    debouncer.submit("a", () -> ran.add("a2"));
    clock.advance(Duration.ofMillis(100));
    debouncer.submit("a", () -> ran.add("a3"));
    clock.advance(Duration.ofMillis(149));
    assertThat(ran).isEmpty();

    clock.advance(Duration.ofMillis(1));

    assertThat(ran).containsExactly("a3");
    assertThat(clock.cancelled()).isEqualTo(2);
    assertThat(clock.pending()).isZero();
  }

  @Test
  void keysAreDebouncedApart() {
    debouncer.submit("a", () -> ran.add("a"));
    debouncer.submit("b", () -> ran.add("b"));

    clock.advance(Duration.ofMillis(150));

    assertThat(ran).containsExactly("a", "b");
  }

  @Test
  void aCancelledKeyDoesNotRun() {
    debouncer.submit("a", () -> ran.add("a"));
    debouncer.submit("b", () -> ran.add("b"));
    debouncer.cancel("a");

    clock.advance(Duration.ofMillis(150));
    assertThat(ran).containsExactly("b");

    debouncer.submit("c", () -> ran.add("c"));
    debouncer.cancelAll();
    clock.advance(Duration.ofMillis(150));
    assertThat(ran).containsExactly("b");
  }
}
