package dev.agentloop.internal.resilience;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;

/**
 * A circuit breaker per tool or per model endpoint: it opens when {@code failureThreshold} of the
 * last {@code failureExecutions} attempts failed (transient or unknown errors, time-outs), rejects
 * calls for {@code delay}, then lets {@code successThreshold} trial calls through; if they all
 * succeed it closes, else it opens again. Immutable; made in code (tests) or bound from
 * {@code agentloop.resilience.*-breaker(s)} and validated by package {@code config}. Its defaults differ
 * between tool and model breakers, so the metadata states them per key (additional metadata), not here.
 *
 * @param failureThreshold failed attempts among the last `failure-executions` that open the breaker
 * @param failureExecutions how many of the latest attempts the breaker looks at
 * @param delay how long an open breaker rejects calls before it lets trial calls through
 * @param successThreshold trial calls that must succeed to close it again
 */
public record BreakerSettings(
    @Positive int failureThreshold,
    @Positive int failureExecutions,
    @NotNull Duration delay,
    @Positive int successThreshold) {

  @AssertTrue(message = "failure-threshold must not exceed failure-executions")
  boolean isThresholdWithinWindow() {
    return failureThreshold <= failureExecutions;
  }
}
