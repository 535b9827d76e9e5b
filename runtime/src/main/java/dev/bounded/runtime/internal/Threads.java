package dev.bounded.runtime.internal;

/** Waiting for threads without losing an interrupt: the flag is restored, never swallowed. */
public final class Threads {
  private Threads() {}

  /**
   * Waits until {@code thread} has terminated, even if the caller is interrupted meanwhile.
   *
   * <p>Used only once the thread has been told to stop (its work is done or it was interrupted), so
   * the wait is for the thread's last instructions, not for open-ended work.
   *
   * @param thread the thread to wait for
   * @return {@code true} if the caller was interrupted while waiting; the caller restores the flag
   *     (by then, not before: a set flag would end every later wait at once)
   */
  public static boolean joinUninterruptibly(Thread thread) {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        return interrupted;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
  }
}
