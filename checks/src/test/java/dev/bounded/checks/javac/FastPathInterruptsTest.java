package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

/**
 * The fast path's test of a try statement whose broad catch may swallow an interrupt: it must say
 * yes wherever a rule could find an {@code InterruptedException} coming out of the try (else a
 * finding would be lost), and no where nothing can throw one (else the method is modelled for
 * nothing).
 */
final class FastPathInterruptsTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(InterruptSourceMarker.class, getClass());

  @Test
  void triesThatMayThrowAnInterrupt() {
    helper
        .addSourceLines(
            "T.java",
            """
            import java.io.BufferedReader;
            import java.util.concurrent.BlockingQueue;
            import java.util.concurrent.Callable;
            import java.util.concurrent.Future;

            class T {
              interface Op<E extends Exception> {
                void run() throws E;
              }

              static class Waits {
                Waits() throws InterruptedException {}
              }

              void declaresIt(Future<String> f) {
                // BUG: Diagnostic contains: may throw an interrupt
                try {
                  f.get();
                } catch (Exception e) {
                }
              }

              void declaresASubtype() {
                // BUG: Diagnostic contains: may throw an interrupt
                try {
                  interruptible();
                } catch (Exception e) {
                }
              }

              void declaresASupertype(Callable<String> c) {
                // BUG: Diagnostic contains: may throw an interrupt
                try {
                  c.call();
                } catch (Throwable e) {
                }
              }

              <E extends Exception> void declaresATypeVariable(Op<E> op) {
                // BUG: Diagnostic contains: may throw an interrupt
                try {
                  op.run();
                } catch (Exception e) {
                }
              }

              void aConstructorDeclaresIt() {
                // BUG: Diagnostic contains: may throw an interrupt
                try {
                  new Waits();
                } catch (Exception e) {
                }
              }

              void throwsSomething() {
                // BUG: Diagnostic contains: may throw an interrupt
                try {
                  if (Thread.interrupted()) {
                    throw new IllegalStateException();
                  }
                } catch (Exception e) {
                }
              }

              void closesAResource(BufferedReader in) {
                // BUG: Diagnostic contains: may throw an interrupt
                try (in) {
                } catch (Exception e) {
                }
              }

              void inALambdaToo(BlockingQueue<String> queue) {
                // BUG: Diagnostic contains: may throw an interrupt
                try {
                  Callable<String> take = () -> queue.take();
                } catch (Exception e) {
                }
              }

              // The rules ask a broad catch only for InterruptedException itself.
              void nothingCanThrowIt(java.io.Reader in) {
                try {
                  in.read();
                  closesOnInterrupt();
                  System.out.println(Integer.parseInt("1"));
                  new StringBuilder().append(1);
                } catch (Exception e) {
                }
              }

              static class Stop extends InterruptedException {}

              static void interruptible() throws Stop {}

              static void closesOnInterrupt() throws java.nio.channels.ClosedByInterruptException {}
            }
            """)
        .doTest();
  }
}
