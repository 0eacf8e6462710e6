package dev.agentloop.internal.events;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How runs are followed ({@code agentloop.events.*}, bound by package {@code config}).
 *
 * @param pollInterval how often a followed run is read again when nothing in this JVM said it changed: what a
 *     change written on another node of a cluster, or by the engine alone (an incident), waits at most to be seen
 * @param keepAlive how long a stream stays silent before it sends a comment that keeps proxies from closing it
 * @param maxDuration how long one stream lasts at most; the client then resumes from its last event, as after any
 *     disconnect, so a stream never holds a connection forever
 * @param maxFollowers how many streams this node serves at once; more are refused with 503 and warning
 *     AGENTLOOP-501, so that followers cannot take the node's threads and connections
 * @param threads the threads that read followed runs
 */
public record RunEventsSettings(
    @NotNull @DefaultValue("PT2S") Duration pollInterval,
    @NotNull @DefaultValue("PT15S") Duration keepAlive,
    @NotNull @DefaultValue("PT30M") Duration maxDuration,
    @Min(1) @Max(100_000) @DefaultValue("1000") int maxFollowers,
    @Min(1) @Max(64) @DefaultValue("2") int threads) {

  public static final RunEventsSettings DEFAULTS =
      new RunEventsSettings(Duration.ofSeconds(2), Duration.ofSeconds(15), Duration.ofMinutes(30), 1000, 2);

  public RunEventsSettings {
    requirePositive(pollInterval, "pollInterval");
    requirePositive(keepAlive, "keepAlive");
    requirePositive(maxDuration, "maxDuration");
    if (pollInterval.toMillis() < 50) {
      throw new IllegalArgumentException("pollInterval must be at least 50 ms, was " + pollInterval);
    }
  }

  private static void requirePositive(Duration value, String name) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
    }
  }
}
