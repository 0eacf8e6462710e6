package dev.agentloop.internal.llm.limits;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a provider's answer says about its limits, read from its headers: how long it asks that nothing more be
 * sent. {@code Retry-After} (seconds or an HTTP date) and {@code retry-after-ms} with a 429, 503 or 529; and, with
 * any status, a limit the headers say is used up until a reset: OpenAI's {@code x-ratelimit-remaining-requests}
 * / {@code -tokens} with {@code x-ratelimit-reset-requests} / {@code -tokens} ({@code 1s}, {@code 6m0s},
 * {@code 20ms}) and Anthropic's {@code anthropic-ratelimit-*-remaining} with {@code -reset} (an RFC 3339 time).
 * Header names are matched whatever their case; unreadable values are ignored. Thread-safe.
 */
public final class RateLimitHeaders {

  /** The longest wait taken from headers: a provider's daily quota must not stop a node for a day unseen. */
  public static final Duration MAX_PAUSE = Duration.ofMinutes(10);

  private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
  private static final List<String> OPENAI = List.of("requests", "tokens");
  private static final List<String> ANTHROPIC = List.of("requests", "tokens", "input-tokens", "output-tokens");

  private RateLimitHeaders() {}

  /**
   * How long the endpoint asks that nothing more be sent, at most {@link #MAX_PAUSE}; {@code null} when it does
   * not ask.
   */
  public static Duration pause(int status, Map<String, List<String>> headers, Instant now) {
    Duration pause = status == 429 || status == 503 || status == 529 ? retryAfter(headers, now) : null;
    for (String limit : OPENAI) {
      if (usedUp(header(headers, "x-ratelimit-remaining-" + limit))) {
        pause = longer(pause, goDuration(header(headers, "x-ratelimit-reset-" + limit)));
      }
    }
    for (String limit : ANTHROPIC) {
      if (usedUp(header(headers, "anthropic-ratelimit-" + limit + "-remaining"))) {
        pause = longer(pause, until(header(headers, "anthropic-ratelimit-" + limit + "-reset"), now));
      }
    }
    return pause == null ? null : pause.compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause;
  }

  /**
   * The wait {@code Retry-After} (delay-seconds or an HTTP date) or {@code retry-after-ms} asks for, the longer
   * of the two; {@code null} when neither is there or readable, zero for a date in the past.
   */
  public static Duration retryAfter(Map<String, List<String>> headers, Instant now) {
    Duration seconds = retryAfterHeader(header(headers, "Retry-After"), now);
    Duration millis = null;
    String ms = header(headers, "retry-after-ms");
    if (ms != null && ms.strip().matches("\\d{1,12}(\\.\\d+)?")) {
      millis = Duration.ofMillis((long) Math.ceil(Double.parseDouble(ms.strip())));
    }
    return longer(seconds, millis);
  }

  /** The first value of a header, whatever the case of its name; {@code null} when absent. */
  public static String header(Map<String, List<String>> headers, String name) {
    for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
      if (entry.getKey() != null && entry.getKey().equalsIgnoreCase(name) && !entry.getValue().isEmpty()) {
        return entry.getValue().get(0);
      }
    }
    return null;
  }

  private static Duration retryAfterHeader(String header, Instant now) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String value = header.strip();
    if (value.matches("\\d{1,12}")) {
      return Duration.ofSeconds(Long.parseLong(value));
    }
    try {
      Duration wait = Duration.between(now, ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME));
      return wait.isNegative() ? Duration.ZERO : wait;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static boolean usedUp(String remaining) {
    return remaining != null && remaining.strip().matches("0+(\\.0+)?");
  }

  /** OpenAI's reset: a Go duration such as {@code 1s}, {@code 6m0s}, {@code 59.876s}, {@code 20ms}. */
  static Duration goDuration(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String text = value.strip().toLowerCase(Locale.ROOT);
    Matcher parts = GO_DURATION.matcher(text);
    double millis = 0;
    int end = 0;
    while (parts.find() && parts.start() == end) {
      double amount = Double.parseDouble(parts.group(1));
      millis += switch (parts.group(2)) {
        case "ms" -> amount;
        case "s" -> amount * 1_000;
        case "m" -> amount * 60_000;
        default -> amount * 3_600_000;
      };
      end = parts.end();
    }
    return end == text.length() && end > 0 ? Duration.ofMillis((long) Math.ceil(millis)) : null;
  }

  private static Duration until(String time, Instant now) {
    if (time == null || time.isBlank()) {
      return null;
    }
    try {
      Duration wait = Duration.between(now, OffsetDateTime.parse(time.strip()).toInstant());
      return wait.isNegative() ? Duration.ZERO : wait;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Duration longer(Duration a, Duration b) {
    return a == null ? b : b == null ? a : a.compareTo(b) >= 0 ? a : b;
  }
}
