package dev.bounded.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class DeadlineTest {
  private final FakeClock clock = new FakeClock();

  @Test
  void remainingShrinksAsTimePasses() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(2), clock);

    clock.advance(Duration.ofMillis(500));

    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(1500));
    assertThat(deadline.remainingNanos()).isEqualTo(1_500_000_000L);
    assertThat(deadline.isExpired()).isFalse();
  }

  @Test
  void expiresExactlyAtTheInstantAndRemainingNeverGoesNegative() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(1), clock);

    clock.advance(Duration.ofSeconds(1));
    assertThat(deadline.isExpired()).isTrue();
    assertThat(deadline.remaining()).isEqualTo(Duration.ZERO);

    clock.advance(Duration.ofHours(1));
    assertThat(deadline.remaining()).isEqualTo(Duration.ZERO);
    assertThat(deadline.remainingNanos()).isZero();
  }

  @Test
  void zeroOrNegativeTimeoutIsAlreadyExpired() {
    assertThat(Deadline.after(Duration.ZERO, clock).isExpired()).isTrue();
    assertThat(Deadline.after(Duration.ofSeconds(-5), clock).isExpired()).isTrue();
    assertThat(Deadline.after(Duration.ofSeconds(-5), clock).remaining()).isEqualTo(Duration.ZERO);
  }

  @Test
  void hugeTimeoutSaturatesInsteadOfOverflowing() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(Long.MAX_VALUE), clock);

    clock.advance(Duration.ofDays(365));

    assertThat(deadline.isExpired()).isFalse();
    assertThat(deadline.remainingNanos())
        .isEqualTo(Long.MAX_VALUE - Duration.ofDays(365).toNanos());
  }

  @Test
  void worksAcrossTheTickersOverflowBoundary() {
    FakeClock nearMax = new FakeClock(Long.MAX_VALUE - 100);
    Deadline deadline = Deadline.after(Duration.ofSeconds(1), nearMax);

    nearMax.advance(Duration.ofMillis(400)); // the reading wraps to a negative value

    assertThat(nearMax.read()).isNegative();
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(600));
    nearMax.advance(Duration.ofMillis(600));
    assertThat(deadline.isExpired()).isTrue();
  }

  @Test
  void minReturnsTheEarlierDeadline() {
    Deadline early = Deadline.after(Duration.ofSeconds(1), clock);
    clock.advance(Duration.ofMillis(100));
    Deadline late = Deadline.after(Duration.ofSeconds(1), clock);

    assertThat(early.min(late)).isSameAs(early);
    assertThat(late.min(early)).isSameAs(early);
    assertThat(late.min(late)).isSameAs(late);
  }

  @Test
  void minWithAnUnboundedOrHugeDeadlineNeverExtendsTheCaller() {
    Deadline bounded = Deadline.after(Duration.ofSeconds(1), clock);
    Deadline huge = Deadline.after(Duration.ofSeconds(Long.MAX_VALUE), clock);

    assertThat(bounded.min(Deadline.none())).isSameAs(bounded);
    assertThat(Deadline.none().min(bounded)).isSameAs(bounded);
    assertThat(huge.min(bounded)).isSameAs(bounded);
    assertThat(bounded.min(huge)).isSameAs(bounded);
  }

  @Test
  void minRefusesDeadlinesOnDifferentTickers() {
    Deadline a = Deadline.after(Duration.ofSeconds(1), clock);
    Deadline b = Deadline.after(Duration.ofSeconds(1), new FakeClock());

    assertThatThrownBy(() -> a.min(b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("different tickers");
  }

  @Test
  void noneNeverExpires() {
    assertThat(Deadline.none().isExpired()).isFalse();
    assertThat(Deadline.none().isUnbounded()).isTrue();
    assertThat(Deadline.none().remainingNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(Deadline.none().remaining()).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
    assertThat(Deadline.after(Duration.ofDays(1), clock).isUnbounded()).isFalse();
  }

  @Test
  void checkNotExpiredThrowsOnlyOnceExpired() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(1), clock);
    deadline.checkNotExpired("the query");

    clock.advance(Duration.ofSeconds(1));

    assertThatThrownBy(() -> deadline.checkNotExpired("the query"))
        .isInstanceOf(DeadlineExceededException.class)
        .hasMessage("deadline exceeded before the query");
  }

  @Test
  void rejectsNullArguments() {
    assertThatThrownBy(() -> Deadline.after(null, clock)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Deadline.after(Duration.ZERO, null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void systemDeadlineReadsTheSystemTicker() {
    Deadline deadline = Deadline.after(Duration.ofDays(1));

    assertThat(deadline.ticker()).isSameAs(Ticker.system());
    assertThat(deadline.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofDays(1));
    assertThat(deadline.toString()).startsWith("Deadline[remaining=");
  }
}
