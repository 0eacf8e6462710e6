package dev.agentloop.api;

/**
 * What a run used of its agent's budgets ("4 of 40 model calls"). Limits are {@code null} where the
 * agent has none (or its definition is no longer known).
 */
public record BudgetUse(Budget modelCalls, Budget toolCalls, Budget tokens) {

  /** @param limit {@code null}: no limit */
  public record Budget(long used, Long limit) {}
}
