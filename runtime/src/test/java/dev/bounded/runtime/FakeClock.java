package dev.bounded.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's own test clock: a ticker that moves only when slept on. (Users get the richer
 * {@code dev.bounded.testing} helpers; the runtime cannot depend on them without a reactor cycle.)
 */
final class FakeClock implements Ticker, Sleeper {
  private final AtomicLong now;
  private final List<Duration> sleeps = new ArrayList<>();

  FakeClock() {
    this(0L);
  }

  FakeClock(long start) {
    this.now = new AtomicLong(start);
  }

  @Override
  public long read() {
    return now.get();
  }

  @Override
  public synchronized void sleep(Duration duration) throws InterruptedException {
    sleeps.add(duration);
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted in sleep");
    }
    advance(duration);
  }

  void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }

  synchronized List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }
}
