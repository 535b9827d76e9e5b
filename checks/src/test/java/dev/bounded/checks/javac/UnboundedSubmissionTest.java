package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class UnboundedSubmissionTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(UnboundedSubmission.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(UnboundedSubmission.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.util.List;
            import java.util.concurrent.ArrayBlockingQueue;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.Executor;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.LinkedBlockingQueue;
            import java.util.concurrent.Semaphore;
            import java.util.concurrent.ThreadPoolExecutor;
            import java.util.concurrent.TimeUnit;

            class A {
              private final ExecutorService bounded =
                  new ThreadPoolExecutor(4, 4, 0L, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(100));
              private final ExecutorService boundedLinked =
                  new ThreadPoolExecutor(4, 4, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(100));
              private final ExecutorService fixed = Executors.newFixedThreadPool(4);
              private final Semaphore permits = new Semaphore(100);

              void boundedQueues(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  bounded.execute(job);
                  boundedLinked.execute(job);
                }
              }

              // A single submission is not a flood.
              void single(Runnable job) {
                fixed.submit(job);
              }

              // A permit per task: the loop waits when 100 are in flight.
              void semaphore(List<Runnable> jobs) throws InterruptedException {
                for (Runnable job : jobs) {
                  permits.acquire();
                  fixed.execute(
                      () -> {
                        try {
                          job.run();
                        } finally {
                          permits.release();
                        }
                      });
                }
              }

              // One long-running worker per thread.
              void startWorkers(Runnable worker) {
                for (int i = 0; i < 4; i++) {
                  fixed.execute(worker);
                }
              }

              void startOnePerThread(Runnable worker, int threads) {
                ExecutorService pool = Executors.newFixedThreadPool(threads);
                for (int i = 0; i < threads; i++) {
                  pool.execute(worker);
                }
              }

              // An executor passed in: its queue is unknown here.
              void unknown(Executor executor, List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  executor.execute(job);
                }
              }

              // supplyAsync with a bounded executor.
              void asyncOnBounded(List<String> keys) {
                for (String key : keys) {
                  CompletableFuture.supplyAsync(key::length, bounded);
                }
              }

              @SuppressWarnings("UnboundedSubmission")
              void suppressed(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  fixed.execute(job);
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
            import java.util.List;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.ForkJoinPool;
            import java.util.concurrent.LinkedBlockingQueue;
            import java.util.concurrent.SynchronousQueue;
            import java.util.concurrent.ThreadPoolExecutor;
            import java.util.concurrent.TimeUnit;

            class B {
              private final ExecutorService fixed = Executors.newFixedThreadPool(4);
              private final ExecutorService cached;
              private final ExecutorService unboundedQueue =
                  new ThreadPoolExecutor(4, 4, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
              private final ExecutorService unboundedThreads =
                  new ThreadPoolExecutor(
                      0, Integer.MAX_VALUE, 60L, TimeUnit.SECONDS, new SynchronousQueue<>());

              B() {
                this.cached = Executors.newCachedThreadPool();
              }

              void fixedPool(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  // BUG: Diagnostic contains: newFixedThreadPool(...), whose LinkedBlockingQueue has no capacity
                  fixed.submit(job);
                }
              }

              void cachedPool(List<Runnable> jobs) {
                // BUG: Diagnostic contains: starts a new thread for every task
                jobs.forEach(job -> cached.execute(job));
              }

              void local(List<Runnable> jobs) {
                ExecutorService single = Executors.newSingleThreadExecutor();
                for (Runnable job : jobs) {
                  // BUG: Diagnostic contains: newSingleThreadExecutor
                  single.execute(job);
                }
              }

              void queueWithoutCapacity(List<Runnable> jobs) {
                int i = 0;
                while (i < jobs.size()) {
                  // BUG: Diagnostic contains: ThreadPoolExecutor on a LinkedBlockingQueue without capacity
                  unboundedQueue.execute(jobs.get(i++));
                }
              }

              void threadsWithoutLimit(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  // BUG: Diagnostic contains: no limit on threads
                  unboundedThreads.execute(job);
                }
              }

              void commonPool(List<String> keys) {
                for (String key : keys) {
                  // BUG: Diagnostic contains: the common ForkJoinPool (supplyAsync without an executor)
                  CompletableFuture.supplyAsync(key::length);
                }
              }

              void explicitCommonPool(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  // BUG: Diagnostic contains: common ForkJoinPool
                  ForkJoinPool.commonPool().execute(job);
                }
              }

              void manyRounds(Runnable job) {
                for (int i = 0; i < 1_000_000; i++) {
                  // BUG: Diagnostic contains: UnboundedSubmission
                  fixed.execute(job);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void fixBoundsAFixedPool() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;

            class A {
              private final ExecutorService pool = Executors.newFixedThreadPool(8);

              void run(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  pool.execute(job);
                }
                for (Runnable job : jobs) {
                  pool.submit(job);
                }
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            import java.util.List;
            import java.util.concurrent.ArrayBlockingQueue;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.ThreadPoolExecutor;
            import java.util.concurrent.TimeUnit;

            class A {
              private final ExecutorService pool =
                  new ThreadPoolExecutor(
                      8, 8, 0L, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(1_000),
                      new ThreadPoolExecutor.CallerRunsPolicy());

              void run(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  pool.execute(job);
                }
                for (Runnable job : jobs) {
                  pool.submit(job);
                }
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void fixGivesAQueueACapacity() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.List;
            import java.util.concurrent.LinkedBlockingQueue;
            import java.util.concurrent.ThreadPoolExecutor;
            import java.util.concurrent.TimeUnit;

            class A {
              void run(List<Runnable> jobs) {
                ThreadPoolExecutor pool =
                    new ThreadPoolExecutor(2, 2, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
                for (Runnable job : jobs) {
                  pool.execute(job);
                }
              }
            }
            """)
        .addOutputLines(
            "A.java",
            """
            import java.util.List;
            import java.util.concurrent.LinkedBlockingQueue;
            import java.util.concurrent.ThreadPoolExecutor;
            import java.util.concurrent.TimeUnit;

            class A {
              void run(List<Runnable> jobs) {
                ThreadPoolExecutor pool =
                    new ThreadPoolExecutor(2, 2, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(1_000));
                for (Runnable job : jobs) {
                  pool.execute(job);
                }
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  @Test
  void noFixForACachedPoolOrTheCommonPool() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.List;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;

            class A {
              private final ExecutorService pool = Executors.newCachedThreadPool();

              void run(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  pool.execute(job);
                  CompletableFuture.runAsync(job);
                }
              }
            }
            """)
        .expectUnchanged()
        .doTest();
  }
}
