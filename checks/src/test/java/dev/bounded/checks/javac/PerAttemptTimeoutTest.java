package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class PerAttemptTimeoutTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(PerAttemptTimeout.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(PerAttemptTimeout.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.time.Duration;
            import java.time.Instant;
            import java.util.List;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.TimeoutException;

            class A {
              // One wait, no loop.
              String once(Future<String> f) throws Exception {
                return f.get(5, TimeUnit.SECONDS);
              }

              // Waits bounded by what the deadline has left.
              String nanoTimeDeadline(Future<String> f, long timeoutNanos) throws Exception {
                long end = System.nanoTime() + timeoutNanos;
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get(end - System.nanoTime(), TimeUnit.NANOSECONDS);
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }

              String remainingLocal(Future<String> f, Instant end) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  long left = Duration.between(Instant.now(), end).toMillis();
                  try {
                    return f.get(left, TimeUnit.MILLISECONDS);
                  } catch (ExecutionException e) {
                    // retry
                  }
                }
                return null;
              }

              String cappedByRemaining(Future<String> f, Budget budget) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return f.get(Math.min(1000, budget.remainingMillis()), TimeUnit.MILLISECONDS);
                  } catch (ExecutionException | TimeoutException e) {
                    // retry
                  }
                }
                return null;
              }

              // A deadline exists before the loop (the author chose a per-attempt cap on top).
              String deadlineBefore(Future<String> f) throws Exception {
                long deadline = System.currentTimeMillis() + 10_000;
                while (System.currentTimeMillis() < deadline) {
                  try {
                    return f.get(1, TimeUnit.SECONDS);
                  } catch (TimeoutException e) {
                    // retry
                  }
                }
                return null;
              }

              // A per-item loop: one wait per item, not per attempt.
              void each(List<Future<String>> futures) throws Exception {
                for (Future<String> f : futures) {
                  try {
                    System.out.println(f.get(1, TimeUnit.SECONDS));
                  } catch (TimeoutException e) {
                    f.cancel(true);
                  }
                }
              }

              interface Budget {
                long remainingMillis();
              }
            }
            """)
        .doTest();
  }

  /**
   * The only implementation of an abstract method is found in the sources of the compilation even
   * when the abstract class is also on the class path (the library's own jar, a stale build's
   * output): javac keeps that class file as the class's, though it compiles the class from source
   * (seen on nacos-client's RpcClient.start, tune nacos-client-006).
   */
  @Test
  void theOnlyImplementationOfAClassAlsoOnTheClassPath() {
    helper
        .addSourceLines(
            "dev/bounded/checks/javac/stale/StaleConnector.java",
            """
            package dev.bounded.checks.javac.stale;

            public abstract class StaleConnector {
              public abstract String connect();

              public String start(int retries) {
                for (int attempt = 0; attempt <= retries; attempt++) {
                  try {
                    // BUG: Diagnostic contains: calls connect(), which waits with a fresh timeout
                    return connect();
                  } catch (RuntimeException e) {
                    System.err.println("attempt " + attempt + " failed: " + e);
                  }
                }
                return null;
              }
            }
            """)
        .addSourceLines(
            "dev/bounded/checks/javac/stale/FutureConnector.java",
            """
            package dev.bounded.checks.javac.stale;

            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.TimeUnit;

            final class FutureConnector extends StaleConnector {
              private final CompletableFuture<String> handshake = new CompletableFuture<>();

              @Override
              public String connect() {
                try {
                  return handshake.get(3, TimeUnit.SECONDS);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void anOverloadWithoutABodyIsNoRecursion() {
    helper
        .addSourceLines(
            "Port.java",
            """
            import java.io.IOException;
            import java.net.URI;

            interface Port {
              void connect(String address, long timeoutNanos) throws IOException;

              // Delegates to the abstract overload of the same arity: no second attempt.
              default void connect(URI uri, long timeoutNanos) throws IOException {
                connect(uri.toString(), timeoutNanos);
              }

              boolean ready();

              default void awaitReady(long timeoutNanos) throws IOException {
                if (!ready()) {
                  // BUG: Diagnostic contains: calls awaitReady() again with the caller's whole
                  awaitReady(timeoutNanos);
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
            import java.net.InetSocketAddress;
            import java.net.Socket;
            import java.net.URI;
            import java.net.http.HttpRequest;
            import java.time.Duration;
            import java.util.concurrent.CompletableFuture;
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.TimeoutException;
            import java.util.concurrent.locks.Lock;

            class B {
              String futureGet(Future<String> f) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: fresh timeout (get(5, TimeUnit.SECONDS))
                    return f.get(5, TimeUnit.SECONDS);
                  } catch (TimeoutException e) {
                    // retry
                  }
                }
                return null;
              }

              String orTimeout(CompletableFuture<String> f) {
                while (true) {
                  try {
                    // BUG: Diagnostic contains: PerAttemptTimeout
                    return f.orTimeout(2, TimeUnit.SECONDS).join();
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                }
              }

              boolean lock(Lock lock, long timeoutMillis) throws InterruptedException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  // BUG: Diagnostic contains: fresh timeout
                  if (lock.tryLock(timeoutMillis, TimeUnit.MILLISECONDS)) {
                    return true;
                  }
                  Thread.sleep(100);
                }
                return false;
              }

              HttpRequest request(URI uri, int attempt) {
                return HttpRequest.newBuilder(uri).build();
              }

              void http(URI uri) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: fresh timeout
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build();
                    return;
                  } catch (IllegalStateException e) {
                    // retry
                  }
                }
              }

              void connect(InetSocketAddress address) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try (Socket socket = new Socket()) {
                    // BUG: Diagnostic contains: fresh timeout
                    socket.connect(address, 2000);
                    return;
                  } catch (java.io.IOException e) {
                    // retry
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void configuredMethodsTakeATimeoutToo() {
    helper
        .setArgs("-XepOpt:PerAttemptTimeout:Methods=C.Client#fetch")
        .addSourceLines(
            "C.java",
            """
            class C {
              interface Client {
                String fetch(String key, long timeoutMillis) throws java.io.IOException;
              }

              String fetch(Client client) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: fresh timeout (fetch("k", 500))
                    return client.fetch("k", 500);
                  } catch (java.io.IOException e) {
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
  void fixUsesPlainNanoTimeWithoutTheRuntime() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.ExecutionException;
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.TimeoutException;

            class A {
              static final long TIMEOUT = 5;

              String call(Future<String> primary, Future<String> fallback) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return primary.get(TIMEOUT, TimeUnit.SECONDS);
                  } catch (TimeoutException e) {
                    return fallback.get(TIMEOUT, TimeUnit.SECONDS);
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
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.TimeoutException;

            class A {
              static final long TIMEOUT = 5;

              String call(Future<String> primary, Future<String> fallback) throws Exception {
                long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT);
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return primary.get(Math.max(0L, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                  } catch (TimeoutException e) {
                    return fallback.get(Math.max(0L, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
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
  void noFixWhenTheTimeoutIsComputedInsideTheLoop() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.util.concurrent.Future;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.TimeoutException;

            class A {
              String call(Future<String> f) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  long wait = 100L << attempt;
                  try {
                    return f.get(wait, TimeUnit.MILLISECONDS);
                  } catch (TimeoutException e) {
                    // retry
                  }
                }
                return null;
              }
            }
            """)
        .expectUnchanged()
        .doTest();
  }

  @Test
  void noFixForADurationTimeoutBecauseZeroIsRefused() {
    refactoring
        .addInputLines(
            "A.java",
            """
            import java.net.URI;
            import java.net.http.HttpRequest;
            import java.time.Duration;

            class A {
              void call(URI uri) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build();
                    return;
                  } catch (IllegalStateException e) {
                    // retry
                  }
                }
              }
            }
            """)
        .expectUnchanged()
        .doTest();
  }
}
