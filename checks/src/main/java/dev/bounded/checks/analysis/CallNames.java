package dev.bounded.checks.analysis;

import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

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

  /**
   * Static factories of {@code java.util.concurrent.Executors} that create an executor its caller
   * owns (and must shut down).
   */
  public static final Set<String> EXECUTOR_FACTORIES =
      Set.of(
          "newFixedThreadPool",
          "newCachedThreadPool",
          "newSingleThreadExecutor",
          "newScheduledThreadPool",
          "newSingleThreadScheduledExecutor",
          "newWorkStealingPool",
          "newVirtualThreadPerTaskExecutor",
          "newThreadPerTaskExecutor");

  /** Simple names of executor classes whose construction creates threads the creator owns. */
  public static final Set<String> EXECUTOR_CLASSES =
      Set.of("ThreadPoolExecutor", "ScheduledThreadPoolExecutor", "ForkJoinPool");

  /**
   * Waits that block until something happens, by name and by the number of arguments of their
   * untimed form: {@code get()}, {@code join()}, {@code await()}, {@code take()}, {@code put(e)},
   * {@code acquire()}.
   */
  public static final Map<String, Integer> UNTIMED_WAITS =
      Map.of("get", 0, "join", 0, "await", 0, "take", 0, "put", 1, "acquire", 0);

  /**
   * Calls and constructors that configure a retry library's backoff: Failsafe's {@code
   * withBackoff}, resilience4j's {@code ofExponentialBackoff}, Spring Retry's {@code
   * exponentialBackoff} and {@code ExponentialBackOffPolicy}, Bounded's {@code random}.
   */
  public static final Set<String> BACKOFF_CONFIGURATION =
      Set.of(
          "withBackoff",
          "ofExponentialBackoff",
          "exponentialBackoff",
          "ExponentialBackOffPolicy",
          "random");

  /** Names of parameters and locals that hold a deadline or a timeout. */
  private static final Pattern TIMEOUT_NAME = Pattern.compile("(?i).*(deadline|timeout).*");

  /** Simple names of types whose values are a deadline or a timeout. */
  public static final Set<String> TIMEOUT_TYPES = Set.of("Deadline", "Duration");

  private CallNames() {}

  /**
   * Tells whether a variable's name says it holds a deadline or a timeout ({@code deadline}, {@code
   * timeoutMillis}, {@code requestTimeout}).
   *
   * @param name a parameter or local variable name
   * @return {@code true} if it does
   */
  public static boolean isTimeoutName(String name) {
    return TIMEOUT_NAME.matcher(name).matches();
  }
}
