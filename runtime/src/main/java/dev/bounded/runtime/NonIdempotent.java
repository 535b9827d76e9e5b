package dev.bounded.runtime;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a second call may repeat the effect of the first (charge twice, send twice), so an
 * attempt whose outcome is unknown must not be retried blindly.
 *
 * <p>Bounded's checks report a retry loop around a {@code NonIdempotent} method. The fix is an
 * idempotency key made once per logical operation, or no retry on an unknown outcome ({@link
 * UnknownOutcomeException}).
 *
 * <pre>{@code
 * @NonIdempotent
 * Receipt charge(Card card, Money amount) throws IOException { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.TYPE})
public @interface NonIdempotent {}
