package dev.bounded.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fails a test that leaves a thread it started still running: the thread's name, state and stack
 * are in the failure. On a class it applies to every test, including those of {@code @Nested}
 * classes.
 *
 * <pre>{@code
 * @FailOnThreadLeak
 * final class InventoryClientTest {
 *   @Test
 *   void fetchesInParallel() {
 *     try (TaskScope scope = TaskScope.open()) {   // closed: its threads are gone
 *       ...
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>See {@link ThreadLeakExtension} for what counts as a leak, the short bounded grace given to
 * threads that are just finishing, and the limits of the check.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(ThreadLeakExtension.class)
public @interface FailOnThreadLeak {

  /**
   * Regular expressions of thread names that are not leaks, matched against the whole name: for
   * threads a library starts once and keeps on purpose. Added to the patterns on enclosing classes
   * and to the JDK's own lazily started threads, which are always ignored.
   *
   * @return name patterns to ignore; none by default
   */
  String[] ignore() default {};
}
