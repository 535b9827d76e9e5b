package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class UnboundedRetryTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(UnboundedRetry.class, getClass());
  private final CompilationTestHelper background =
      CompilationTestHelper.newInstance(UnboundedBackgroundRetry.class, getClass());

  private static final String NEAR_MISSES =
      """
      import java.io.IOException;
      import java.util.concurrent.Callable;

      class A {
        interface Policy {
          boolean allowRetry(int count);
        }

        // Counted attempts.
        String counted(Callable<String> c) throws Exception {
          for (int attempt = 0; attempt < 3; attempt++) {
            try {
              return c.call();
            } catch (IOException e) {
              // retry
            }
          }
          return null;
        }

        // Bounded by a deadline read in the loop.
        String deadline(Callable<String> c, long deadlineNanos) throws Exception {
          while (true) {
            try {
              return c.call();
            } catch (IOException e) {
              if (System.nanoTime() > deadlineNanos) {
                throw e;
              }
            }
          }
        }

        // A policy decides in the handler.
        String policy(Callable<String> c, Policy policy) throws Exception {
          int count = 0;
          while (true) {
            try {
              return c.call();
            } catch (IOException e) {
              if (!policy.allowRetry(count)) {
                throw e;
              }
            }
          }
        }

        // A policy decides in the condition.
        String condition(Callable<String> c, Policy policy) throws Exception {
          String result = null;
          int count = 0;
          while (result == null && policy.allowRetry(count)) {
            try {
              result = c.call();
            } catch (IOException e) {
              count = count + 1;
            }
          }
          return result;
        }

        // Not a retry loop: the handler gives up.
        String givesUp(Callable<String> c) throws Exception {
          while (true) {
            try {
              return c.call();
            } catch (IOException e) {
              throw e;
            }
          }
        }

        // An uninterruptible wait: only the interrupt is retried (and restored later).
        void uninterruptible(java.util.concurrent.CountDownLatch latch) {
          boolean interrupted = false;
          while (true) {
            try {
              latch.await();
              break;
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }

        // A retry engine's hook judges the failure and throws once the attempts are spent
        // (resilience4j's Retry.decorateSupplier).
        interface Context {
          void onRuntimeError(RuntimeException e);
        }

        <T> T engine(java.util.function.Supplier<T> supplier, Context context) {
          do {
            try {
              return supplier.get();
            } catch (RuntimeException e) {
              context.onRuntimeError(e);
            }
          } while (true);
        }

        // A field counter compared with a cap.
        private int failures;

        String fieldCounter(Callable<String> c) throws Exception {
          while (true) {
            try {
              return c.call();
            } catch (IOException e) {
              if (++failures > 5) {
                throw e;
              }
            }
          }
        }
      }
      """;

  @Test
  void identificationNegatives() {
    helper.addSourceLines("A.java", NEAR_MISSES).doTest();
    background.addSourceLines("A.java", NEAR_MISSES).doTest();
  }

  @Test
  void identificationPositives() {
    helper
        .addSourceLines(
            "B.java",
            """
            import java.io.IOException;
            import java.util.concurrent.Callable;

            class B {
              private volatile boolean running = true;

              String forever(Callable<String> c) throws Exception {
                // BUG: Diagnostic contains: no attempt cap and no deadline
                while (true) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    Thread.sleep(100);
                  }
                }
              }

              String successFlag(Callable<String> c) {
                String result = null;
                boolean done = false;
                // BUG: Diagnostic contains: UnboundedRetry
                while (!done) {
                  try {
                    result = c.call();
                    done = true;
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
                return result;
              }

              // A stop flag: the background rule's business.
              void reconnect(Callable<String> c) throws InterruptedException {
                while (running) {
                  try {
                    c.call();
                    return;
                  } catch (Exception e) {
                    Thread.sleep(1000);
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void backgroundLoops() {
    background
        .addSourceLines(
            "C.java",
            """
            import java.util.concurrent.Callable;

            class C {
              private volatile boolean running = true;
              private volatile boolean closed;

              void reconnect(Callable<String> c) throws InterruptedException {
                // BUG: Diagnostic contains: until it is stopped
                while (running) {
                  try {
                    c.call();
                    return;
                  } catch (Exception e) {
                    Thread.sleep(1000);
                  }
                }
              }

              // Not a retry loop by the shared analysis (never leaves on success), but a
              // reconnect loop ended only by a stop flag.
              void keepAlive(Callable<String> c) throws InterruptedException {
                // BUG: Diagnostic contains: UnboundedBackgroundRetry
                while (!closed) {
                  try {
                    c.call();
                  } catch (Exception e) {
                    Thread.sleep(1000);
                  }
                }
              }

              // Interruption ends it.
              void untilInterrupted(Callable<String> c) throws InterruptedException {
                // BUG: Diagnostic contains: UnboundedBackgroundRetry
                while (!Thread.currentThread().isInterrupted()) {
                  try {
                    c.call();
                    return;
                  } catch (Exception e) {
                    Thread.sleep(1000);
                  }
                }
              }

              // Success only: the other rule's business.
              void forever(Callable<String> c) throws InterruptedException {
                while (true) {
                  try {
                    c.call();
                    return;
                  } catch (Exception e) {
                    Thread.sleep(1000);
                  }
                }
              }
            }
            """)
        .doTest();
  }

  /** Reactor's Mono, as far as the tests need it (Reactor is not on the tests' class path). */
  private static final String MONO =
      """
      package reactor.core.publisher;

      import java.util.function.Function;
      import reactor.util.retry.Retry;

      public abstract class Mono<T> {
        public final Mono<T> retry() {
          return this;
        }

        public final Mono<T> retry(long maxRetries) {
          return this;
        }

        public final Mono<T> retryWhen(Retry retrySpec) {
          return this;
        }

        public final Mono<T> repeatWhenEmpty(Function<Mono<Long>, ?> repeatFactory) {
          return this;
        }
      }
      """;

  private static final String RETRY =
      """
      package reactor.util.retry;

      public abstract class Retry {
        public static Retry indefinitely() {
          return null;
        }
      }
      """;

  @Test
  void reactorRetriesWhoseCountOrCompanionIsNotStatedAreNotReported() {
    helper
        .addSourceLines("reactor/core/publisher/Mono.java", MONO)
        .addSourceLines("reactor/util/retry/Retry.java", RETRY)
        .addSourceLines(
            "R.java",
            """
            import java.util.function.Function;
            import reactor.core.publisher.Mono;
            import reactor.util.retry.Retry;

            class R {
              // A count from configuration: maybe large, maybe not.
              Mono<String> configured(Mono<String> call, long maxRetries) {
                return call.retry(maxRetries);
              }

              // A spec handed in: the caller's.
              Mono<String> handedIn(Mono<String> call, Retry spec) {
                return call.retryWhen(spec);
              }

              // A companion that is not a lambda here: what it does is not seen.
              Mono<String> companion(Mono<String> call, Function<Mono<Long>, ?> repeats) {
                return call.repeatWhenEmpty(repeats);
              }

              // The positive, so the stubs are proved to be read.
              Mono<String> forever(Mono<String> call) {
                // BUG: Diagnostic contains: retries forever
                return call.retryWhen(Retry.indefinitely());
              }
            }
            """)
        .doTest();
  }
}
