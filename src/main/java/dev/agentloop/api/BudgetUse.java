package dev.agentloop.api;

/**
 * What a run used of its budgets ("7 of 10 model calls"). A run's budget covers all its turns and the runs it called
 * (other agents, and theirs): what counts against it is their use together, as it happens; {@code own} is the run's
 * own share. Limits are {@code null} where the run has none (or its agent's definition is no longer known).
 */
public record BudgetUse(Amount modelCalls, Amount toolCalls, Amount tokens) {

  /**
   * @param used what the run and the runs it called used, against {@code limit}
   * @param limit {@code null}: no limit
   * @param own what the run used itself
   */
  public record Amount(long used, Long limit, long own) {}
}
