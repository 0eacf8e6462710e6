package dev.agentloop.api;

/**
 * What a run's calls cost altogether, superseded branches included (they were paid for); or, summed
 * the same way, what the calls of one turn of a conversation cost.
 *
 * @param promptTokens the sum of the prompt tokens reported, those from a prompt cache included; {@code null}
 *     when no call reported any
 * @param completionTokens likewise for the completion tokens
 * @param modelCallsWithoutUsage how many recorded model calls reported no tokens at all
 * @param cacheReadTokens of {@code promptTokens}, those the provider's prompt cache served; {@code null} when
 *     no call reported any
 * @param cacheWriteTokens of {@code promptTokens}, those written to the provider's prompt cache; likewise
 */
public record RunCosts(long modelLatencyMillis, long toolLatencyMillis, Long promptTokens, Long completionTokens,
    int modelCallsWithoutUsage, Long cacheReadTokens, Long cacheWriteTokens) {

  /** The cost of no call at all. */
  public static final RunCosts NONE = new RunCosts(0, 0, null, null, 0);

  /** Costs without anything known of a prompt cache. */
  public RunCosts(long modelLatencyMillis, long toolLatencyMillis, Long promptTokens, Long completionTokens,
      int modelCallsWithoutUsage) {
    this(modelLatencyMillis, toolLatencyMillis, promptTokens, completionTokens, modelCallsWithoutUsage, null, null);
  }
}
