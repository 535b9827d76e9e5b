package dev.bounded.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class NanosTest {

  @Test
  void saturatedConvertsOrdinaryDurationsExactly() {
    assertThat(Nanos.saturated(Duration.ofMillis(1500))).isEqualTo(1_500_000_000L);
    assertThat(Nanos.saturated(Duration.ofNanos(-7))).isEqualTo(-7);
  }

  @Test
  void saturatedClampsAtBothEnds() {
    assertThat(Nanos.saturated(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    assertThat(Nanos.saturated(Duration.ofSeconds(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
    assertThat(Nanos.saturated(Duration.ofNanos(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void saturatedAddClampsOnOverflowOnly() {
    assertThat(Nanos.saturatedAdd(2, 3)).isEqualTo(5);
    assertThat(Nanos.saturatedAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
    assertThat(Nanos.saturatedAdd(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
    assertThat(Nanos.saturatedAdd(Long.MAX_VALUE, Long.MIN_VALUE)).isEqualTo(-1);
  }

  @Test
  void cappedExponentialDoublesUpToTheCap() {
    assertThat(Nanos.cappedExponential(100, 1000, 0)).isEqualTo(100);
    assertThat(Nanos.cappedExponential(100, 1000, 3)).isEqualTo(800);
    assertThat(Nanos.cappedExponential(100, 1000, 4)).isEqualTo(1000);
    assertThat(Nanos.cappedExponential(100, 1000, 62)).isEqualTo(1000);
    assertThat(Nanos.cappedExponential(100, 1000, Integer.MAX_VALUE)).isEqualTo(1000);
    assertThat(Nanos.cappedExponential(0, 1000, 10)).isZero();
    assertThat(Nanos.cappedExponential(Long.MAX_VALUE / 2 + 1, Long.MAX_VALUE, 1))
        .isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void formatPicksTheLargestUnitAndTrimsZeros() {
    assertThat(Nanos.format(0)).isEqualTo("0ns");
    assertThat(Nanos.format(999)).isEqualTo("999ns");
    assertThat(Nanos.format(12_345)).isEqualTo("12.345µs");
    assertThat(Nanos.format(200_000_000)).isEqualTo("200ms");
    assertThat(Nanos.format(119_889_100)).isEqualTo("119.889ms");
    assertThat(Nanos.format(1_500_000_000)).isEqualTo("1.5s");
    assertThat(Nanos.format(Long.MAX_VALUE)).isEqualTo("9223372036.854s");
  }
}
