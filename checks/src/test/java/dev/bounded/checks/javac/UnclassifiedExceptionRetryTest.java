package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class UnclassifiedExceptionRetryTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(UnclassifiedExceptionRetry.class, getClass());

  @Test
  void identification() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.io.IOException;
            import java.util.List;
            import java.util.concurrent.Callable;

            class A {
              String unclassified(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                    // BUG: Diagnostic contains: catches Exception without classifying it
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
                return null;
              }

              void runtime(Runnable r) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    r.run();
                    return;
                    // BUG: Diagnostic contains: catches RuntimeException
                  } catch (RuntimeException e) {
                    // retry
                  }
                }
              }

              // Classified with a predicate.
              String predicate(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Exception e) {
                    if (!isTransient(e)) {
                      throw e;
                    }
                  }
                }
                return null;
              }

              // Classified by a condition that reads the failure.
              String condition(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Exception e) {
                    if (e.getMessage() == null) {
                      throw e;
                    }
                  }
                }
                return null;
              }

              // Runtime exceptions are rethrown by an earlier clause: only checked ones land here.
              String checkedOnly(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (RuntimeException e) {
                    throw e;
                  } catch (Exception e) {
                    // retry
                  }
                }
                return null;
              }

              // Specific transient type: fine.
              String specific(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }

              // Per-item loop.
              void each(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  try {
                    job.run();
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                }
              }

              private static boolean isTransient(Exception e) {
                return e instanceof IOException;
              }
            }
            """)
        .doTest();
  }
}
