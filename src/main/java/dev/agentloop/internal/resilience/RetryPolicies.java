package dev.agentloop.internal.resilience;

import dev.agentloop.spi.ModelCallException;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Builds the retry policies of model and tool calls from the typed settings. */
final class RetryPolicies {

  private RetryPolicies() {}

  /**
   * Retries transient errors (and unknown ones when they count as transient) with exponential back-off
   * and jitter; when the model endpoint said how long to wait ({@code Retry-After}), that long, at most
   * {@code max-delay}.
   */
  static <R> RetryPolicy<R> transientErrors(RetrySettings settings, ErrorClassifier classifier) {
    return RetryPolicies.<R>transientErrorsBuilder(settings, classifier).build();
  }

  /** As {@link #transientErrors}, but an attempt that timed out ends the call: it may still be running. */
  static <R> RetryPolicy<R> transientErrorsUntilTimeout(RetrySettings settings, ErrorClassifier classifier) {
    return RetryPolicies.<R>transientErrorsBuilder(settings, classifier)
        .abortIf((result, error) -> error != null && timedOut(error)).build();
  }

  private static boolean timedOut(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException || t instanceof TimeoutExceededException) {
        return true;
      }
    }
    return false;
  }

  private static <R> RetryPolicyBuilder<R> transientErrorsBuilder(RetrySettings settings, ErrorClassifier classifier) {
    RetryPolicyBuilder<R> builder = RetryPolicy.<R>builder()
        .handleIf((result, error) -> error != null && classifier.isRetryable(error))
        .withMaxAttempts(settings.maxAttempts());
    if (settings.maxAttempts() > 1) {
      if (settings.maxDelay().compareTo(settings.delay()) > 0) {
        builder.withBackoff(settings.delay(), settings.maxDelay());
      } else {
        builder.withDelay(settings.delay());
      }
      if (settings.jitter() > 0) {
        builder.withJitter(settings.jitter());
      }
      builder.withDelayFn(context -> requestedWait(context.getLastException(), settings.maxDelay(), settings.jitter()));
    }
    return builder;
  }

  /** What a delay function returns to leave the delay to the back-off: Failsafe ignores negative delays. */
  static final Duration BACK_OFF = Duration.ofMillis(-1);

  /**
   * The wait the endpoint asked for, capped; {@link #BACK_OFF} when it did not ask. Failsafe jitters
   * this delay like any other, by up to {@code jitter} either way, so it is stretched by as much:
   * the shortest jittered wait is still the one asked for.
   */
  static Duration requestedWait(Throwable failure, Duration cap, double jitter) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ModelCallException call && call.retryAfter() != null) {
        Duration wait = call.retryAfter().compareTo(cap) > 0 ? cap : call.retryAfter();
        return jitter > 0 && jitter < 1 ? Duration.ofNanos((long) Math.ceil(wait.toNanos() / (1 - jitter))) : wait;
      }
    }
    return BACK_OFF;
  }

  /** One attempt only. */
  static <R> RetryPolicy<R> noRetries() {
    return RetryPolicy.<R>builder().withMaxAttempts(1).build();
  }
}
