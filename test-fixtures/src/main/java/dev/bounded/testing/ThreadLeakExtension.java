package dev.bounded.testing;

import dev.bounded.runtime.Deadline;
import java.lang.reflect.AnnotatedElement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link FailOnThreadLeak}: fails a test that leaves a thread it
 * started still running. Use the annotation, or register the extension directly:
 *
 * <pre>{@code
 * @ExtendWith(ThreadLeakExtension.class)
 * final class PaymentsPoolTest { ... }
 * }</pre>
 *
 * <h2>What counts as a leak</h2>
 *
 * <p>Before each test (before its {@code @BeforeEach} methods) the extension records the live
 * threads; after it (after its {@code @AfterEach} methods) every live thread that was not recorded
 * is a suspect, unless its name matches a {@link FailOnThreadLeak#ignore()} pattern or it is one of
 * the threads the JDK starts lazily, on first use, and keeps for the life of the JVM: on Java 17
 * and 21, {@code ForkJoinPool.commonPool-worker-*}, {@code CompletableFutureDelayScheduler} (of
 * {@code orTimeout}, {@code completeOnTimeout} and {@code delayedExecutor}), {@code process
 * reaper}, {@code Attach Listener}, {@code Common-Cleaner}, {@code Keep-Alive-Timer} and {@code
 * Keep-Alive-SocketCleaner} (of {@code HttpURLConnection}), {@code JFR *}, and on Java 21 the
 * virtual threads' carrier threads, {@code VirtualThread-unparker}, {@code Read-Poller} and {@code
 * Write-Poller}; on Java 25 also {@code ForkJoinPool.commonPool-delayScheduler} (which then runs
 * {@code orTimeout}) and {@code VirtualThread-unblocker}; and JUnit's timeout watcher.
 *
 * <h2>A short, bounded grace</h2>
 *
 * <p>A thread that has been told to stop (its executor shut down, its task done) can still be
 * running its last instructions when the test returns, and nothing observable tells when it has
 * ended except joining it. So suspects are joined for at most 500 ms in total before the test
 * fails. This is a join, not a sleep: a thread that ends returns at once, a test without suspects
 * does not wait at all, and only a real leak costs the full bound. Code that awaits termination
 * properly ({@code TaskScope.close()}, {@code awaitTermination}) never needs the grace.
 *
 * <h2>Limits</h2>
 *
 * <ul>
 *   <li>Tests running in parallel in the same JVM see each other's threads: use it on tests that
 *       run alone (the default for JUnit).
 *   <li>Virtual threads (Java 21+) are not listed by the JDK and are not checked.
 *   <li>Threads started in {@code @BeforeAll} are part of every test's starting point, so they are
 *       not checked.
 * </ul>
 *
 * <p>Thread-safe: state is kept in each test's {@link ExtensionContext} store.
 */
public final class ThreadLeakExtension implements BeforeEachCallback, AfterEachCallback {
  /** The most time suspects get, in total, to finish ending. */
  static final Duration GRACE = Duration.ofMillis(500);

  private static final int MAX_FRAMES = 24;
  private static final Namespace NAMESPACE = Namespace.create(ThreadLeakExtension.class);
  private static final String BEFORE = "threads before";

  /** The JDK's lazily started service threads (Java 17 and 21), and JUnit's own. */
  static final List<Pattern> ALWAYS_IGNORED =
      List.of(
          Pattern.compile("ForkJoinPool\\.commonPool-worker-\\d+"),
          Pattern.compile("CompletableFutureDelayScheduler"),
          Pattern.compile("process reaper"),
          Pattern.compile("Attach Listener"),
          Pattern.compile("Common-Cleaner"),
          Pattern.compile("Keep-Alive-Timer"),
          Pattern.compile("Keep-Alive-SocketCleaner"),
          Pattern.compile("JFR .*"),
          Pattern.compile("ForkJoinPool\\.commonPool-delayScheduler"),
          Pattern.compile("VirtualThread-unparker"),
          Pattern.compile("VirtualThread-unblocker"),
          Pattern.compile("Read-Poller"),
          Pattern.compile("Write-Poller"),
          Pattern.compile("junit-jupiter-timeout-watcher"));

