package dev.bounded.runtime.internal;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default thread factory of the runtime's executors and scopes: platform threads named {@code
 * <prefix>-<n>} (n counted from 1), never daemon, so a pool that is never shut down keeps the JVM
 * alive and shows up instead of vanishing. Thread-safe.
 */
public final class NamedThreadFactory implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();

  /**
   * Creates a factory whose threads are named {@code prefix-1}, {@code prefix-2}, ...
   *
   * @param prefix the name of the owning executor or scope
   */
  public NamedThreadFactory(String prefix) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
    thread.setDaemon(false);
    return thread;
  }

  @Override
  public String toString() {
    return "NamedThreadFactory[" + prefix + "]";
  }
}
