package dev.bounded.checks.analysis;

import java.util.HashSet;
import java.util.Map;
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

  /** Calls that put an item into a queue or collection: in a catch clause, maybe a re-queue. */
  public static final Set<String> ENQUEUES =
      Set.of("add", "offer", "put", "addLast", "offerLast", "addFirst", "offerFirst", "push");

  /** Calls that hand a task to an executor or timer to run later. */
  public static final Set<String> SCHEDULES =
      Set.of(
          "schedule", "submit", "execute", "scheduleWithFixedDelay", "newTimeout", "postDelayed");

  /** Names of calls that retry a piece of work: {@code retryFailedTask(key, task)}. */
  private static final NamePattern RETRY_NAMED =
      NamePattern.containing(
          "(?i).*(retry|requeue|resubmit|reenqueue|redeliver).*",
          "retry",
          "requeue",
          "resubmit",
          "reenqueue",
          "redeliver");

  /**
   * Tells whether a call's name says it retries a piece of work ({@code retryFailedTask}).
   *
   * @param name a method name
   * @return {@code true} if the name holds retry, requeue, resubmit, reenqueue or redeliver
   */
  public static boolean isRetryNamed(String name) {
    return RETRY_NAMED.matches(name);
  }

  /**
   * Whether a call in a catch clause may put the failed work back for another try: an enqueue, a
   * schedule, or a call named for a retry.
   *
   * @param name a method name
   * @return {@code true} if a catch clause calling it may retry by re-queueing
   */
  public static boolean mayRequeue(String name) {
    return ENQUEUES.contains(name) || SCHEDULES.contains(name) || RETRY_NAMED.matches(name);
  }

  /** Simple names of the exception types that carry an interrupt. */
  public static final Set<String> INTERRUPT_TYPES =
      Set.of("InterruptedException", "InterruptedIOException", "ClosedByInterruptException");

  /** Simple names of catch types broad enough to receive an interrupt from a callee. */
  public static final Set<String> BROAD_CATCHES = Set.of("Exception", "Throwable");

  /** Factories of executors (by simple name): where an executor's queue and threads are chosen. */
  public static final Set<String> EXECUTOR_FACTORIES =
      Set.of("newFixedThreadPool", "newSingleThreadExecutor", "newCachedThreadPool");

  /**
   * Executor classes that start a thread for every task (Spring's {@code SimpleAsyncTaskExecutor}):
   * nothing to shut down, and no bound unless given a concurrency limit.
   */
  public static final Set<String> THREAD_PER_TASK_CLASSES = Set.of("SimpleAsyncTaskExecutor");

  /** Executor classes created with {@code new}: where their queue and threads are chosen. */
  public static final Set<String> EXECUTOR_CLASSES = Set.of("ThreadPoolExecutor");

  /**
   * Static factories of {@code java.util.concurrent.Executors} that create an executor its caller
   * owns (and must shut down): {@link #EXECUTOR_FACTORIES} and the others.
   */
  public static final Set<String> OWNED_EXECUTOR_FACTORIES =
      union(
          EXECUTOR_FACTORIES,
          Set.of(
              "newScheduledThreadPool",
              "newSingleThreadScheduledExecutor",
              "newWorkStealingPool",
              "newVirtualThreadPerTaskExecutor",
              "newThreadPerTaskExecutor"));

  /** Executor classes whose construction creates threads the creator owns. */
  public static final Set<String> OWNED_EXECUTOR_CLASSES =
      union(EXECUTOR_CLASSES, Set.of("ScheduledThreadPoolExecutor", "ForkJoinPool"));

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
   * exponentialBackoff} and {@code ExponentialBackOffPolicy}, Spring's {@code FixedBackOff},
   * Bounded's {@code random}; Kafka's {@code ExponentialBackoff}, Apollo's {@code
   * ExponentialSchedulePolicy}, Spring's {@code ExponentialBackOff} and Google HTTP client's {@code
   * setRandomizationFactor} (library backoffs that may have no random part); and Reactor's retry
   * specs and operators ({@code Retry.backoff}, {@code fixedDelay}, {@code jitter}, {@code
   * indefinitely}, {@code repeatWhenEmpty}; its {@code retry..} operators are named for retries
   * already); and setters that give a client a retry policy of its own (Spring's {@code
   * setRetryTemplate}, {@code setRetryPolicy}).
   */
  public static final Set<String> BACKOFF_CONFIGURATION =
      Set.of(
          "withBackoff",
          "ofExponentialBackoff",
          "exponentialBackoff",
          "ExponentialBackOffPolicy",
          "FixedBackOff",
          "ExponentialBackoff",
          "ExponentialSchedulePolicy",
          "ExponentialBackOff",
          "setRandomizationFactor",
          "random",
          "multiplier",
          "backoff",
          "fixedDelay",
          "jitter",
          "indefinitely",
          "repeatWhenEmpty",
          "setRetryTemplate",
          "setRetryPolicy");

  /** Calls that run a task again and again, every period: a failback task's schedule. */
  public static final Set<String> PERIODIC_SCHEDULES =
      Set.of("scheduleAtFixedRate", "scheduleWithFixedDelay");

  /** Calls that run work later, after a delay: a retry when a failure leads to them. */
  public static final Set<String> DELAYED_SCHEDULES =
      Set.of("schedule", "newTimeout", "setTimer", "postDelayed");

  /** Names of calls that run something later by name: {@code executeRequestLater(req, delay)}. */
  private static final NamePattern DELAYED_BY_NAME =
      NamePattern.containing(
          "(?i)\\w*(later|delayed|afterdelay)|schedule(retry|reconnect|restart)\\w*",
          "later",
          "delay",
          "schedule");

  /** Names of failure callbacks, whose failure arrives as a parameter ({@code onException}). */
  private static final NamePattern FAILURE_HANDLER =
      NamePattern.containing(
          "(?i)(on|handle)\\w*(error|exception|failure|throwable|fault)\\w*|exceptioncaught"
              + "|\\w*failed",
          "error",
          "exception",
          "failure",
          "throwable",
          "fault",
          "failed");

  /** Names of methods that send again what was sent before: {@code resendMessages(cnx)}. */
  private static final NamePattern RESEND =
      NamePattern.startingWith(
          "(?i:re_?send|replay|retransmit|republish|resubmit)([A-Z_0-9]\\w*)?", "re");

  /**
   * Tells whether a method's name says it sends again what was sent before ({@code resendMessages},
   * {@code replayInFlight}, {@code retransmit}): a retry that needs no loop of its own.
   *
   * @param name a method name
   * @return {@code true} for a re-send by name
   */
  public static boolean isResendName(String name) {
    return RESEND.matches(name);
  }

  /** Names of calls that hand failed work back to be run again: {@code retryFailedTask(task)}. */
  private static final NamePattern RESUBMISSION =
      NamePattern.startingWith(
          "(?i)(retry|resubmit|requeue|readd|reenqueue|redeliver|reschedule)\\w*", "re");

  /**
   * Tells whether a call's name says it hands failed work back to be run again ({@code
   * retryFailedTask}, {@code requeue}, {@code resubmit}).
   *
   * @param name a method name
   * @return {@code true} for a resubmission by name
   */
  public static boolean isResubmission(String name) {
    return RESUBMISSION.matches(name);
  }

  /**
   * Calls that register a completion callback whose second parameter is the failure: {@code
   * whenComplete((result, failure) -> ..)}.
   */
  public static final Set<String> COMPLETION_CALLBACKS =
      Set.of("whenComplete", "whenCompleteAsync", "handle", "handleAsync");

  /** Calls that register a callback run only on a failure: {@code exceptionally(failure -> ..)}. */
  public static final Set<String> FAILURE_CALLBACKS =
      Set.of("exceptionally", "exceptionallyAsync", "exceptionallyCompose", "onErrorResume");

  /** Timed waits whose result says whether the wait ended in time: repeated, they never end. */
  public static final Set<String> TIMED_WAITS =
      Set.of(
          "awaitTermination", "await", "tryAcquire", "tryLock", "waitFor", "awaitUninterruptibly");

  /**
   * Tells whether a call's name says it runs work after a delay ({@code schedule}, {@code
   * executeRequestLater}, {@code scheduleReconnect}).
   *
   * @param name a method name
   * @return {@code true} for a delayed scheduling by name
   */
  public static boolean isDelayedSchedule(String name) {
    return DELAYED_SCHEDULES.contains(name) || DELAYED_BY_NAME.matches(name);
  }

  /**
   * Tells whether a method's name is a failure callback's ({@code onFailure}, {@code handleError},
   * {@code exceptionCaught}, {@code connectFailed}).
   *
   * @param name a method name
   * @return {@code true} for a failure handler by name
   */
  public static boolean isFailureHandlerName(String name) {
    return FAILURE_HANDLER.matches(name);
  }

  /**
   * Calls of retry libraries that run an operation with retries, given as a lambda: Bounded's
   * {@code call}/{@code callIdempotent}, resilience4j's {@code execute...}, Spring's {@code
   * execute}. One inside another's lambda multiplies the attempts.
   */
  public static final Set<String> RETRY_CALLS =
      Set.of(
          "call",
          "callIdempotent",
          "execute",
          "executeSupplier",
          "executeCallable",
          "executeRunnable",
          "executeCheckedSupplier");

  /** Names of parameters and locals that hold a deadline or a timeout. */
  private static final NamePattern TIMEOUT_NAME =
      NamePattern.containing("(?i).*(deadline|timeout).*", "deadline", "timeout");

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
    return TIMEOUT_NAME.matches(name);
  }

  /** Names of caps on attempts: {@code maxReconnectAttempts}, {@code maxNumberOfRetries}. */
  private static final java.util.regex.Pattern ATTEMPT_CAP_NAME =
      java.util.regex.Pattern.compile("(?i).*(retr|attempt|reconnect|tries).*");

  /**
   * Tells whether a name is a cap on attempts ({@code maxReconnectAttempts}, {@code
   * maxNumberOfRetries}, {@code reconnectLimit}): what a give-up test compares a count with.
   *
   * @param name a field, local or parameter name
   * @return {@code true} if it names attempts, retries, reconnects or tries
   */
  public static boolean isAttemptCapName(String name) {
    return ATTEMPT_CAP_NAME.matcher(name).matches();
  }

  /**
   * Names of what a failover loop walks: nodes, addresses, replicas, servers, ... The words spare
   * the expression for the many names that hold none of them ({@code ip} stands for {@code \bip}).
   */
  private static final NamePattern NODES =
      NamePattern.containing(
          "(?i).*(address|host|node|server|replica|endpoint|url|uri|broker|peer|member|instance"
              + "|candidate|invoker|connection|channel|seed|target|backend|route|region"
              + "|zone|\\bip|inet|socket|location|mirror|resolver|dns|cluster|shard|master|slave"
              + "|primary|secondary|leader).*",
          ("address host node server replica endpoint url uri broker peer member instance"
                  + " candidate invoker connection channel seed target backend route region zone"
                  + " ip inet socket location mirror resolver dns cluster shard master slave"
                  + " primary secondary leader")
              .split(" "));

  /**
   * Tells whether a name (or an expression's text) speaks of what a failover walks: nodes,
   * addresses, servers, replicas, URLs.
   *
   * @param name a variable's or type's name, or source text
   * @return {@code true} if it does
   */
  public static boolean isNodeName(String name) {
    return NODES.matches(name);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }

  /**
   * Whether a method's name says it retries what it is handed ({@code retry}, {@code
   * retryOnException}, {@code executeWithRetries}): with a lambda argument, the lambda is an
   * attempt, if the method holds a retry loop.
   *
   * @param name a method name
   * @return {@code true} for a name containing "retr" (any case)
   */
  public static boolean isRetryHelperName(String name) {
    return name.toLowerCase(java.util.Locale.ROOT).contains("retr");
  }

  /**
   * Setters of a retry-settings builder's attempt limit ({@code setMaxAttempts}, Google gax's
   * {@code RetrySettings.Builder}): lifted together with the time limit, the policy never gives up.
   */
  public static final Set<String> RETRY_ATTEMPT_SETTERS = Set.of("setMaxAttempts");

  /** Retry policies of libraries named for never giving up: Curator's, Spring Retry's. */
  public static final Set<String> FOREVER_POLICY_CLASSES =
      Set.of("RetryForever", "AlwaysRetryPolicy", "RetryForeverPolicy");

  /**
   * Whether a call makes a retry policy named for never giving up ({@code
   * RetryPolicies.retryForeverNoSleep()}, {@code retryForeverWithSleep(..)}).
   *
   * @param name a method name
   * @return {@code true} for a name starting with "retryForever"
   */
  public static boolean isForeverPolicyCall(String name) {
    return name.startsWith("retryForever");
  }
}