  /** Java 21's carrier threads of virtual threads, named like any pool's: told apart by class. */
  private static final String CARRIER_THREAD = "jdk.internal.misc.CarrierThread";

  /** Creates the extension; JUnit calls this for {@code @ExtendWith}. */
  public ThreadLeakExtension() {}

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NAMESPACE).put(BEFORE, liveThreads());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    @SuppressWarnings("unchecked")
    Set<Thread> before = context.getStore(NAMESPACE).remove(BEFORE, Set.class);
    if (before == null) {
      return;
    }
    List<Pattern> ignored = ignoredPatterns(context);
    List<Thread> suspects = new ArrayList<>();
    for (Thread thread : liveThreads()) {
      if (!before.contains(thread)
          && !matchesAny(ignored, thread.getName())
          && !thread.getClass().getName().equals(CARRIER_THREAD)) {
        suspects.add(thread);
      }
    }
    if (suspects.isEmpty()) {
      return;
    }
    List<Thread> leaked = awaitEnding(suspects);
    if (!leaked.isEmpty()) {
      throw new AssertionError(describe(leaked));
    }
  }

  /** Joins the suspects within the grace; returns those still alive. */
  private static List<Thread> awaitEnding(List<Thread> suspects) {
    Deadline grace = Deadline.after(GRACE);
    boolean interrupted = false;
    List<Thread> alive = new ArrayList<>();
    for (Thread thread : suspects) {
      try {
        long nanos = grace.remainingNanos();
        if (nanos > 0) {
          TimeUnit.NANOSECONDS.timedJoin(thread, nanos);
        }
      } catch (InterruptedException e) {
        interrupted = true; // stop waiting, report what is left, and keep the flag
        grace = Deadline.after(Duration.ZERO);
      }
      if (thread.isAlive()) {
        alive.add(thread);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return alive;
  }

  private static String describe(List<Thread> leaked) {
    StringBuilder message =
        new StringBuilder()
            .append("test leaked ")
            .append(leaked.size())
            .append(leaked.size() == 1 ? " thread" : " threads")
            .append(" that it started and did not stop (waited ")
            .append(GRACE.toMillis())
            .append(" ms for them to end): ")
            .append(
                leaked.stream()
                    .map(t -> '"' + t.getName() + '"')
                    .collect(Collectors.joining(", ")));
    for (Thread thread : leaked) {
      message
          .append("\n\n\"")
          .append(thread.getName())
          .append("\" ")
          .append(thread.getState())
          .append(thread.isDaemon() ? ", daemon" : "");
      StackTraceElement[] stack = thread.getStackTrace();
      for (int i = 0; i < stack.length && i < MAX_FRAMES; i++) {
        message.append("\n    at ").append(stack[i]);
      }
      if (stack.length > MAX_FRAMES) {
        message.append("\n    ... ").append(stack.length - MAX_FRAMES).append(" more");
      }
    }
    return message.toString();
  }

  private static List<Pattern> ignoredPatterns(ExtensionContext context) {
    List<Pattern> patterns = new ArrayList<>(ALWAYS_IGNORED);
    context.getTestMethod().ifPresent(m -> addPatterns(patterns, m));
    for (Optional<Class<?>> c = context.getTestClass();
        c.isPresent();
        c = Optional.ofNullable(c.get().getEnclosingClass())) {
      addPatterns(patterns, c.get());
    }
    return patterns;
  }

  private static void addPatterns(List<Pattern> patterns, AnnotatedElement element) {
    AnnotationSupport.findAnnotation(element, FailOnThreadLeak.class)
        .ifPresent(a -> Arrays.stream(a.ignore()).map(Pattern::compile).forEach(patterns::add));
  }

  private static boolean matchesAny(List<Pattern> patterns, String name) {
    for (Pattern pattern : patterns) {
      if (pattern.matcher(name).matches()) {
        return true;
      }
    }
    return false;
  }

  /** Every live platform thread, by identity. */
  static Set<Thread> liveThreads() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] threads = new Thread[root.activeCount() + 16];
    int n;
    while ((n = root.enumerate(threads, true)) == threads.length) {
      threads = new Thread[threads.length * 2]; // more threads than room: try again, larger
    }
    Set<Thread> live = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < n; i++) {
      if (threads[i].isAlive()) {
        live.add(threads[i]);
      }
    }
    return live;
  }
}
