package dev.agentloop.trace;

/**
 * What a run's calls cost altogether, superseded branches included (they were paid for).
 *
 * @param promptTokens the sum of the prompt tokens reported, {@code null} when no call reported any
 * @param completionTokens likewise for the completion tokens
 * @param modelCallsWithoutUsage how many recorded model calls reported no tokens at all
 */
public record RunCosts(long modelLatencyMillis, long toolLatencyMillis, Long promptTokens, Long completionTokens,
    int modelCallsWithoutUsage) {}
