package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/** The shared retry-loop analysis, on its own: which loops are retry loops, and why. */
final class RetryLoopsTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(RetryLoopMarker.class, getClass());

  @Test
  void retryLoops() {
    helper
        .addSourceLines(
            "R.java",
            """
            import java.io.IOException;
            import java.util.concurrent.Callable;
            import java.util.concurrent.TimeUnit;
            import java.util.stream.IntStream;

            class R {
              String countedWithReturn(Callable<String> c) throws Exception {
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS, COUNTS_ATTEMPTS]
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }

              String infiniteWithCapInside(Callable<String> c) throws Exception {
                int attempt = 0;
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS, COUNTS_ATTEMPTS]
                while (true) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    if (++attempt >= 3) {
                      throw e;
                    }
                  }
                }
              }

              String forEver(Callable<String> c) throws Exception {
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS]
                for (;;) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    System.err.println(e);
                  }
                }
              }

              void doWhileWithFlag(Runnable r) {
                boolean retry;
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS]
                do {
                  retry = false;
                  try {
                    r.run();
                  } catch (IllegalStateException e) {
                    retry = true;
                  }
                } while (retry);
              }

              String resultCondition(Callable<String> c) {
                String result = null;
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS]
                while (result == null) {
                  try {
                    result = c.call();
                  } catch (Exception e) {
                    // again
                  }
                }
                return result;
              }

              String continueInCatch(Callable<String> c) throws Exception {
                int attempts = 0;
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS, COUNTS_ATTEMPTS]
                while (attempts < 5) {
                  attempts++;
                  try {
                    return c.call();
                  } catch (IOException e) {
                    continue;
                  }
                }
                return null;
              }

              boolean sleepsWithoutCatch(Callable<Boolean> ready) throws Exception {
                // BUG: Diagnostic contains: retry loop [EXITS_ON_SUCCESS, COUNTS_ATTEMPTS, SLEEPS]
                for (int attempt = 0; attempt < 10; attempt++) {
                  if (ready.call()) {
                    return true;
                  }
                  TimeUnit.MILLISECONDS.sleep(50);
                }
                return false;
              }

              void range(Runnable r) {
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, NUMERIC_RANGE]
                IntStream.range(0, 3).forEach(i -> {
                  try {
                    r.run();
                  } catch (RuntimeException e) {
                    // next
                  }
                });
              }

              String labelled(Callable<String> c) throws Exception {
                String result = null;
                retry:
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS, COUNTS_ATTEMPTS]
                for (int attempt = 0; attempt < 3; attempt++) {
                  for (int i = 0; i < 2; i++) {
                    try {
                      result = c.call();
                      break retry;
                    } catch (IOException e) {
                      continue retry;
                    }
                  }
                }
                return result;
              }

              String remainderIsNoCap(Callable<String> c) throws Exception {
                // BUG: Diagnostic contains: retry loop [RETRYING_CATCH, EXITS_ON_SUCCESS]
                for (int retry = 1; ; retry++) {
                  try {
                    return c.call();
                  } catch (IOException e) {
                    if (retry % 4 == 0) {
                      System.err.println(e);
                    }
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void notRetryLoops() {
    helper
        .addSourceLines(
            "N.java",
            """
            import java.io.BufferedReader;
            import java.io.IOException;
            import java.net.ServerSocket;
            import java.util.Iterator;
            import java.util.List;
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.Callable;

            class N {
              private volatile boolean running = true;

              // For-each over a collection: a new item each round.
              void each(List<Callable<String>> calls) {
                for (Callable<String> c : calls) {
                  try {
                    c.call();
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                }
              }

              void forEachLambda(List<Runnable> jobs) {
                jobs.forEach(job -> {
                  try {
                    job.run();
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                });
              }

              // Index loops walk items.
              void indexed(List<Runnable> jobs) {
                for (int i = 0; i < jobs.size(); i++) {
                  try {
                    jobs.get(i).run();
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                }
              }

              // Queue, iterator, socket and reader loops take a new item each round.
              void worker(BlockingQueue<Runnable> queue) {
                while (running) {
                  try {
                    queue.take().run();
                  } catch (InterruptedException e) {
                    return;
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                }
              }

              void drain(BlockingQueue<Runnable> queue) {
                Runnable next;
                while ((next = queue.poll()) != null) {
                  try {
                    next.run();
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                }
              }

              void iterate(Iterator<Runnable> it) {
                while (it.hasNext()) {
                  try {
                    it.next().run();
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                }
              }

              void serve(ServerSocket server) throws IOException {
                while (true) {
                  try {
                    server.accept().close();
                  } catch (IOException e) {
                    System.err.println(e);
                  }
                }
              }

              void lines(BufferedReader reader) throws IOException {
                String line;
                while ((line = reader.readLine()) != null) {
                  try {
                    Integer.parseInt(line);
                  } catch (NumberFormatException e) {
                    System.err.println(e);
                  }
                }
              }

              // A worker loop repeats forever by design: no exit on success, no count.
              void heartbeat(Runnable beat) throws InterruptedException {
                while (running) {
                  try {
                    beat.run();
                  } catch (RuntimeException e) {
                    System.err.println(e);
                  }
                  Thread.sleep(1000);
                }
              }

              // Every failure leaves the loop: nothing is retried.
              String exitsOnFailure(Callable<String> c) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return c.call();
                  } catch (Exception e) {
                    return null;
                  }
                }
                return null;
              }

              // A catch that can complete but is followed by an unconditional exit.
              String fallsIntoExit(Callable<String> c) {
                while (true) {
                  try {
                    return c.call();
                  } catch (Exception e) {
                    System.err.println(e);
                  }
                  break;
                }
                return null;
              }

              // Polling a condition is not retrying an operation.
              void poll(java.util.function.BooleanSupplier ready) throws InterruptedException {
                while (!ready.getAsBoolean()) {
                  Thread.sleep(10);
                }
              }

              // Goes on after a success: repeats the call twice, whatever happens.
              void repeatsRegardless(Callable<String> c, List<Object> outcomes) {
                for (int call = 0; call < 2; call++) {
                  try {
                    outcomes.add(c.call());
                  } catch (Exception e) {
                    outcomes.add(e);
                  }
                }
              }

              // A plain counted loop without failures or sleeps.
              int sum(int[] values) {
                int total = 0;
                for (int i = 0; i < values.length; i++) {
                  total += values[i];
                }
                return total;
              }
            }
            """)
        .doTest();
  }
}
