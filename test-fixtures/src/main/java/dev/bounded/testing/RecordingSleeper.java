package dev.bounded.testing;

import dev.bounded.runtime.Sleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Sleeper} that records every requested delay and advances a {@link ManualTicker} by it
 * instead of sleeping: backoff is observable and a test's time passes in no time.
 *
 * <pre>{@code
 * ManualTicker ticker = new ManualTicker();
 * RecordingSleeper sleeper = new RecordingSleeper(ticker);
 * RetryPolicy policy = RetryPolicy.builder().sleeper(sleeper).retryOn(IOException.class).build();
 * policy.call(Deadline.after(Duration.ofSeconds(5), ticker), attempt -> flaky.call());
 * assertThat(sleeper.sleeps()).hasSize(2);
 * }</pre>
 *
 * <p>Like {@link Thread#sleep}, it throws {@link InterruptedException} (and clears the flag) when
 * the calling thread is interrupted on entry. {@link #interruptSleep(int)} makes a chosen sleep
 * behave as if the thread were interrupted while waiting. Thread-safe.
 */
public final class RecordingSleeper implements Sleeper {
  private final ManualTicker ticker;
  private final List<Duration> sleeps = new ArrayList<>();
  private int interruptedSleep;

  /**
   * Creates a sleeper that advances {@code ticker}.
   *
   * @param ticker the ticker to advance by each delay
   */
  public RecordingSleeper(ManualTicker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Makes the {@code n}-th call to {@link #sleep} (counting from 1) throw {@link
   * InterruptedException} after recording its delay, without advancing time.
   *
   * @param n which sleep is interrupted
   * @return this sleeper
   */
  public synchronized RecordingSleeper interruptSleep(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("sleeps are counted from 1, was " + n);
    }
    this.interruptedSleep = n;
    return this;
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    Objects.requireNonNull(duration, "duration");
    boolean interrupt;
    synchronized (this) {
      sleeps.add(duration);
      interrupt = sleeps.size() == interruptedSleep;
    }
    if (Thread.interrupted() || interrupt) {
      throw new InterruptedException("interrupted while sleeping " + duration);
    }
    ticker.advance(duration);
  }

  /**
   * Returns every delay requested so far, in order.
   *
   * @return a copy of the recorded delays
   */
  public synchronized List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  /**
   * Returns the sum of the recorded delays.
   *
   * @return the total time asked for
   */
  public synchronized Duration totalSlept() {
    return sleeps.stream().reduce(Duration.ZERO, Duration::plus);
  }
}
