package dev.bounded.checks.javac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.ErrorProneFlags;
import org.junit.jupiter.api.Test;

final class FlagsTest {

  @Test
  void aMalformedFlagFailsTheCompilationWithAMessageNamingIt() {
    Throwable thrown =
        catchThrowable(
            () ->
                CompilationTestHelper.newInstance(NonIdempotentRetry.class, getClass())
                    .setArgs("-XepOpt:Bounded:NonIdempotent=com.acme.Payments.charge")
                    .addSourceLines("A.java", "class A {}")
                    .doTest());

    assertThat(thrown).isNotNull();
    assertThat(rootMessage(thrown))
        .contains("-XepOpt:Bounded:NonIdempotent", "com.acme.Payments.charge");
  }

  @Test
  void defaultsAndDocsUrl() {
    ErrorProneFlags flags =
        ErrorProneFlags.builder()
            .putFlag("Bounded:DocsUrl", "https://docs.example.com/rules")
            .build();

    assertThat(Flags.docsUrl(flags)).contains("https://docs.example.com/rules/");
    assertThat(Flags.docsUrl(ErrorProneFlags.empty())).isEmpty();
    assertThat(Flags.ruleConfig(ErrorProneFlags.empty()).isIdempotencyKeyHeader("Idempotency-Key"))
        .isTrue();
  }

  @Test
  void theDocsUrlFlagChangesTheLinkInDiagnostics() {
    CompilationTestHelper.newInstance(InterruptSwallowed.class, getClass())
        .setArgs("-XepOpt:Bounded:DocsUrl=https://docs.example.com/rules/")
        .addSourceLines(
            "A.java",
            """
            class A {
              void pause() {
                try {
                  Thread.sleep(1);
                  // BUG: Diagnostic contains: https://docs.example.com/rules/InterruptSwallowed.md
                } catch (InterruptedException e) {
                }
              }
            }
            """)
        .doTest();
  }

  private static String rootMessage(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append('\n');
    }
    return all.toString();
  }
}
