package dev.agentloop.internal.trace;

/**
 * What writing a step cost: the model call that wrote it (its latency, the tokens the provider
 * reported and the model it is priced by) or the tool call it observes (its latency). Kept beside the
 * step, never in its content. A {@code null} count means the endpoint reported none, which is not the
 * same as 0.
 *
 * @param latencyMillis wall time of the call, retries and back-off included: what the run waited
 * @param modelCall whether a model call wrote the step (else a tool call)
 * @param promptTokens all the prompt tokens of the call, those from a prompt cache included
 * @param cacheReadTokens of {@code promptTokens}, those the provider's prompt cache served
 * @param cacheWriteTokens of {@code promptTokens}, those written to the provider's prompt cache
 * @param model the model the call is counted and priced by, {@code null} where the adapter names none
 */
public record StepCost(Long latencyMillis, boolean modelCall, Long promptTokens, Long completionTokens,
    Long totalTokens, Long cacheReadTokens, Long cacheWriteTokens, String model) {

  public StepCost {
    if (latencyMillis != null && latencyMillis < 0) {
      throw new IllegalArgumentException("latencyMillis must not be negative, but was " + latencyMillis);
    }
  }

  /** A cost without anything known of a prompt cache or the model. */
  public StepCost(Long latencyMillis, boolean modelCall, Long promptTokens, Long completionTokens, Long totalTokens) {
    this(latencyMillis, modelCall, promptTokens, completionTokens, totalTokens, null, null, null);
  }

  /** @param totalTokens {@code null}: the sum of the parts where both are known */
  public static StepCost modelCall(long latencyMillis, Long promptTokens, Long completionTokens, Long totalTokens) {
    return modelCall(latencyMillis, promptTokens, completionTokens, totalTokens, null, null, null);
  }

  /** @param totalTokens {@code null}: the sum of the parts where both are known */
  public static StepCost modelCall(long latencyMillis, Long promptTokens, Long completionTokens, Long totalTokens,
      Long cacheReadTokens, Long cacheWriteTokens, String model) {
    Long total = totalTokens == null && promptTokens != null && completionTokens != null
        ? Long.valueOf(promptTokens + completionTokens) : totalTokens;
    return new StepCost(latencyMillis, true, promptTokens, completionTokens, total, cacheReadTokens, cacheWriteTokens,
        model);
  }

  /** A tool call's cost, or {@code null} when nothing ran (a refused or rejected call). */
  public static StepCost toolCall(Long latencyMillis) {
    return latencyMillis == null ? null : new StepCost(latencyMillis, false, null, null, null);
  }

  /** Whether the endpoint reported any token count for this model call. */
  public boolean tokensReported() {
    return promptTokens != null || completionTokens != null || totalTokens != null;
  }
}
