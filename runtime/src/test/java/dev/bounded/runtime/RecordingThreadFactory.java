package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Collectors;

/**
 * The runtime's own thread check: a factory that remembers every thread it made, so a test can
 * assert that none outlived the scope or executor that started it. (Users get {@code
 * dev.bounded.testing.FailOnThreadLeak}, which compares all live threads; the runtime cannot depend
 * on test-fixtures without a reactor cycle, and knowing exactly which threads a scope made is the
 * sharper check here anyway.)
 */
final class RecordingThreadFactory implements ThreadFactory {
  private final String prefix;
  private final Thread.UncaughtExceptionHandler handler;
  private final List<Thread> threads = new ArrayList<>();

  RecordingThreadFactory(String prefix) {
    this(prefix, null);
  }

  RecordingThreadFactory(String prefix, Thread.UncaughtExceptionHandler handler) {
    this.prefix = prefix;
    this.handler = handler;
  }

  @Override
  public synchronized Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + "-" + (threads.size() + 1));
    if (handler != null) {
      thread.setUncaughtExceptionHandler(handler);
    }
    threads.add(thread);
    return thread;
  }

  synchronized List<Thread> threads() {
    return List.copyOf(threads);
  }

  /** Fails, naming them, if any thread this factory made is still alive. No waiting. */
  void assertNoneAlive() {
    List<Thread> alive = threads().stream().filter(Thread::isAlive).collect(Collectors.toList());
    assertThat(alive)
        .as(
            "threads still alive: %s",
            alive.stream().map(t -> t.getName() + " " + t.getState()).collect(Collectors.toList()))
        .isEmpty();
  }
}
