package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class InterruptSwallowedTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(InterruptSwallowed.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(InterruptSwallowed.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              String restores(Future<String> f) throws ExecutionException {
                try {
                  return f.get();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return null;
                }
              }

              String rethrows(Future<String> f) throws Exception {
                try {
                  return f.get();
                } catch (InterruptedException e) {
                  throw e;
                }
              }

              String rethrowsAsAnInterrupt(Future<String> f) throws java.io.IOException {
                try {
                  return f.get();
                } catch (InterruptedException | ExecutionException e) {
                  throw new java.io.InterruptedIOException("interrupted");
                }
              }

              String wrapsAfterRestoring(Future<String> f) throws ExecutionException {
                try {
                  return f.get();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException("interrupted", e);
                }
              }

              void handsItToAFuture(Future<String> f, CompletableFuture<String> out) {
                try {
                  out.complete(f.get());
                } catch (InterruptedException e) {
                  out.completeExceptionally(e);
                } catch (ExecutionException e) {
                  out.completeExceptionally(e.getCause());
                }
              }

              void helperRestores(Future<String> f) throws ExecutionException {
                try {
                  f.get();
                } catch (InterruptedException e) {
                  restoreInterrupt();
                }
              }

              private static void restoreInterrupt() {
                Thread.currentThread().interrupt();
              }

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

              // Caught through Exception around a call that only declares Exception: it may
              // throw an interrupt, but nothing says it does (InterruptRetried's business in a
              // retry loop).
              void broadAroundOpaqueCall(java.util.concurrent.Callable<String> c) {
                try {
                  c.call();
                } catch (Exception e) {
                  System.err.println(e);
                }
              }

              // A retry loop that goes round again: InterruptRetried reports it instead.
              String retried(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  } catch (InterruptedException | ExecutionException e) {
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
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class B {
              void sleepQuietly(long millis) {
                try {
                  Thread.sleep(millis);
                  // BUG: Diagnostic contains: InterruptedException is swallowed
                } catch (InterruptedException ignored) {
                }
              }

              String logsOnly(Future<String> f) throws ExecutionException {
                try {
                  return f.get();
                  // BUG: Diagnostic contains: Thread.currentThread().interrupt()
                } catch (InterruptedException e) {
                  System.err.println("interrupted: " + e);
                  return null;
                }
              }

              // A broad catch around a call that throws InterruptedException swallows it too.
              void broad(Future<String> f) {
                try {
                  f.get();
                  // BUG: Diagnostic contains: This catch of Exception swallows the
                } catch (Exception e) {
                  System.err.println(e);
                }
              }

              // Wrapped in another type without restoring the flag: callers that catch the
              // wrapper carry on, and the flag that said "stop" is cleared.
              String wrapsAsCause(Future<String> f) throws ExecutionException {
                try {
                  return f.get();
                  // BUG: Diagnostic contains: InterruptedException is swallowed
                } catch (InterruptedException e) {
                  throw new IllegalStateException("interrupted", e);
                }
              }

              String wrapsThroughALocal(Future<String> f) throws ExecutionException {
                try {
                  return f.get();
                  // BUG: Diagnostic contains: InterruptedException is swallowed
                } catch (InterruptedException e) {
                  RuntimeException failure = new RuntimeException(e);
                  throw failure;
                }
              }

              String wrapsWithoutCause(Future<String> f) throws ExecutionException {
                try {
                  return f.get();
                  // BUG: Diagnostic contains: swallowed
                } catch (InterruptedException e) {
                  throw new IllegalStateException("interrupted");
                }
              }

              void worker(BlockingQueue<Runnable> queue) {
                while (true) {
                  try {
                    queue.take().run();
                    // BUG: Diagnostic contains: swallowed
                  } catch (InterruptedException e) {
                    // keep serving
                  }
                }
              }

              Runnable inLambda(Future<String> f) {
                return () -> {
                  try {
                    f.get();
                    // BUG: Diagnostic contains: swallowed
                  } catch (InterruptedException | ExecutionException e) {
                    e.printStackTrace();
                  }
                };
              }

              void clearsTheFlagAgain() {
                try {
                  Thread.sleep(10);
                  // BUG: Diagnostic contains: swallowed
                } catch (InterruptedException e) {
                  Thread.interrupted();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void fixRestoresTheFlag() {
    refactoring
        .addInputLines(
            "A.java",
            """
            class A {
              void sleepQuietly(long millis) {
                try {
                  Thread.sleep(millis);
                } catch (InterruptedException ignored) {
                }
              }

              void logs(long millis) {
                try {
                  Thread.sleep(millis);
                } catch (InterruptedException e) {
                  System.err.println(e);
                }
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            class A {
              void sleepQuietly(long millis) {
                try {
                  Thread.sleep(millis);
                } catch (InterruptedException ignored) {
                  Thread.currentThread().interrupt();
                }
              }

              void logs(long millis) {
                try {
                  Thread.sleep(millis);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  System.err.println(e);
                }
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void fixRestoresOnlyForTheInterruptInAMultiCatch() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              void get(Future<String> f) {
                try {
                  f.get();
                } catch (InterruptedException | ExecutionException e) {
                  System.err.println(e);
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
              void get(Future<String> f) {
                try {
                  f.get();
                } catch (InterruptedException | ExecutionException e) {
                  if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                  }
                  System.err.println(e);
                }
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void getInItsOwnCallbackIsExemptOnlyForCompletableFuture() {
    helper
        .addSourceLines(
            "B.java",
            """
            import java.util.concurrent.CompletableFuture;
            import java.util.function.BiConsumer;

            class B {
              /** A future of another library whose get() checks the interrupt flag first. */
              interface CheckingFuture<T> {
                T get() throws InterruptedException;

                void whenComplete(BiConsumer<T, Throwable> callback);
              }

              void own(CompletableFuture<String> reply) {
                reply.whenComplete(
                    (value, failure) -> {
                      try {
                        System.out.println(reply.get());
                      } catch (Exception e) {
                        System.out.println("failed");
                      }
                    });
              }

              void other(CheckingFuture<String> reply) {
                reply.whenComplete(
                    (value, failure) -> {
                      try {
                        System.out.println(reply.get());
                        // BUG: Diagnostic contains: swallows the InterruptedException
                      } catch (Exception e) {
                        System.out.println("failed");
                      }
                    });
              }
            }
            """)
        .doTest();
  }

  @Test
  void aLoggingHelperGivenAWrapperDoesNotPropagate() {
    helper
        .addSourceLines(
            "ClientLogger.java",
            """
            interface ClientLogger {
              RuntimeException logExceptionAsError(RuntimeException e);

              RuntimeException bubble(Exception e);
            }
            """)
        .addSourceLines(
            "C.java",
            """
            import java.util.concurrent.Semaphore;

            class C {
              ClientLogger logger;

              // The wrapper is built here: the logging helper only logs it and hands it back.
              void wrapped(Semaphore permits) {
                try {
                  permits.acquire();
                  // BUG: Diagnostic contains: InterruptedException is swallowed
                } catch (InterruptedException e) {
                  throw logger.logExceptionAsError(new RuntimeException(e));
                }
              }

              // Given the interrupt itself, a helper of another file may restore the flag: silent.
              void handedOver(Semaphore permits) {
                try {
                  permits.acquire();
                } catch (InterruptedException e) {
                  throw logger.bubble(e);
                }
              }
            }
            """)
        .doTest();
  }
}
