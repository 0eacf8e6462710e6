package dev.agentloop.trace;

import java.util.Collection;

/**
 * What a run's calls cost altogether, superseded branches included (they were paid for); or, summed
 * the same way, what the calls of one turn of a conversation cost.
 *
 * @param promptTokens the sum of the prompt tokens reported, {@code null} when no call reported any
 * @param completionTokens likewise for the completion tokens
 * @param modelCallsWithoutUsage how many recorded model calls reported no tokens at all
 */
public record RunCosts(long modelLatencyMillis, long toolLatencyMillis, Long promptTokens, Long completionTokens,
    int modelCallsWithoutUsage) {

  /** The cost of no call at all. */
  public static final RunCosts NONE = new RunCosts(0, 0, null, null, 0);

  /** The sum of what these calls cost, as {@link RunInsights#totals} sums a whole run. */
  public static RunCosts sum(Collection<StepCost> costs) {
    long modelLatency = 0;
    long toolLatency = 0;
    Long prompt = null;
    Long completion = null;
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
      withoutUsage += cost.tokensReported() ? 0 : 1;
    }
    return new RunCosts(modelLatency, toolLatency, prompt, completion, withoutUsage);
  }

  /** A sum of counts that may be unknown: unknown only while nothing known was added. */
  private static Long plus(Long sum, Long count) {
    return count == null ? sum : sum == null ? count : Long.valueOf(sum + count);
  }
}
