package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class UncappedBackoffTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(UncappedBackoff.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(UncappedBackoff.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.io.IOException;
            import java.util.concurrent.Callable;

            class A {
              private static final long MAX_DELAY = 10_000;

              // Capped with Math.min.
              String min(Callable<String> c) throws Exception {
                long delay = 100;
                for (int attempt = 0; attempt < 10; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(delay);
                    delay = Math.min(delay * 2, MAX_DELAY);
                  }
                }
                return null;
              }

              // Capped by a comparison.
              String compared(Callable<String> c) throws Exception {
                long delay = 100;
                for (int attempt = 0; attempt < 10; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(delay);
                    delay *= 2;
                    if (delay > MAX_DELAY) {
                      delay = MAX_DELAY;
                    }
                  }
                }
                return null;
              }

              // A capped shift.
              String shift(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 10; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(Math.min(MAX_DELAY, 100L << attempt));
                  }
                }
                return null;
              }

              // A growing value that is not a delay.
              String notADelay(Callable<String> c) throws Exception {
                long size = 1;
                for (int attempt = 0; attempt < 10; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    size *= 2;
                    Thread.sleep(100);
                  }
                }
                return null;
              }
            }
            """)
        .doTest();
  }

  @Test
  void identificationPositives() {
    helper
        .addSourceLines(
            "B.java",
            """
            import java.io.IOException;
            import java.util.concurrent.Callable;
            import java.util.concurrent.TimeUnit;

            class B {
              String doubling(Callable<String> c) throws Exception {
                long delay = 100;
                while (true) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(delay);
                    // BUG: Diagnostic contains: grows with every attempt (delay *= 2)
                    delay *= 2;
                  }
                }
              }

              String shifted(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 20; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // BUG: Diagnostic contains: UncappedBackoff
                    TimeUnit.MILLISECONDS.sleep(100L << attempt);
                  }
                }
                return null;
              }

              String pow(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 20; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // BUG: Diagnostic contains: UncappedBackoff
                    Thread.sleep((long) (100 * Math.pow(2, attempt)));
                  }
                }
                return null;
              }
            }
            """)
        .doTest();
  }

  @Test
  void replacement() {
    refactoring
        .addInputLines(
            "C.java",
            """
            import java.io.IOException;
            import java.util.concurrent.Callable;

            class C {
              String doubling(Callable<String> c) throws Exception {
                long delay = 100;
                while (true) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(delay);
                    delay *= 2;
                  }
                }
              }

              String intDelay(Callable<String> c) throws Exception {
                int delay = 100;
                for (int attempt = 0; attempt < 20; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(delay);
                    delay = delay << 1;
                  }
                }
                return null;
              }
            }
            """)
        .addOutputLines(
            "C.java",
            """
            import java.io.IOException;
            import java.util.concurrent.Callable;

            class C {
              String doubling(Callable<String> c) throws Exception {
                long delay = 100;
                while (true) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(delay);
                    delay = Math.min(delay * 2, 30_000L);
                  }
                }
              }

              String intDelay(Callable<String> c) throws Exception {
                int delay = 100;
                for (int attempt = 0; attempt < 20; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(delay);
                    delay = Math.min(delay << 1, 30_000);
                  }
                }
                return null;
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }
}
