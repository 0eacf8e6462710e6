package dev.agentloop.resilience;

import dev.agentloop.config.AgentLoopProperties.Resilience.Retry;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;

/** Builds the retry policies of model and tool calls from the typed settings. */
final class RetryPolicies {

  private RetryPolicies() {}

  /** Retries transient errors (and unknown ones when they count as transient) with exponential back-off and jitter. */
  static <R> RetryPolicy<R> transientErrors(Retry settings, ErrorClassifier classifier) {
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
    }
    return builder.build();
  }

  /** One attempt only. */
  static <R> RetryPolicy<R> noRetries() {
    return RetryPolicy.<R>builder().withMaxAttempts(1).build();
  }
}
