package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class NestedRetryTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(NestedRetry.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.io.IOException;
            import java.util.concurrent.Callable;

            class A {
              private String fetchOnce(Callable<String> c) throws Exception {
                return c.call();
              }

              // The callee does not retry.
              String outer(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return fetchOnce(c);
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }

              private String retrying(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }

              // A retrying callee called once, outside any retry loop.
              String once(Callable<String> c) throws Exception {
                return retrying(c);
              }

              // A retrying callee called per item: not a retry of the same call.
              void each(Iterable<Callable<String>> calls) throws Exception {
                for (Callable<String> c : calls) {
                  retrying(c);
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
            import java.io.IOException;
            import java.util.concurrent.Callable;

            class B {
              private final Inner inner = new Inner();

              static final class Inner {
                private static final int MAX_ATTEMPTS = 5;

                String fetch(Callable<String> c) throws Exception {
                  for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                    try {
                      return c.call();
                    } catch (IOException e) {
                      Thread.sleep(100);
                    }
                  }
                  throw new IOException("gave up");
                }
              }

              private String retrying(Callable<String> c) throws Exception {
                int attempts = 0;
                while (true) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    if (++attempts >= 3) {
                      throw e;
                    }
                  }
                }
              }

              String outer(Callable<String> c) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: 3 x 3 = 9 calls
                    return retrying(c);
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }

              String nestedClass(Callable<String> c) throws Exception {
                for (int attempt = 1; attempt <= 4; attempt++) {
                  try {
                    // BUG: Diagnostic contains: calls fetch(), which retries too (5 attempts): 4 x 5 = 20 calls
                    return inner.fetch(c);
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }

              String uncounted(Callable<String> c) throws Exception {
                while (true) {
                  try {
                    // BUG: Diagnostic contains: n x 3 calls
                    return retrying(c);
                  } catch (IOException e) {
                    Thread.sleep(100);
                  }
                }
              }
            }
            """)
        .doTest();
  }
}
