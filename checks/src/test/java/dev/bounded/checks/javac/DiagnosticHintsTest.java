package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * What the build output says about fixes: a finding that carries one says so, and Error Prone's
 * "Did you mean" line shows the changed code (not the unchanged line, and also when the fix adds
 * imports); a finding without a fix says nothing of one.
 */
final class DiagnosticHintsTest {

  @Test
  void interruptRetriedShowsTheRestoreNotTheUnchangedCatchLine() {
    CompilationTestHelper.newInstance(InterruptRetried.class, getClass())
        .addSourceLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;

            class A {
              String call(Future<String> f) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get();
                    // BUG: Diagnostic matches: HINT
                  } catch (InterruptedException e) {
                    System.err.println("interrupted, retrying");
                  } catch (ExecutionException e) {
                    System.err.println("failed, retrying");
                  }
                }
                return null;
              }
            }
            """)
        .expectErrorMessage(
            "HINT",
            m ->
                m.contains("Suggested fix: Restore the interrupt flag and leave the loop")
                    && m.contains("Did you mean 'Thread.currentThread().interrupt();'?"))
        .doTest();
  }

  @Test
  void perAttemptTimeoutShowsItsHintThoughTheFixAddsAnImport() {
    CompilationTestHelper.newInstance(PerAttemptTimeout.class, getClass())
        .addSourceLines(
            "B.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;

            class B {
              String quote(Future<String> pricing) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic matches: HINT
                    return pricing.get(2, TimeUnit.SECONDS);
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }
            }
            """)
        .expectErrorMessage(
            "HINT",
            m ->
                m.contains("Suggested fix: Compute one deadline")
                    && m.contains(
                        "Did you mean 'long deadlineNanos = System.nanoTime() +"
                            + " TimeUnit.SECONDS.toNanos(2);'?"))
        .doTest();
  }

  @Test
  void unboundedSubmissionShowsItsHintThoughTheFixAddsImports() {
    CompilationTestHelper.newInstance(UnboundedSubmission.class, getClass())
        .addSourceLines(
            "C.java",
            """
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;

            class C {
              private final ExecutorService pool = Executors.newFixedThreadPool(4);

              void run(List<Runnable> jobs) {
                for (Runnable job : jobs) {
                  // BUG: Diagnostic matches: HINT
                  pool.execute(job);
                }
              }
            }
            """)
        .expectErrorMessage(
            "HINT",
            m -> m.contains("Suggested fix: Bound the queue") && m.contains("Did you mean '"))
        .doTest();
  }

  @Test
  void aFindingWithoutAFixSaysNothingOfOne() {
    CompilationTestHelper.newInstance(UnclassifiedExceptionRetry.class, getClass())
        .addSourceLines(
            "D.java",
            """
            import java.util.concurrent.Callable;

            class D {
              String call(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                    // BUG: Diagnostic matches: NO_FIX
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
                return null;
              }
            }
            """)
        .expectErrorMessage(
            "NO_FIX",
            m ->
                m.contains("[UnclassifiedExceptionRetry]")
                    && !m.contains("Suggested fix")
                    && !m.contains("Did you mean"))
        .doTest();
  }
}
