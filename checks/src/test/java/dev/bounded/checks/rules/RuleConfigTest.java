package dev.bounded.checks.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

final class RuleConfigTest {

  @Test
  void headersAreComparedCaseInsensitively() {
    RuleConfig config = new RuleConfig(Set.of(), Set.of(" X-Request-Id "), Set.of());

    assertThat(config.isIdempotencyKeyHeader("x-request-id")).isTrue();
    assertThat(config.isIdempotencyKeyHeader("Idempotency-Key")).isFalse();
    assertThat(RuleConfig.DEFAULT.isIdempotencyKeyHeader("IDEMPOTENCY-KEY")).isTrue();
  }

  @Test
  void malformedMethodReferencesNameTheFlagAndTheValue() {
    assertThatThrownBy(() -> new RuleConfig(Set.of("com.acme.Payments.charge"), Set.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-XepOpt:Bounded:NonIdempotent")
        .hasMessageContaining("'com.acme.Payments.charge'");
    assertThatThrownBy(() -> new RuleConfig(Set.of(), Set.of(), Set.of("Client#")))
        .hasMessageContaining("-XepOpt:PerAttemptTimeout:Methods");
    assertThatThrownBy(() -> new RuleConfig(Set.of("#charge"), Set.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RuleConfig(Set.of("A#b#c"), Set.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rulesAreFoundByName() {
    assertThat(Rules.named("PerAttemptTimeout")).isInstanceOf(PerAttemptTimeoutRule.class);
    assertThatThrownBy(() -> Rules.named("Nope")).hasMessageContaining("InterruptRetried");
  }
}
