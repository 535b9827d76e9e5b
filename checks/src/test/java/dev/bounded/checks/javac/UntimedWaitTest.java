package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class UntimedWaitTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(UntimedWait.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(UntimedWait.class, getClass());

  /** Bounded's Deadline, as the checks' test class path has no runtime. */
  private static final String DEADLINE =
      """
      package dev.bounded.runtime;

      public final class Deadline {
        public long remainingNanos() {
          return 0;
        }
      }
      """;

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.time.Duration;
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.CountDownLatch;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;
            import java.util.function.Supplier;

            class A {
              // No deadline in scope, no retry loop: the caller chose to wait.
              String plain(Future<String> f) throws Exception {
                return f.get();
              }

              // Timed forms.
              String timed(Future<String> f, Duration timeout) throws Exception {
                return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
              }

              boolean latch(CountDownLatch latch, long timeoutMillis) throws Exception {
                return latch.await(timeoutMillis, TimeUnit.MILLISECONDS);
              }

              // Guarded by isDone: the result is there.
              String done(Future<String> f, Duration timeout) throws Exception {
                if (f.isDone()) {
                  return f.get();
                }
                return null;
              }

              // Not a wait: Supplier.get and a map's get.
              String supplier(Supplier<String> s, Duration timeout) {
                return s.get();
              }

              // A branch on the timeout itself chose to wait without a limit.
              Runnable chosen(BlockingQueue<Runnable> queue, long timeoutMillis)
                  throws InterruptedException {
                if (timeoutMillis <= 0) {
                  return queue.take();
                }
                return queue.poll(timeoutMillis, TimeUnit.MILLISECONDS);
              }

              // The timeout belongs to the task the lambda hands it to, not to this wait.
              void handedOn(Thread worker, java.util.concurrent.ExecutorService pool)
                  throws Exception {
                Duration timeout = Duration.ofSeconds(1);
                pool.submit(
                    () -> {
                      Thread.sleep(timeout.toMillis());
                      return null;
                    });
                worker.join();
              }

              // A Timer named like a timeout is not a bound.
              void timer(Thread worker) throws InterruptedException {
                java.util.Timer timeoutTimer = new java.util.Timer();
                timeoutTimer.cancel();
                worker.join();
              }

              // The timeout was handed to the operation that completes the future.
              interface Client {
                Future<String> send(String request, long deadlineMs);
              }

              String handedToTheCall(Client client, Duration timeout) throws Exception {
                Future<String> f = client.send("x", System.currentTimeMillis() + timeout.toMillis());
                return f.get();
              }

              // put() on a queue without capacity never blocks.
              private final BlockingQueue<String> unbounded =
                  new java.util.concurrent.LinkedBlockingQueue<>();

              void requeue(String item, long timeoutMillis) throws InterruptedException {
                unbounded.put(item);
              }

              // A worker loop that takes items: not a retry loop, no deadline.
              void worker(BlockingQueue<Runnable> queue) throws InterruptedException {
                while (true) {
                  queue.take().run();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void identificationPositives() {
    helper
        .addSourceLines("dev/bounded/runtime/Deadline.java", DEADLINE)
        .addSourceLines(
            "B.java",
            """
            import dev.bounded.runtime.Deadline;
            import java.time.Duration;
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.CountDownLatch;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.function.Supplier;

            class B {
              String deadline(Future<String> f, Deadline deadline) throws Exception {
                // BUG: Diagnostic contains: has a deadline or timeout in scope (deadline)
                return f.get();
              }

              void latch(CountDownLatch latch, long timeoutMillis) throws InterruptedException {
                // BUG: Diagnostic contains: await(timeout, unit)
                latch.await();
              }

              <T> T queue(BlockingQueue<T> queue, Duration timeout) throws InterruptedException {
                // BUG: Diagnostic contains: poll(timeout, unit)
                return queue.take();
              }

              String retried(Supplier<CompletableFuture<String>> s) throws InterruptedException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: it is in a retry loop
                    return s.get().join();
                  } catch (RuntimeException e) {
                    Thread.sleep(100);
                  }
                }
                return null;
              }

              void thread(Thread worker, Duration timeout) throws InterruptedException {
                // BUG: Diagnostic contains: join(millis)
                worker.join();
              }
            }
            """)
        .doTest();
  }

  @Test
  void replacement() {
    refactoring
        .addInputLines("dev/bounded/runtime/Deadline.java", DEADLINE)
        .expectUnchanged()
        .addInputLines(
            "C.java",
            """
            import dev.bounded.runtime.Deadline;
            import java.time.Duration;
            import java.util.concurrent.Future;

            class C {
              String deadline(Future<String> f, Deadline deadline) throws Exception {
                return f.get();
              }

              String duration(Future<String> f, Duration timeout) throws InterruptedException {
                try {
                  return f.get();
                } catch (Exception e) {
                  return null;
                }
              }

              // TimeoutException neither caught nor declared: no fix.
              String undeclared(Future<String> f, Deadline deadline)
                  throws InterruptedException, java.util.concurrent.ExecutionException {
                return f.get();
              }
            }
            """)
        .addOutputLines(
            "C.java",
            """
            import dev.bounded.runtime.Deadline;
            import java.time.Duration;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;

            class C {
              String deadline(Future<String> f, Deadline deadline) throws Exception {
                return f.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
              }

              String duration(Future<String> f, Duration timeout) throws InterruptedException {
                try {
                  return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
                } catch (Exception e) {
                  return null;
                }
              }

              // TimeoutException neither caught nor declared: no fix.
              String undeclared(Future<String> f, Deadline deadline)
                  throws InterruptedException, java.util.concurrent.ExecutionException {
                return f.get();
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }
}
