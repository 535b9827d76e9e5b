package dev.bounded.checks.javac;

import com.google.errorprone.BugCheckerRefactoringTestHelper;
import com.google.errorprone.BugCheckerRefactoringTestHelper.TestMode;
import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class RetryPolicyWithoutJitterTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(RetryPolicyWithoutJitter.class, getClass());
  private final BugCheckerRefactoringTestHelper refactoring =
      BugCheckerRefactoringTestHelper.newInstance(RetryPolicyWithoutJitter.class, getClass());

  /** The parts of the libraries' APIs the rule looks at, as the tests' class path has none. */
  private static CompilationTestHelper withLibraries(CompilationTestHelper helper) {
    return helper
        .addSourceLines(
            "dev/failsafe/RetryPolicy.java",
            """
            package dev.failsafe;

            public final class RetryPolicy<R> {
              public static <R> RetryPolicyBuilder<R> builder() {
                return new RetryPolicyBuilder<>();
              }
            }
            """)
        .addSourceLines(
            "dev/failsafe/RetryPolicyBuilder.java",
            """
            package dev.failsafe;

            import java.time.Duration;

            public final class RetryPolicyBuilder<R> {
              public RetryPolicyBuilder<R> withBackoff(Duration delay, Duration maxDelay) {
                return this;
              }

              public RetryPolicyBuilder<R> withJitter(double factor) {
                return this;
              }

              public RetryPolicyBuilder<R> withMaxRetries(int retries) {
                return this;
              }

              public RetryPolicy<R> build() {
                return new RetryPolicy<>();
              }
            }
            """)
        .addSourceLines(
            "io/github/resilience4j/core/IntervalFunction.java",
            """
            package io.github.resilience4j.core;

            import java.time.Duration;

            public interface IntervalFunction {
              long apply(int attempt);

              static IntervalFunction ofExponentialBackoff(Duration initial, double multiplier) {
                return a -> 0;
              }

              static IntervalFunction ofExponentialBackoff(
                  Duration initial, double multiplier, Duration max) {
                return a -> 0;
              }

              static IntervalFunction ofExponentialRandomBackoff(
                  Duration initial, double multiplier, double randomization, Duration max) {
                return a -> 0;
              }
            }
            """)
        .addSourceLines(
            "org/springframework/retry/backoff/ExponentialBackOffPolicy.java",
            """
            package org.springframework.retry.backoff;

            public class ExponentialBackOffPolicy {
              public void setMultiplier(double multiplier) {}
            }
            """)
        .addSourceLines(
            "org/springframework/retry/backoff/ExponentialRandomBackOffPolicy.java",
            """
            package org.springframework.retry.backoff;

            public class ExponentialRandomBackOffPolicy extends ExponentialBackOffPolicy {}
            """);
  }

  @Test
  void identificationNegatives() {
    withLibraries(helper)
        .addSourceLines(
            "A.java",
            """
            import dev.failsafe.RetryPolicy;
            import io.github.resilience4j.core.IntervalFunction;
            import java.time.Duration;
            import org.springframework.retry.backoff.ExponentialBackOffPolicy;
            import org.springframework.retry.backoff.ExponentialRandomBackOffPolicy;

            class A {
              // Jitter in the same chain.
              private final RetryPolicy<Object> jittered =
                  RetryPolicy.builder()
                      .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10))
                      .withJitter(0.25)
                      .build();

              // Jitter added later in the method.
              RetryPolicy<Object> later() {
                var builder = RetryPolicy.builder();
                builder.withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10));
                builder.withJitter(0.5);
                return builder.build();
              }

              // No backoff at all: nothing to jitter.
              private final RetryPolicy<Object> plain = RetryPolicy.builder().withMaxRetries(2).build();

              // The random variants.
              private final IntervalFunction random =
                  IntervalFunction.ofExponentialRandomBackoff(
                      Duration.ofMillis(100), 2, 0.5, Duration.ofSeconds(10));
              private final ExponentialBackOffPolicy spring = new ExponentialRandomBackOffPolicy();

              // A choice between the two.
              ExponentialBackOffPolicy choose(boolean random) {
                return random ? new ExponentialRandomBackOffPolicy() : new ExponentialBackOffPolicy();
              }
            }
            """)
        // The library's own code implements policies; it does not configure one.
        .addSourceLines(
            "org/springframework/retry/support/Builder.java",
            """
            package org.springframework.retry.support;

            import org.springframework.retry.backoff.ExponentialBackOffPolicy;

            class Builder {
              ExponentialBackOffPolicy policy() {
                return new ExponentialBackOffPolicy();
              }
            }
            """)
        .doTest();
  }

  @Test
  void identificationPositives() {
    withLibraries(helper)
        .addSourceLines(
            "B.java",
            """
            import dev.failsafe.RetryPolicy;
            import io.github.resilience4j.core.IntervalFunction;
            import java.time.Duration;
            import org.springframework.retry.backoff.ExponentialBackOffPolicy;

            class B {
              private final RetryPolicy<Object> field =
                  RetryPolicy.builder()
                      // BUG: Diagnostic contains: backs off without jitter
                      .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10))
                      .build();

              RetryPolicy<Object> inMethod() {
                return RetryPolicy.builder()
                    // BUG: Diagnostic contains: RetryPolicyWithoutJitter
                    .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10))
                    .withMaxRetries(3)
                    .build();
              }

              private final IntervalFunction uncapped =
                  // BUG: Diagnostic contains: without a maxInterval, never caps it
                  IntervalFunction.ofExponentialBackoff(Duration.ofMillis(100), 2);

              private final IntervalFunction capped =
                  // BUG: Diagnostic contains: never randomises the interval:
                  IntervalFunction.ofExponentialBackoff(
                      Duration.ofMillis(100), 2, Duration.ofSeconds(10));

              ExponentialBackOffPolicy spring() {
                // BUG: Diagnostic contains: Use ExponentialRandomBackOffPolicy
                ExponentialBackOffPolicy policy = new ExponentialBackOffPolicy();
                policy.setMultiplier(2);
                return policy;
              }
            }
            """)
        .doTest();
  }

  /** Spring Framework 7's core retry: {@code RetryPolicy.builder()} with a multiplier. */
  private static CompilationTestHelper withSpringCore(CompilationTestHelper helper) {
    return helper.addSourceLines(
        "org/springframework/core/retry/RetryPolicy.java",
        """
        package org.springframework.core.retry;

        import java.time.Duration;

        public interface RetryPolicy {
          static Builder builder() {
            return new Builder();
          }

          final class Builder {
            public Builder maxRetries(long maxRetries) {
              return this;
            }

            public Builder delay(Duration delay) {
              return this;
            }

            public Builder multiplier(double multiplier) {
              return this;
            }

            public Builder maxDelay(Duration maxDelay) {
              return this;
            }

            public Builder jitter(Duration jitter) {
              return this;
            }

            public RetryPolicy build() {
              return null;
            }
          }
        }
        """);
  }

  @Test
  void springCoreBuilder() {
    withSpringCore(helper)
        .addSourceLines(
            "S.java",
            """
            import java.time.Duration;
            import java.util.function.UnaryOperator;
            import org.springframework.core.retry.RetryPolicy;

            class S {
              RetryPolicy declarations() {
                return RetryPolicy.builder()
                    .maxRetries(5)
                    .delay(Duration.ofSeconds(1))
                    // BUG: Diagnostic contains: Add .jitter(..)
                    .multiplier(2)
                    .maxDelay(Duration.ofSeconds(5))
                    .build();
              }

              // Configured through a lambda, as a builder class's options do.
              UnaryOperator<RetryPolicy.Builder> backOffOptions(long initial, double multiplier) {
                return policy ->
                    // BUG: Diagnostic contains: RetryPolicyWithoutJitter
                    policy.delay(Duration.ofMillis(initial)).multiplier(multiplier);
              }

              // Near misses: jittered; a fixed delay with no multiplier is not an exponential
              // backoff this rule judges.
              RetryPolicy jittered() {
                return RetryPolicy.builder()
                    .delay(Duration.ofSeconds(1))
                    .multiplier(2)
                    .jitter(Duration.ofMillis(500))
                    .build();
              }

              RetryPolicy fixed() {
                return RetryPolicy.builder().maxRetries(3).delay(Duration.ofSeconds(1)).build();
              }
            }
            """)
        .doTest();
  }

  @Test
  void replacement() {
    refactoring
        .addInputLines(
            "dev/failsafe/RetryPolicy.java",
            """
            package dev.failsafe;

            public final class RetryPolicy<R> {
              public static <R> RetryPolicyBuilder<R> builder() {
                return new RetryPolicyBuilder<>();
              }
            }
            """)
        .expectUnchanged()
        .addInputLines(
            "dev/failsafe/RetryPolicyBuilder.java",
            """
            package dev.failsafe;

            import java.time.Duration;

            public final class RetryPolicyBuilder<R> {
              public RetryPolicyBuilder<R> withBackoff(Duration delay, Duration maxDelay) {
                return this;
              }

              public RetryPolicyBuilder<R> withJitter(double factor) {
                return this;
              }

              public RetryPolicy<R> build() {
                return new RetryPolicy<>();
              }
            }
            """)
        .expectUnchanged()
        .addInputLines(
            "org/springframework/retry/backoff/ExponentialBackOffPolicy.java",
            """
            package org.springframework.retry.backoff;

            public class ExponentialBackOffPolicy {}
            """)
        .expectUnchanged()
        .addInputLines(
            "org/springframework/retry/backoff/ExponentialRandomBackOffPolicy.java",
            """
            package org.springframework.retry.backoff;

            public class ExponentialRandomBackOffPolicy extends ExponentialBackOffPolicy {}
            """)
        .expectUnchanged()
        .addInputLines(
            "C.java",
            """
            import dev.failsafe.RetryPolicy;
            import java.time.Duration;
            import org.springframework.retry.backoff.ExponentialBackOffPolicy;

            class C {
              private final RetryPolicy<Object> policy =
                  RetryPolicy.builder()
                      .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10))
                      .build();

              ExponentialBackOffPolicy spring() {
                return new ExponentialBackOffPolicy();
              }
            }
            """)
        .addOutputLines(
            "C.java",
            """
            import dev.failsafe.RetryPolicy;
            import java.time.Duration;
            import org.springframework.retry.backoff.ExponentialBackOffPolicy;
            import org.springframework.retry.backoff.ExponentialRandomBackOffPolicy;

            class C {
              private final RetryPolicy<Object> policy =
                  RetryPolicy.builder()
                      .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10))
                      .withJitter(0.5)
                      .build();

              ExponentialBackOffPolicy spring() {
                return new ExponentialRandomBackOffPolicy();
              }
            }
            """)
        .doTest(TestMode.TEXT_MATCH);
  }

  /** Reactor's Retry, as far as the tests need it (Reactor is not on the tests' class path). */
  private static CompilationTestHelper withReactor(CompilationTestHelper helper) {
    return helper
        .addSourceLines(
            "reactor/util/retry/Retry.java",
            """
            package reactor.util.retry;

            import java.time.Duration;

            public abstract class Retry {
              public static RetryBackoffSpec backoff(long maxAttempts, Duration minBackoff) {
                return new RetryBackoffSpec();
              }

              // Reactor's own code configures specs for its callers: not reported.
              public static RetryBackoffSpec fixedDelay(long maxAttempts, Duration fixedDelay) {
                return Retry.backoff(maxAttempts, fixedDelay).maxBackoff(fixedDelay).jitter(0);
              }
            }
            """)
        .addSourceLines(
            "reactor/util/retry/RetryBackoffSpec.java",
            """
            package reactor.util.retry;

            import java.time.Duration;

            public final class RetryBackoffSpec extends Retry {
              public RetryBackoffSpec maxBackoff(Duration maxBackoff) {
                return this;
              }

              public RetryBackoffSpec jitter(double jitterFactor) {
                return this;
              }
            }
            """);
  }

  @Test
  void reactorBackoffsAreReportedUncappedFromTwentyConstantRetries() {
    withReactor(helper)
        .addSourceLines(
            "R.java",
            """
            import java.time.Duration;
            import reactor.util.retry.Retry;

            class R {
              // A count from configuration is not judged.
              Retry configured(long attempts) {
                return Retry.backoff(attempts, Duration.ofMillis(100));
              }

              // 19 retries: the count bounds the growth.
              Retry few() {
                return Retry.backoff(19, Duration.ofMillis(100));
              }

              Retry many() {
                // BUG: Diagnostic contains: every one of its 20 retries
                return Retry.backoff(20, Duration.ofMillis(100));
              }

              // 0.0 switches it off as 0 does.
              Retry off() {
                // BUG: Diagnostic contains: jitter(0) switches the random part
                return Retry.backoff(3, Duration.ofMillis(100)).jitter(0.0);
              }
            }
            """)
        .doTest();
  }
}
