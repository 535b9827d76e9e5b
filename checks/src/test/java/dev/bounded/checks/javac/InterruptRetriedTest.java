package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class InterruptRetriedTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(InterruptRetried.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(InterruptRetried.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.concurrent.atomic.AtomicBoolean;

            class A {
              private volatile boolean running = true;
              private final AtomicBoolean stopped = new AtomicBoolean();
              private Thread worker;

              // What makes the wake-ups below expected: the flags are set, then the worker is
              // interrupted.
              void stop() {
                running = false;
                stopped.set(true);
                worker.interrupt();
              }

              // Not in a loop: InterruptSwallowed's business, not this rule's.
              String once(Future<String> f) throws ExecutionException {
                try {
                  return f.get();
                } catch (InterruptedException e) {
                  return null;
                }
              }

              // Restores the flag and leaves: the loop does not go round again.
              String restoreAndReturn(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                  } catch (ExecutionException e) {
                    // transient: retry
                  }
                }
                return null;
              }

              String rethrow(Future<String> f) throws InterruptedException {
                while (true) {
                  try {
                    return f.get();
                  } catch (InterruptedException e) {
                    throw e;
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
              }

              String restoreAndBreak(Future<String> f) {
                String result = null;
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    result = f.get();
                    break;
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return result;
              }

              // The "uninterruptibly" idiom: remember the interrupt, restore it in finally.
              String uninterruptibly(Future<String> f) throws ExecutionException {
                boolean interrupted = false;
                try {
                  while (true) {
                    try {
                      return f.get();
                    } catch (InterruptedException e) {
                      interrupted = true;
                    }
                  }
                } finally {
                  if (interrupted) {
                    Thread.currentThread().interrupt();
                  }
                }
              }

              // Interrupt as a wake-up: the loop condition checks the flag or a stop field.
              void wakeUpOnFlag(Future<String> f) {
                while (!Thread.currentThread().isInterrupted()) {
                  try {
                    f.get();
                    return;
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
              }

              void wakeUpOnStopField(Future<String> f) {
                while (running) {
                  try {
                    f.get();
                    return;
                  } catch (InterruptedException | ExecutionException e) {
                    // woken up to re-check running
                  }
                }
              }

              void wakeUpOnAtomicStop(Future<String> f) {
                while (!stopped.get()) {
                  try {
                    f.get();
                    return;
                  } catch (InterruptedException | ExecutionException e) {
                    // woken up to re-check stopped
                  }
                }
              }

              // A worker loop takes a new item each round: not a retry loop.
              void worker(BlockingQueue<Runnable> queue) {
                while (true) {
                  try {
                    queue.take().run();
                  } catch (InterruptedException e) {
                    // InterruptSwallowed reports this one
                  }
                }
              }

              // Catching Exception when the try body cannot throw InterruptedException.
              int parseWithRetry(String s) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return Integer.parseInt(s);
                  } catch (Exception e) {
                    s = s.trim();
                  }
                }
                return -1;
              }

              // An earlier clause handles the interrupt properly, so Exception never sees it.
              String earlierClause(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                  } catch (Exception e) {
                    // retry
                  }
                }
                return null;
              }

              // The interrupt is caught inside a task submitted from the loop: not this loop's.
              void insideLambda(java.util.concurrent.ExecutorService pool, Future<String> f) {
                for (int i = 0; i < 3; i++) {
                  pool.submit(
                      () -> {
                        try {
                          return f.get();
                        } catch (InterruptedException e) {
                          Thread.currentThread().interrupt();
                          return null;
                        }
                      });
                }
              }

              @SuppressWarnings("InterruptRetried")
              String suppressed(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  } catch (InterruptedException | ExecutionException e) {
                    // deliberately retried (for the test)
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
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;
            import java.util.stream.IntStream;

            class B {
              String swallowed(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                    // BUG: Diagnostic contains: catches InterruptedException and goes round again
                  } catch (InterruptedException e) {
                    // retry
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }

              String namedIgnored(Future<String> f) throws ExecutionException {
                while (true) {
                  try {
                    return f.get();
                    // BUG: Diagnostic contains: InterruptRetried
                  } catch (InterruptedException ignored) {
                  }
                }
              }

              String multiCatch(Future<String> f) {
                int attempts = 0;
                while (attempts++ < 3) {
                  try {
                    return f.get();
                    // BUG: Diagnostic contains: goes round again
                  } catch (ExecutionException | InterruptedException e) {
                    System.err.println("retrying: " + e);
                  }
                }
                return null;
              }

              String throughException(Future<String> f) {
                do {
                  try {
                    return f.get();
                    // BUG: Diagnostic contains: goes round again
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                } while (true);
              }

              String throughThrowable(Future<String> f) {
                for (;;) {
                  try {
                    return f.get();
                    // BUG: Diagnostic contains: goes round again
                  } catch (Throwable t) {
                    System.err.println(t);
                  }
                }
              }

              String restoresButStays(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                    // BUG: Diagnostic contains: restores the interrupt flag but goes round again
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } catch (ExecutionException e) {
                  }
                }
                return null;
              }

              String restoresThenContinues(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                    // BUG: Diagnostic contains: restores the interrupt flag
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    continue;
                  } catch (ExecutionException e) {
                    return null;
                  }
                }
                return null;
              }

              boolean successFlag(Future<String> f) {
                boolean done = false;
                while (!done) {
                  try {
                    f.get();
                    done = true;
                    // BUG: Diagnostic contains: goes round again
                  } catch (InterruptedException | ExecutionException e) {
                    // try again
                  }
                }
                return done;
              }

              void sleepsBetweenAttempts(Runnable call) {
                int attempt = 0;
                while (true) {
                  try {
                    call.run();
                    return;
                  } catch (RuntimeException e) {
                    if (++attempt == 3) {
                      throw e;
                    }
                  }
                  try {
                    TimeUnit.MILLISECONDS.sleep(100L << attempt);
                    // BUG: Diagnostic contains: goes round again
                  } catch (InterruptedException e) {
                    // keep retrying
                  }
                }
              }

              void rangeForEach(Future<String> f) {
                IntStream.range(0, 3)
                    .forEach(
                        attempt -> {
                          try {
                            f.get();
                            // BUG: Diagnostic contains: goes round again
                          } catch (InterruptedException | ExecutionException e) {
                            // next attempt
                          }
                        });
              }
            }
            """)
        .doTest();
  }

  @Test
  void fixRethrowsWhenTheMethodMayThrowIt() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              String call(Future<String> f) throws InterruptedException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  } catch (InterruptedException e) {
                    System.err.println("interrupted, retrying");
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              String call(Future<String> f) throws InterruptedException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    System.err.println("interrupted, retrying");
                    throw e;
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void fixSplitsAMultiCatchAndLeavesTheLoop() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              String call(Future<String> f) {
                String result = null;
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    result = f.get();
                    break;
                  } catch (ExecutionException | InterruptedException e) {
                    System.err.println(e);
                  }
                }
                return result;
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              String call(Future<String> f) {
                String result = null;
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    result = f.get();
                    break;
                  } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                  } catch (ExecutionException e) {
                    System.err.println(e);
                  }
                }
                return result;
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void fixPutsAnInterruptClauseBeforeABroadCatch() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.Future;

            class A {
              String call(Future<String> f) throws Exception {
                while (true) {
                  try {
                    return f.get();
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            import java.util.concurrent.Future;

            class A {
              String call(Future<String> f) throws Exception {
                while (true) {
                  try {
                    return f.get();
                  } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw ie;
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void fixReplacesAHandlerThatContinuesAndUsesTheLoopLabel() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              void call(Future<String> f) {
                retry:
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    f.get();
                    return;
                  } catch (InterruptedException e) {
                    continue retry;
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              void call(Future<String> f) {
                retry:
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    f.get();
                    return;
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break retry;
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void noFixInsideAForEachLambda() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.stream.IntStream;

            class A {
              void call(Future<String> f) {
                IntStream.range(0, 3)
                    .forEach(
                        attempt -> {
                          try {
                            f.get();
                          } catch (InterruptedException | ExecutionException e) {
                            // next attempt
                          }
                        });
              }
            }
            """)
        .expectUnchanged()
        .doTest();
  }
}
