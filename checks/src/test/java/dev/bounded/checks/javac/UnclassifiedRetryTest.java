package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class UnclassifiedRetryTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(UnclassifiedRetry.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(UnclassifiedRetry.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.io.IOException;
            import java.util.List;
            import java.util.concurrent.Callable;

            class A {
              // Not a loop.
              String once(Callable<String> c) {
                try {
                  return c.call();
                } catch (Throwable t) {
                  return null;
                }
              }

              // A per-item loop: one failure must not stop the batch.
              void batch(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  try {
                    job.run();
                  } catch (Throwable t) {
                    System.err.println(t);
                  }
                }
              }

              // Classified: errors are rethrown.
              String classified(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Throwable t) {
                    if (t instanceof Error) {
                      throw (Error) t;
                    }
                  }
                }
                return null;
              }

              // Errors are handled by an earlier clause.
              String earlierErrorClause(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Error e) {
                    throw e;
                  } catch (Throwable t) {
                    System.err.println(t);
                  }
                }
                return null;
              }

              // Gives up on every failure: the loop does not retry through this clause.
              String givesUp(Callable<String> c) throws IOException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // retry
                  } catch (Throwable t) {
                    throw new IllegalStateException(t);
                  }
                }
                return null;
              }

              // A specific error, deliberately retried ("eventually" assertions in tests).
              void eventually(Runnable assertion) throws InterruptedException {
                for (int attempt = 0; attempt < 50; attempt++) {
                  try {
                    assertion.run();
                    return;
                  } catch (AssertionError e) {
                    Thread.sleep(10);
                  }
                }
              }

              // Exception is the milder rule's business.
              String exception(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Exception e) {
                    // retry
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
            import java.util.concurrent.Callable;

            class B {
              String throwable(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                    // BUG: Diagnostic contains: catches Throwable and goes round again
                  } catch (Throwable t) {
                    System.err.println("retrying after " + t);
                  }
                }
                return null;
              }

              void error(Runnable r) {
                boolean done = false;
                while (!done) {
                  try {
                    r.run();
                    done = true;
                    // BUG: Diagnostic contains: catches Error
                  } catch (RuntimeException | Error e) {
                    System.err.println(e);
                  }
                }
              }

              String loggedWithTheFailure(Callable<String> c) throws InterruptedException {
                int attempt = 0;
                while (true) {
                  try {
                    return c.call();
                    // BUG: Diagnostic contains: UnclassifiedRetry
                  } catch (Throwable t) {
                    if (++attempt >= 5) {
                      return null;
                    }
                    Thread.sleep(100);
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void fixRethrowsErrorsFirst() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.Callable;

            class A {
              String call(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Throwable t) {
                    System.err.println(t);
                  }
                }
                return null;
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            import java.util.concurrent.Callable;

            class A {
              String call(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Error error) {
                    throw error;
                  } catch (Throwable t) {
                    System.err.println(t);
                  }
                }
                return null;
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void noFixForACatchOfError() {
    refactoring
        .addInputLines(
            "A.java",
            """
            class A {
              void call(Runnable r) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    r.run();
                    return;
                  } catch (Error e) {
                    System.err.println(e);
                  }
                }
              }
            }
            """)
        .expectUnchanged()
        .doTest();
  }
}
