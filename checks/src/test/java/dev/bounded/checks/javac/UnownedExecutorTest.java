package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class UnownedExecutorTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(UnownedExecutor.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(UnownedExecutor.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.util.List;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.Future;

            class A {
              private ExecutorService field;

              // Shut down in a finally block.
              void finallyShutdown(Runnable task) {
                ExecutorService pool = Executors.newFixedThreadPool(4);
                try {
                  pool.submit(task);
                } finally {
                  pool.shutdown();
                }
              }

              // Returned: the caller owns it.
              ExecutorService returned() {
                ExecutorService pool = Executors.newSingleThreadExecutor();
                return pool;
              }

              // Stored in a field.
              void stored() {
                ExecutorService pool = Executors.newCachedThreadPool();
                field = pool;
              }

              // Handed to another owner.
              void handed(List<ExecutorService> owners) {
                ExecutorService pool = Executors.newCachedThreadPool();
                owners.add(pool);
              }

              // Used by a CompletableFuture stage but shut down in finally.
              String async() throws Exception {
                ExecutorService pool = Executors.newFixedThreadPool(2);
                try {
                  return CompletableFuture.supplyAsync(() -> "x", pool).get();
                } finally {
                  pool.shutdownNow();
                }
              }

              // Not an executor a method creates: the common pool.
              Future<?> common(Runnable task) {
                return CompletableFuture.runAsync(task);
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
            import java.util.concurrent.ArrayBlockingQueue;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.ThreadPoolExecutor;
            import java.util.concurrent.TimeUnit;

            class B {
              void never(Runnable task) {
                // BUG: Diagnostic contains: never shut down
                ExecutorService pool = Executors.newFixedThreadPool(4);
                pool.submit(task);
              }

              void notOnEveryPath(Runnable task) {
                // BUG: Diagnostic contains: shut down only when no exception is thrown
                ExecutorService pool =
                    new ThreadPoolExecutor(
                        1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10));
                pool.execute(task);
                task.run(); // may throw: then the pool is never shut down
                pool.shutdown();
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
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.Future;

            class C {
              String never(Runnable task) throws Exception {
                ExecutorService pool = Executors.newFixedThreadPool(4);
                Future<?> f = pool.submit(task);

                f.get();
                return "done";
              }

              void trailing(Runnable task) {
                ExecutorService pool = Executors.newSingleThreadExecutor();
                pool.execute(task);
                task.run();
                pool.shutdown();
              }
            }
            """)
        .addOutputLines(
            "C.java",
            """
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.Future;

            class C {
              String never(Runnable task) throws Exception {
                ExecutorService pool = Executors.newFixedThreadPool(4);
                try {
                  Future<?> f = pool.submit(task);

                  f.get();
                  return "done";
                } finally {
                  pool.shutdown();
                }
              }

              void trailing(Runnable task) {
                ExecutorService pool = Executors.newSingleThreadExecutor();
                try {
                  pool.execute(task);
                  task.run();
                } finally {
                  pool.shutdown();
                }
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }
}
