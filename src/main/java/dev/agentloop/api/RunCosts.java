package dev.agentloop.api;

import dev.agentloop.trace.RunInsights;
import dev.agentloop.trace.StepCost;
import java.util.Collection;

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

  /** The sum of what these calls cost, as {@link RunInsights#totals} sums a whole run. */
  public static RunCosts sum(Collection<StepCost> costs) {
    long modelLatency = 0;
    long toolLatency = 0;
    Long prompt = null;
    Long completion = null;
    Long cacheRead = null;
    Long cacheWrite = null;
    int withoutUsage = 0;
    for (StepCost cost : costs) {
      long latency = cost.latencyMillis() == null ? 0 : cost.latencyMillis();
      if (!cost.modelCall()) {
        toolLatency += latency;
        continue;
      }
      modelLatency += latency;
      prompt = plus(prompt, cost.promptTokens());
      completion = plus(completion, cost.completionTokens());
      cacheRead = plus(cacheRead, cost.cacheReadTokens());
      cacheWrite = plus(cacheWrite, cost.cacheWriteTokens());
      withoutUsage += cost.tokensReported() ? 0 : 1;
    }
    return new RunCosts(modelLatency, toolLatency, prompt, completion, withoutUsage, cacheRead, cacheWrite);
  }

  /** A sum of counts that may be unknown: unknown only while nothing known was added. */
  private static Long plus(Long sum, Long count) {
    return count == null ? sum : sum == null ? count : Long.valueOf(sum + count);
  }
}
