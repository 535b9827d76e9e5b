package dev.bounded.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.bounded.runtime.BoundedExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs small test classes that leak (or do not) through the JUnit engine and checks the verdicts.
 * The classes are nested and static, so Surefire does not run them on their own (it skips inner
 * classes); this test cleans up every thread they leave, and is itself checked for leaks.
 */
@FailOnThreadLeak
final class ThreadLeakExtensionTest {
  /** Keeps the fixtures' threads waiting until this test lets them go. */
  static CountDownLatch release = new CountDownLatch(1);

  static BoundedExecutor forgotten;
  static Thread leaked;

  @AfterEach
  void cleanUp() throws InterruptedException {
    release.countDown();
    if (leaked != null) {
      leaked.join();
    }
    if (forgotten != null) {
      forgotten.shutdownNow();
      assertThat(forgotten.awaitTermination(1, TimeUnit.DAYS)).isTrue();
    }
    leaked = null;
    forgotten = null;
    release = new CountDownLatch(1);
  }

  /**
   * True only while this test runs a fixture: elsewhere (say, {@code -Dtest=*Fixture}) they skip.
   */
  private static volatile boolean fixtureArmed;

  static boolean runningFixture() {
    return fixtureArmed;
  }

  private static Events run(Class<?> fixture) {
    fixtureArmed = true;
    try {
      return EngineTestKit.engine("junit-jupiter")
          .selectors(selectClass(fixture))
          .execute()
          .testEvents();
    } finally {
      fixtureArmed = false;
    }
  }

