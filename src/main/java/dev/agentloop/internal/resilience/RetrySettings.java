package dev.agentloop.internal.resilience;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Retries of one model or tool call on transient errors, with exponential back-off and jitter
 * ({@code agentloop.resilience.retry.*}). Immutable; made in code (tests) or bound and validated by
 * package {@code config}.
 *
 * @param maxAttempts attempts per call, the first included (1: no retry)
 * @param delay the wait before the first retry, doubled on every further one
 * @param maxDelay the longest wait between retries; also the longest wait a model endpoint's Retry-After gets
 * @param jitter each delay varies by up to this share, so that many runs do not retry in step
 * @param sideEffects whether calls of tools with side effects are retried too (an attempt that timed
 *     out may have had its effect)
 */
public record RetrySettings(
    @DefaultValue("3") @Min(1) int maxAttempts,
    @DefaultValue("PT0.5S") @NotNull Duration delay,
    @DefaultValue("PT10S") @NotNull Duration maxDelay,
    @DefaultValue("0.25") @DecimalMin("0") @DecimalMax("1") double jitter,
@DefaultValue("false")     boolean sideEffects) {

  @AssertTrue(message = "max-delay must not be shorter than delay")
  boolean isDelaysOrdered() {
    return delay == null || maxDelay == null || maxDelay.compareTo(delay) >= 0;
  }
}
