package dev.agentloop.internal.llm.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a provider's headers ask: each kind of header, and what is ignored. */
class RateLimitHeadersTest {

  private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");

  @Test
  void should_pause_as_long_as_a_429_or_503_asks_in_seconds_or_as_a_date() {
    assertThat(RateLimitHeaders.pause(429, headers("Retry-After", "20"), NOW)).isEqualTo(Duration.ofSeconds(20));
    assertThat(RateLimitHeaders.pause(503, headers("retry-after", "Sat, 28 Nov 2026 10:00:30 GMT"), NOW))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(RateLimitHeaders.pause(529, headers("retry-after-ms", "1500"), NOW)).isEqualTo(Duration.ofMillis(1500));
    assertThat(RateLimitHeaders.pause(429, headers("Retry-After", "Sat, 28 Nov 2026 09:59:00 GMT"), NOW))
        .as("a date in the past: no wait").isEqualTo(Duration.ZERO);
  }

  @Test
  void should_take_no_retry_after_of_an_answer_that_is_no_refusal() {
    assertThat(RateLimitHeaders.pause(200, headers("Retry-After", "20"), NOW)).isNull();
    assertThat(RateLimitHeaders.pause(400, headers("Retry-After", "20"), NOW)).isNull();
  }

  @Test
  void should_pause_until_openais_reset_when_a_limit_is_used_up_whatever_the_status() {
    Map<String, List<String>> used = Map.of("x-ratelimit-remaining-requests", List.of("0"),
        "x-ratelimit-reset-requests", List.of("6m0s"), "x-ratelimit-remaining-tokens", List.of("0"),
        "x-ratelimit-reset-tokens", List.of("59.5s"));
    assertThat(RateLimitHeaders.pause(200, used, NOW)).isEqualTo(Duration.ofMinutes(6));
    assertThat(RateLimitHeaders.pause(200, Map.of("x-ratelimit-remaining-requests", List.of("12"),
        "x-ratelimit-reset-requests", List.of("1s")), NOW)).as("a limit not used up: no wait").isNull();
    assertThat(RateLimitHeaders.goDuration("20ms")).isEqualTo(Duration.ofMillis(20));
    assertThat(RateLimitHeaders.goDuration("1h2m3.5s")).isEqualTo(Duration.ofMillis(3_723_500));
    assertThat(RateLimitHeaders.goDuration("soon")).isNull();
  }

  @Test
  void should_pause_until_anthropics_reset_time_when_a_limit_is_used_up() {
    Map<String, List<String>> used = Map.of("anthropic-ratelimit-input-tokens-remaining", List.of("0"),
        "anthropic-ratelimit-input-tokens-reset", List.of("2026-11-28T10:00:12Z"),
        "anthropic-ratelimit-requests-remaining", List.of("49"),
        "anthropic-ratelimit-requests-reset", List.of("2026-11-28T10:00:59Z"));
    assertThat(RateLimitHeaders.pause(200, used, NOW)).isEqualTo(Duration.ofSeconds(12));
  }

  @Test
  void should_wait_no_longer_than_ten_minutes_and_ignore_what_it_cannot_read() {
    assertThat(RateLimitHeaders.pause(429, headers("Retry-After", "86400"), NOW)).isEqualTo(RateLimitHeaders.MAX_PAUSE);
    assertThat(RateLimitHeaders.pause(429, headers("Retry-After", "in a while"), NOW)).isNull();
    assertThat(RateLimitHeaders.pause(200, Map.of("anthropic-ratelimit-tokens-remaining", List.of("0"),
        "anthropic-ratelimit-tokens-reset", List.of("tomorrow")), NOW)).isNull();
    assertThat(RateLimitHeaders.pause(429, Map.of(), NOW)).isNull();
  }

  private static Map<String, List<String>> headers(String name, String value) {
    return Map.of(name, List.of(value));
  }
}
