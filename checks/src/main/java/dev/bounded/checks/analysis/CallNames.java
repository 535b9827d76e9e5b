package dev.bounded.checks.analysis;

import java.util.Set;

/**
 * Names of calls that the analysis and the rules give a meaning to. One place, so that the compiler
 * frontend's fast path (which skips methods no rule can match) sees exactly what the rules look
 * for.
 */
public final class CallNames {
  /** Calls that wait between rounds: a loop that makes them retries or polls. */
  public static final Set<String> SLEEPS =
      Set.of("sleep", "sleepUninterruptibly", "parkNanos", "parkUntil");

  /** Calls that hand a task to an executor. */
  public static final Set<String> SUBMISSIONS = Set.of("submit", "execute", "invokeAll");

  /** Calls that run a task on the common pool unless given an executor. */
  public static final Set<String> ASYNC_STARTS = Set.of("supplyAsync", "runAsync");

  /** Simple names of the exception types that carry an interrupt. */
  public static final Set<String> INTERRUPT_TYPES =
      Set.of("InterruptedException", "InterruptedIOException", "ClosedByInterruptException");

  /** Simple names of catch types broad enough to receive an interrupt from a callee. */
  public static final Set<String> BROAD_CATCHES = Set.of("Exception", "Throwable");

  /** Calls that wait interruptibly: a broad catch around them may swallow the interrupt. */
  public static final Set<String> INTERRUPTIBLE_WAITS =
      Set.of(
          "sleep",
          "await",
          "join",
          "get",
          "put",
          "take",
          "acquire",
          "wait",
          "invokeAll",
          "invokeAny",
          "awaitTermination",
          "lockInterruptibly",
          "exchange",
          "call");

  /** Factories of executors (by simple name): where an executor's queue and threads are chosen. */
  public static final Set<String> EXECUTOR_FACTORIES =
      Set.of("newFixedThreadPool", "newSingleThreadExecutor", "newCachedThreadPool");

  /** Executor classes created with {@code new}: where their queue and threads are chosen. */
  public static final Set<String> EXECUTOR_CLASSES = Set.of("ThreadPoolExecutor");

  private CallNames() {}
}
