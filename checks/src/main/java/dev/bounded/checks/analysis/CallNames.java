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

  private CallNames() {}
}
