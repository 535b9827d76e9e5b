package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.bugpatterns.BugChecker;
import com.google.errorprone.scanner.ScannerSupplier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checks share one analysis per method (built by whichever check sees the method first), yet
 * each stays its own check: suppressing or switching off one leaves the others' findings on the
 * same method, in either order of the checks.
 */
final class SharedAnalysisTest {
  /** Line 12 is a catch of Exception, 16 a sleep, 17 a catch of InterruptedException. */
  private static final String PROBE =
      """
      class Probe {
        interface Op {
          String call() throws Exception;
        }

        %s
        String get(Op op) {
          for (int attempt = 0; attempt < 3; attempt++) {
            try {
              return op.call();
            // %s
            } catch (Exception e) {
              // retried without looking at it
            }
            try {
              // %s
              Thread.sleep(100);
            // %s
            } catch (InterruptedException e) {
              // swallowed and retried
            }
          }
          return null;
        }
      }
      """;

  private static final String IR = "BUG: Diagnostic contains: [InterruptRetried]";
  private static final String UER = "BUG: Diagnostic contains: [UnclassifiedExceptionRetry]";
  private static final String BWJ = "BUG: Diagnostic contains: [BackoffWithoutJitter]";
  private static final String NONE = "nothing reported here";

  private static CompilationTestHelper helper(
      Class<? extends BugChecker> first, Class<? extends BugChecker> second) {
    return CompilationTestHelper.newInstance(
        ScannerSupplier.fromBugCheckerClasses(List.of(first, second)), SharedAnalysisTest.class);
  }

  private static CompilationTestHelper helper(
      Class<? extends BugChecker> first,
      Class<? extends BugChecker> second,
      Class<? extends BugChecker> third) {
    return CompilationTestHelper.newInstance(
        ScannerSupplier.fromBugCheckerClasses(List.of(first, second, third)),
        SharedAnalysisTest.class);
  }

  private static String probe(String annotation, String catchAll, String sleep, String catchIe) {
    return PROBE.formatted(annotation, catchAll, sleep, catchIe);
  }

  @Test
  void everyCheckReportsOnTheSameMethodInEitherOrder() {
    helper(InterruptRetried.class, UnclassifiedExceptionRetry.class, BackoffWithoutJitter.class)
        .addSourceLines("Probe.java", probe("", UER, BWJ, IR))
        .doTest();
    helper(BackoffWithoutJitter.class, UnclassifiedExceptionRetry.class, InterruptRetried.class)
        .addSourceLines("Probe.java", probe("", UER, BWJ, IR))
        .doTest();
  }

  @Test
  void suppressingOneCheckKeepsTheOthers() {
    String suppressIr = "@SuppressWarnings(\"InterruptRetried\")";
    helper(InterruptRetried.class, UnclassifiedExceptionRetry.class)
        .addSourceLines("Probe.java", probe(suppressIr, UER, NONE, NONE))
        .doTest();
    helper(UnclassifiedExceptionRetry.class, InterruptRetried.class)
        .addSourceLines("Probe.java", probe(suppressIr, UER, NONE, NONE))
        .doTest();
    String suppressUer = "@SuppressWarnings(\"UnclassifiedExceptionRetry\")";
    helper(UnclassifiedExceptionRetry.class, BackoffWithoutJitter.class)
        .addSourceLines("Probe.java", probe(suppressUer, NONE, BWJ, NONE))
        .doTest();
    helper(BackoffWithoutJitter.class, UnclassifiedExceptionRetry.class)
        .addSourceLines("Probe.java", probe(suppressUer, NONE, BWJ, NONE))
        .doTest();
  }

  @Test
  void switchingOneCheckOffKeepsTheOthers() {
    helper(InterruptRetried.class, UnclassifiedExceptionRetry.class)
        .setArgs("-Xep:InterruptRetried:OFF")
        .addSourceLines("Probe.java", probe("", UER, NONE, NONE))
        .doTest();
    helper(UnclassifiedExceptionRetry.class, InterruptRetried.class)
        .setArgs("-Xep:InterruptRetried:OFF")
        .addSourceLines("Probe.java", probe("", UER, NONE, NONE))
        .doTest();
    helper(UnclassifiedExceptionRetry.class, BackoffWithoutJitter.class)
        .setArgs("-Xep:UnclassifiedExceptionRetry:OFF")
        .addSourceLines("Probe.java", probe("", NONE, BWJ, NONE))
        .doTest();
    helper(BackoffWithoutJitter.class, UnclassifiedExceptionRetry.class)
        .setArgs("-Xep:UnclassifiedExceptionRetry:OFF")
        .addSourceLines("Probe.java", probe("", NONE, BWJ, NONE))
        .doTest();
  }

  @Test
  void withoutTheCheckNothingIsReported() {
    helper(BackoffWithoutJitter.class, UnclassifiedExceptionRetry.class)
        .setArgs("-Xep:UnclassifiedExceptionRetry:OFF", "-Xep:BackoffWithoutJitter:OFF")
        .addSourceLines("Probe.java", probe("", NONE, NONE, NONE))
        .doTest();
  }
}
