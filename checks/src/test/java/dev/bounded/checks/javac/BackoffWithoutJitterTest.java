package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class BackoffWithoutJitterTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(BackoffWithoutJitter.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(BackoffWithoutJitter.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.io.IOException;
            import java.util.Random;
            import java.util.concurrent.Callable;
            import java.util.concurrent.ThreadLocalRandom;
            import java.util.function.BooleanSupplier;

            class A {
              interface Backoff {
                long nextDelay(int attempt);
              }

              private final Random random = new Random();

              // Full jitter.
              String jittered(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(ThreadLocalRandom.current().nextLong(100 << attempt));
                  }
                }
                return null;
              }

              // Jitter added to a local.
              String addedJitter(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    long delay = 100L * attempt;
                    delay += random.nextInt(50);
                    Thread.sleep(delay);
                  }
                }
                return null;
              }

              // A policy computes the delay: it may well randomise.
              String policy(Callable<String> c, Backoff backoff) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(backoff.nextDelay(attempt));
                  }
                }
                return null;
              }

              // No delay at all: nothing to jitter (a yield between attempts).
              String zero(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(0L);
                  }
                }
                return null;
              }

              // A polling loop: no failure is retried.
              void poll(BooleanSupplier ready) throws InterruptedException {
                while (!ready.getAsBoolean()) {
                  Thread.sleep(100);
                }
              }

              // Not a retry loop: a per-item loop.
              void each(Iterable<Runnable> jobs) throws InterruptedException {
                for (Runnable job : jobs) {
                  try {
                    job.run();
                  } catch (RuntimeException e) {
                    Thread.sleep(100);
                  }
                }
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
              private long retryIntervalMillis = 500;

              String constant(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // BUG: Diagnostic contains: no random part (1000)
                    Thread.sleep(1000);
                  }
                }
                return null;
              }

              String doubling(Callable<String> c) throws Exception {
                long delay = 100;
                for (int attempt = 0; attempt < 5; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // BUG: Diagnostic contains: BackoffWithoutJitter
                    TimeUnit.MILLISECONDS.sleep(delay);
                    delay = Math.min(delay * 2, 5_000);
                  }
                }
                return null;
              }

              String configured(Callable<String> c) throws Exception {
                while (true) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // BUG: Diagnostic contains: BackoffWithoutJitter
                    Thread.sleep(retryIntervalMillis);
                  }
                }
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
            import java.util.concurrent.TimeUnit;

            class C {
              String constant(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(1000);
                  }
                }
                return null;
              }

              String variable(Callable<String> c) throws Exception {
                long delay = 100;
                for (int attempt = 0; attempt < 5; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    TimeUnit.MILLISECONDS.sleep(delay);
                    delay = Math.min(delay * 2, 5_000);
                  }
                }
                return null;
              }

              // Whole seconds: no fix, a random number of whole seconds is too coarse.
              String seconds(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    TimeUnit.SECONDS.sleep(1);
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
            import java.util.concurrent.ThreadLocalRandom;
            import java.util.concurrent.TimeUnit;

            class C {
              String constant(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(ThreadLocalRandom.current().nextLong(1001));
                  }
                }
                return null;
              }

              String variable(Callable<String> c) throws Exception {
                long delay = 100;
                for (int attempt = 0; attempt < 5; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(delay + 1));
                    delay = Math.min(delay * 2, 5_000);
                  }
                }
                return null;
              }

              // Whole seconds: no fix, a random number of whole seconds is too coarse.
              String seconds(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    TimeUnit.SECONDS.sleep(1);
                  }
                }
                return null;
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }
}
