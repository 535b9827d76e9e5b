package dev.bounded.runtime.internal;

import dev.bounded.runtime.Sleeper;
import dev.bounded.runtime.Ticker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The real clock: {@link System#nanoTime()} and {@link Thread#sleep}. The only place they run. */
public enum SystemClock implements Ticker, Sleeper {
  /** The single instance. */
  INSTANCE;

  @Override
  public long read() {
    return System.nanoTime();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    long nanos = Nanos.saturated(duration);
    if (nanos > 0) {
      TimeUnit.NANOSECONDS.sleep(nanos);
    }
  }

  @Override
  public String toString() {
    return "SystemClock";
  }
}
