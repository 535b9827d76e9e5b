package dev.bounded.scanner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small source files for the command-line tests. */
public final class Samples {
  /**
   * One InterruptSwallowed finding (line 7), with a fix that restores the flag. The wait is source
   * text for the rules to read; no test runs it.
   */
  public static final String SWALLOWED =
      """
      package demo;

      class Pause {
        void pause(java.util.concurrent.BlockingQueue<String> queue) {
          try {
            queue.take();
          } catch (InterruptedException ignored) {
          }
        }
      }
      """;

  /** No finding. */
  static final String CLEAN =
      """
      package demo;

      class Clean {
        int add(int a, int b) {
          return a + b;
        }
      }
      """;

  /**
   * A finding that needs the other file's declaration: the retry loop's catch of Exception receives
   * an interrupt only if Waiter.await declares InterruptedException.
   */
  public static final String CALLS_OTHER_FILE =
      """
      package demo;

      class UsesWaiter {
        void run(Waiter waiter) {
          while (true) {
            try {
              waiter.await();
              return;
            } catch (Exception e) {
              System.err.println("retrying: " + e);
            }
          }
        }
      }
      """;

  public static final String WAITER =
      """
      package demo;

      interface Waiter {
        void await() throws InterruptedException;
      }
      """;

  private Samples() {}

  static Path write(Path dir, String relative, String text) {
    try {
      Path file = dir.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
