package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class InterruptRetriedTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(InterruptRetried.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(InterruptRetried.class, getClass());

  @Test
  void identification() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.util.concurrent.Future;
            import java.util.concurrent.ExecutionException;
            class A {
              String swallowAndRetry(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  // BUG: Diagnostic contains: goes round again
                  } catch (InterruptedException e) {
                    // retry
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }

              String throughException(Future<String> f) {
                while (true) {
                  try {
                    return f.get();
                  // BUG: Diagnostic contains: InterruptRetried
                  } catch (Exception e) {
                    System.err.println(e);
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

              String restoresAndLeaves(Future<String> f) throws ExecutionException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                  } catch (ExecutionException e) {
                    if (attempt == 2) throw e;
                  }
                }
                return null;
              }
            }
            """)
        .doTest();
  }
}
