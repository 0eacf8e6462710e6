package dev.agentloop.internal.resilience;

/**
 * What one run may spend. A limit of 0 for tokens means no token budget.
 *
 * @param maxSteps model turns (the agent's {@code maxSteps})
 */
public record Budget(int maxSteps, int maxModelCalls, int maxToolCalls, long maxTokens) {

  public Budget {
    if (maxSteps < 1 || maxModelCalls < 1 || maxToolCalls < 1 || maxTokens < 0) {
      throw new IllegalArgumentException("budget limits must be at least 1 (tokens: 0 for none): maxSteps " + maxSteps
          + ", maxModelCalls " + maxModelCalls + ", maxToolCalls " + maxToolCalls + ", maxTokens " + maxTokens);
    }
  }

  /**
   * What a run has spent.
   *
   * @param turns model turns on the active path
   */
  public record Spent(int turns, int modelCalls, int toolCalls, long tokens) {}
}
