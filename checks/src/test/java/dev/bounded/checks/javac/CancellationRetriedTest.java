package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class CancellationRetriedTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(CancellationRetried.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(CancellationRetried.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.util.concurrent.CancellationException;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.function.Supplier;

            class A {
              // Not a loop.
              String once(Future<String> f) throws Exception {
                try {
                  return f.get();
                } catch (CancellationException e) {
                  return null;
                }
              }

              // Leaves the loop on cancellation.
              String leaves(Supplier<Future<String>> s) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get().get();
                  } catch (CancellationException e) {
                    throw e;
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }

              // A broad clause after one that takes the cancellation.
              String earlier(Supplier<CompletableFuture<String>> s) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get().join();
                  } catch (CancellationException e) {
                    return null;
                  } catch (RuntimeException e) {
                    // retry
                  }
                }
                return null;
              }

              // A broad clause around code that waits on no future.
              String noFuture(Supplier<String> s) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get();
                  } catch (RuntimeException e) {
                    // retry
                  }
                }
                return null;
              }

              // A broad clause that classifies.
              String classifies(Supplier<CompletableFuture<String>> s) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get().join();
                  } catch (RuntimeException e) {
                    if (e instanceof CancellationException) {
                      throw e;
                    }
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
            import java.util.concurrent.CancellationException;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.function.Supplier;

            class B {
              String direct(Supplier<Future<String>> s) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get().get();
                    // BUG: Diagnostic contains: catches CancellationException and goes round again
                  } catch (CancellationException | ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }

              String broad(Supplier<CompletableFuture<String>> s) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get().join();
                    // BUG: Diagnostic contains: catches RuntimeException around join()
                  } catch (RuntimeException e) {
                    System.err.println(e);
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
            import java.util.concurrent.Future;
            import java.util.function.Supplier;

            class C {
              String broad(Supplier<Future<String>> s) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get().get();
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
                return null;
              }
            }
            """)
        .addOutputLines(
            "C.java",
            """
            import java.util.concurrent.CancellationException;
            import java.util.concurrent.Future;
            import java.util.function.Supplier;

            class C {
              String broad(Supplier<Future<String>> s) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return s.get().get();
                  } catch (CancellationException cancelled) {
                    throw cancelled;
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
                return null;
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }
}
