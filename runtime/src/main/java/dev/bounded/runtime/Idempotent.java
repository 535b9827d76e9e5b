package dev.bounded.runtime;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that calling the method twice has the same effect as calling it once, so it is safe to
 * retry even when an attempt's outcome is unknown (a timeout after the request was sent).
 *
 * <p>Bounded's checks read this annotation from class files: a retry loop around an {@code
 * Idempotent} method is not reported as a non-idempotent retry. At run time, pass such calls to
 * {@link RetryPolicy#callIdempotent}.
 *
 * <pre>{@code
 * @Idempotent // PUT with a client-chosen id
 * void upsert(Order order) throws IOException { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.TYPE})
public @interface Idempotent {}