  private static void awaitRelease() {
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void aTestThatLeavesAThreadRunningFailsNamingItAndShowingItsStack() {
    Events events = run(LeakingFixture.class);

    events.assertStatistics(stats -> stats.started(1).failed(1).succeeded(0));
    events
        .failed()
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("leaks"),
                finishedWithFailure(
                    instanceOf(AssertionError.class),
                    message(m -> m.startsWith("test leaked 1 thread that it started")),
                    message(m -> m.contains("\"leaky-thread\" WAITING")),
                    message(m -> m.contains("java.util.concurrent.CountDownLatch.await(")),
                    message(m -> m.contains("ThreadLeakExtensionTest.awaitRelease")))));
  }

  @Test
  void anExecutorThatIsNeverShutDownIsCaughtByItsWorkerNames() {
    Events events = run(ForgottenExecutorFixture.class);

    events.assertStatistics(stats -> stats.started(1).failed(1));
    events
        .failed()
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                finishedWithFailure(
                    message(m -> m.contains("test leaked 2 threads")),
                    message(m -> m.contains("\"forgotten-1\"")),
                    message(m -> m.contains("\"forgotten-2\"")))));
  }

  @Test
  void aTestThatStopsItsThreadsPasses() {
    run(CleanFixture.class).assertStatistics(stats -> stats.started(2).succeeded(2));
  }

  @Test
  void threadsMatchingAnIgnorePatternAreNotLeaks() {
    run(IgnoringFixture.class).assertStatistics(stats -> stats.started(1).succeeded(1));
  }

  /** Issue 11 item 7: the JDK's own lazily started threads are never leaks. */
  @Test
  void theCompletableFutureDelaySchedulerIsNotALeak() {
    run(CompletableFutureTimeoutFixture.class)
        .assertStatistics(stats -> stats.started(1).succeeded(1));
  }

  /**
   * Issue 11 item 7, where the scheduler has already started before this class (it lives as long as
   * the JVM, so the fixture above may find it in its baseline): its name is on the JDK's list.
   */
  @Test
  void theJdksLazilyStartedThreadsAreOnTheIgnoredList() {
    for (String name :
        new String[] {
          "CompletableFutureDelayScheduler",
          "ForkJoinPool.commonPool-worker-3",
          "process reaper",
          "Common-Cleaner",
          "Keep-Alive-Timer",
          "VirtualThread-unparker",
          "Read-Poller"
        }) {
      assertThat(ThreadLeakExtension.ALWAYS_IGNORED)
          .as(name)
          .anyMatch(p -> p.matcher(name).matches());
    }
    assertThat(ThreadLeakExtension.ALWAYS_IGNORED)
        .noneMatch(p -> p.matcher("CompletableFutureDelayScheduler-mine").matches());
  }

  @Test
  void aLeakInANestedClassIsCaughtByTheOuterAnnotation() {
    run(OuterFixture.class).assertStatistics(stats -> stats.started(1).failed(1));
  }

  @Test
  void aTestThatFailsAndLeaksReportsBoth() {
    Events events = run(FailingAndLeakingFixture.class);

    events.assertStatistics(stats -> stats.started(1).failed(1));
    Throwable failure =
        events.failed().stream()
            .findFirst()
            .orElseThrow()
            .getPayload(org.junit.platform.engine.TestExecutionResult.class)
            .orElseThrow()
            .getThrowable()
            .orElseThrow();
    assertThat(failure).hasMessage("the test's own failure");
    assertThat(failure.getSuppressed()).singleElement().isInstanceOf(AssertionError.class);
    assertThat(failure.getSuppressed()[0]).hasMessageContaining("\"leaky-thread\"");
  }

  // The fixtures. Each is run only through EngineTestKit above.

  private static final String ARMED = "dev.bounded.testing.ThreadLeakExtensionTest#runningFixture";

  @FailOnThreadLeak
  @EnabledIf(ARMED)
  static final class LeakingFixture {
    @Test
    void leaks() {
      leaked = new Thread(ThreadLeakExtensionTest::awaitRelease, "leaky-thread");
      leaked.start();
    }
  }

  @FailOnThreadLeak
  @EnabledIf(ARMED)
  static final class FailingAndLeakingFixture {
    @Test
    void failsAndLeaks() {
      leaked = new Thread(ThreadLeakExtensionTest::awaitRelease, "leaky-thread");
      leaked.start();
      throw new IllegalStateException("the test's own failure");
    }
  }

  @FailOnThreadLeak
  @EnabledIf(ARMED)
  static final class ForgottenExecutorFixture {
    @Test
    void forgetsToShutDown() {
      forgotten = BoundedExecutor.builder("forgotten").workers(2).queueCapacity(1).build();
    }
  }

  @FailOnThreadLeak
  @EnabledIf(ARMED)
  static final class CompletableFutureTimeoutFixture {
    @Test
    void timesOutAFuture() {
      CompletableFuture<String> never = new CompletableFuture<>();
      never.orTimeout(1, TimeUnit.DAYS); // starts the JDK's delay scheduler on first use
      never.complete("done");
    }
  }

  @FailOnThreadLeak
  @EnabledIf(ARMED)
  static final class CleanFixture {
    @Test
    void joinsItsThread() throws InterruptedException {
      Thread thread = new Thread(() -> {}, "joined");
      thread.start();
      thread.join();
    }

    @Test
    void closesItsExecutor() {
      try (BoundedExecutor executor =
          BoundedExecutor.builder("closed").workers(2).queueCapacity(2).build()) {
        executor.execute(() -> {});
      }
    }
  }

  @FailOnThreadLeak(ignore = "tolerated-.*")
  @EnabledIf(ARMED)
  static final class IgnoringFixture {
    @Test
    void leaksATolerableThread() {
      leaked = new Thread(ThreadLeakExtensionTest::awaitRelease, "tolerated-1");
      leaked.start();
    }
  }

  @FailOnThreadLeak
  @EnabledIf(ARMED)
  static final class OuterFixture {
    @Nested
    final class Inner {
      @Test
      void leaks() {
        leaked = new Thread(ThreadLeakExtensionTest::awaitRelease, "nested-leak");
        leaked.start();
      }
    }
  }
}
