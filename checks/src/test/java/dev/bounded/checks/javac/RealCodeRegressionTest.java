package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * Shapes found by running the checks over real libraries (bench/realcode/FINDINGS.md): each false
 * alarm, reduced to its shape, stays quiet; the real findings next to them stay reported.
 */
final class RealCodeRegressionTest {

  @Test
  void interruptSwallowedEndOfTaskWakeUpsAndHandOffs() {
    CompilationTestHelper.newInstance(InterruptSwallowed.class, getClass())
        .addSourceLines(
            "Worker.java",
            """
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.atomic.AtomicReference;

            class Worker extends Thread {
              enum State { STARTED, STOPPED }

              private final AtomicReference<State> state = new AtomicReference<>(State.STARTED);
              private final AtomicReference<RuntimeException> failed = new AtomicReference<>();
              private volatile boolean stopped;
              private final BlockingQueue<Runnable> queue;
              private Thread helper;

              Worker(BlockingQueue<Runnable> queue) {
                this.queue = queue;
              }

              // What makes the wake-ups below expected: the flags are set, then the thread is
              // interrupted.
              void stopAll() {
                state.set(State.STOPPED);
                stopped = true;
                interrupt();
              }

              // F1: the interrupt ends the thread's run(): the request to stop was obeyed.
              @Override
              public void run() {
                while (true) {
                  try {
                    queue.take().run();
                  } catch (InterruptedException e) {
                    break;
                  }
                }
              }

              // F1: a thread body given as a lambda, returning on interrupt.
              void startRefresher() {
                helper =
                    new Thread(
                        () -> {
                          try {
                            Thread.sleep(1000);
                          } catch (InterruptedException e) {
                            return;
                          }
                          System.out.println("refresh");
                        });
                helper.start();
              }

              // F2: interrupt as wake-up in the component's own loop (private, state check).
              private void backgroundLoop() {
                while (state.get() == State.STARTED) {
                  try {
                    queue.take().run();
                  } catch (InterruptedException e) {
                    // woken up: the condition decides
                  }
                }
              }

              // F3: stored for the consumer thread to rethrow.
              void heartbeat() {
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  failed.set(new RuntimeException(e));
                }
              }

              // F1: a subtask given to a scope's fork() fails in its own way when cancelled.
              interface Scope {
                void fork(java.util.concurrent.Callable<String> task);
              }

              void forked(Scope scope) {
                scope.fork(
                    () -> {
                      try {
                        Thread.sleep(1000);
                        return "done";
                      } catch (InterruptedException e) {
                        throw new IllegalStateException("cancelled");
                      }
                    });
              }

              // F1: a lambda given to a factory that makes a Thread of it.
              static Thread daemon(String name, Runnable body) {
                Thread t = new Thread(body, name);
                t.setDaemon(true);
                return t;
              }

              void refresher() {
                daemon(
                        "refresh",
                        () -> {
                          try {
                            Thread.sleep(1000);
                          } catch (InterruptedException e) {
                            return;
                          }
                        })
                    .start();
              }

              // F3: kept in a local holder and thrown once every step has been tried.
              void closeAll(Thread first, Thread second) {
                AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
                try {
                  first.join();
                } catch (InterruptedException e) {
                  firstFailure.compareAndSet(null, new RuntimeException(e));
                }
                try {
                  second.join();
                } catch (InterruptedException e) {
                  firstFailure.compareAndSet(null, new RuntimeException(e));
                }
                RuntimeException failure = firstFailure.get();
                if (failure != null) {
                  throw new IllegalStateException("close failed", failure);
                }
              }

              // F4: the process exits.
              void fatal() {
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  System.exit(1);
                }
              }

              // Real: a shutdown method that other threads call loses their interrupt.
              public void shutdown() {
                try {
                  helper.join();
                  // BUG: Diagnostic contains: InterruptSwallowed
                } catch (InterruptedException e) {
                  System.err.println("interrupted while joining");
                }
              }

              // Real: a public method waiting in a stop-flag loop runs on its callers' threads.
              public void addAndWait(Runnable r) {
                while (!stopped && !queue.offer(r)) {
                  try {
                    Thread.sleep(10);
                    // BUG: Diagnostic contains: InterruptSwallowed
                  } catch (InterruptedException e) {
                    break;
                  }
                }
              }

              // Real: run() whose loop goes on after swallowing the interrupt.
              static final class Reconnector implements Runnable {
                @Override
                public void run() {
                  for (int attempt = 0; ; attempt++) {
                    try {
                      Thread.sleep(100L * attempt);
                      // BUG: Diagnostic contains: InterruptSwallowed
                    } catch (InterruptedException e) {
                      System.err.println("ignoring");
                    }
                    System.out.println("connecting");
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void unclassifiedRetryPerItemLoopsAndRetryEngines() {
    CompilationTestHelper.newInstance(UnclassifiedRetry.class, getClass())
        .addSourceLines(
            "Engines.java",
            """
            import java.util.List;
            import java.util.concurrent.Callable;

            class Engines {
              interface Items {
                Runnable nextItem();
              }

              interface Policy {
                boolean canRetry(Object context);

                void registerThrowable(Object context, Throwable t);

                boolean shouldRethrow(Object context);
              }

              interface StopStrategy {
                boolean shouldStop(Object attempt);
              }

              // F6: consumes one item after another; a failure moves on to the next item.
              void consume(Items items) {
                for (;;) {
                  Runnable item = items.nextItem();
                  if (item == null) {
                    break;
                  }
                  try {
                    item.run();
                  } catch (Throwable t) {
                    System.err.println(t);
                  }
                }
              }

              // F6: drains a list.
              void drain(List<Runnable> calls) {
                while (!calls.isEmpty()) {
                  Runnable call = calls.remove(0);
                  try {
                    call.run();
                  } catch (Throwable t) {
                    System.err.println(t);
                    continue;
                  }
                  break;
                }
              }

              // F7: handed to a policy that decides.
              Object template(Callable<Object> work, Policy policy, Object context) throws Throwable {
                while (policy.canRetry(context)) {
                  try {
                    return work.call();
                  } catch (Throwable e) {
                    policy.registerThrowable(context, e);
                    if (policy.shouldRethrow(context)) {
                      throw e;
                    }
                  }
                }
                return null;
              }

              // F7: stored, then judged after the try.
              Object retryer(Callable<Object> work, StopStrategy stop) throws Exception {
                for (int n = 1; ; n++) {
                  Object attempt;
                  try {
                    return work.call();
                  } catch (Throwable t) {
                    attempt = new Object[] {t, n};
                  }
                  if (stop.shouldStop(attempt)) {
                    throw new Exception("gave up");
                  }
                }
              }

              // Still reported: logs and goes round.
              Object handWritten(Callable<Object> work) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return work.call();
                    // BUG: Diagnostic contains: UnclassifiedRetry
                  } catch (Throwable t) {
                    System.err.println(t);
                  }
                }
                return null;
              }
            }
            """)
        .doTest();
  }

  @Test
  void unclassifiedExceptionRetryContextThatRethrows() {
    CompilationTestHelper.newInstance(UnclassifiedExceptionRetry.class, getClass())
        .addSourceLines(
            "Decorator.java",
            """
            import java.util.concurrent.Callable;

            class Decorator {
              interface Context {
                void onError(Exception e) throws Exception;
              }

              // F7: the context rethrows what it will not retry.
              Object decorated(Callable<Object> work, Context context) throws Exception {
                do {
                  try {
                    return work.call();
                  } catch (Exception e) {
                    context.onError(e);
                  }
                } while (true);
              }
            }
            """)
        .doTest();
  }

  @Test
  void perAttemptTimeoutWithAProjectClock() {
    CompilationTestHelper.newInstance(PerAttemptTimeout.class, getClass())
        .addSourceLines(
            "Service.java",
            """
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.TimeUnit;

            class Service {
              static final class Time {
                static long currentElapsedTime() {
                  return System.nanoTime() / 1_000_000;
                }
              }

              // F8: one deadline, read through a project clock and locals.
              void join(ExecutorService pool, long shutdownTimeoutMs) {
                long now = Time.currentElapsedTime();
                long endTime = now + shutdownTimeoutMs;
                while (now < endTime) {
                  try {
                    if (pool.awaitTermination(endTime - now, TimeUnit.MILLISECONDS)) {
                      return;
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                  }
                  now = Time.currentElapsedTime();
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void unboundedSubmissionBatchOntoALocalPool() {
    CompilationTestHelper.newInstance(UnboundedSubmission.class, getClass())
        .addSourceLines(
            "Batch.java",
            """
            import java.util.Iterator;
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;

            class Batch {
              // F9: one task per socket, onto a pool created and shut down here.
              void listen(List<Runnable> sockets) {
                ExecutorService executor = Executors.newFixedThreadPool(sockets.size());
                sockets.forEach(s -> executor.submit(s));
                executor.shutdown();
              }

              void sync(Iterator<Runnable> nodes) {
                ExecutorService executor = Executors.newFixedThreadPool(8);
                while (nodes.hasNext()) {
                  executor.submit(nodes.next());
                }
                executor.shutdownNow();
              }

              // Still reported: the local pool is never shut down here.
              void leaky(List<Runnable> jobs) {
                ExecutorService executor = Executors.newFixedThreadPool(8);
                for (Runnable job : jobs) {
                  // BUG: Diagnostic contains: UnboundedSubmission
                  executor.submit(job);
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void shapesFromTheRuntimeItself() {
    CompilationTestHelper.newInstance(InterruptSwallowed.class, getClass())
        .addSourceLines(
            "Pool.java",
            """
            import java.util.concurrent.locks.Condition;
            import java.util.concurrent.locks.ReentrantLock;

            class Pool {
              private static final int RUNNING = 0;
              private final ReentrantLock lock = new ReentrantLock();
              private final Condition notEmpty = lock.newCondition();
              private volatile int state = RUNNING;
              private int count;
              private Thread worker;

              // shutdownNow sets the state, then wakes the worker.
              void shutdownNow() {
                state = 1;
                worker.interrupt();
              }

              // The interrupt is kept in a local and rethrown after the lock is released.
              void admit() {
                InterruptedException interruption = null;
                lock.lock();
                try {
                  notEmpty.await();
                } catch (InterruptedException e) {
                  interruption = e;
                } finally {
                  lock.unlock();
                }
                if (interruption != null) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException("interrupted", interruption);
                }
              }

              // Remembered and returned: the caller restores the flag.
              boolean awaitQuietly() {
                boolean interrupted = false;
                while (count > 0) {
                  try {
                    notEmpty.await();
                  } catch (InterruptedException e) {
                    interrupted = true;
                  }
                }
                return interrupted;
              }

              // The worker's own loop re-reads the state when woken.
              private void work() {
                while (count == 0 && state == RUNNING) {
                  try {
                    notEmpty.await();
                  } catch (InterruptedException e) {
                    // shutdownNow, or a stray interrupt: the loop re-reads the state
                  }
                }
              }
            }
            """)
        .doTest();
    CompilationTestHelper.newInstance(PerAttemptTimeout.class, getClass())
        .addSourceLines(
            "Close.java",
            """
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.TimeUnit;

            class Close {
              // Waiting without a limit, uninterruptibly: no per-attempt timeout.
              void close(ExecutorService pool) {
                boolean interrupted = false;
                while (true) {
                  try {
                    pool.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
                    break;
                  } catch (InterruptedException e) {
                    interrupted = true;
                  }
                }
                if (interrupted) {
                  Thread.currentThread().interrupt();
                }
              }
            }
            """)
        .doTest();
  }
}
