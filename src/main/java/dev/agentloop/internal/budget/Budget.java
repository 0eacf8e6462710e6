package dev.agentloop.internal.budget;

/**
 * What a run may spend: the one type for a budget's limits. A run's budget covers all its turns and the runs it
 * calls (other agents); it comes from its agent's settings, is at most what its caller had left when the run was
 * started by another agent's call, and is raised only by a person (the {@code guide} decision of
 * {@code agentStuck}). Immutable.
 *
 * @param maxSteps model turns on the run's active path
 * @param maxTokens 0: no token budget
 */
public record Budget(int maxSteps, int maxModelCalls, int maxToolCalls, long maxTokens) {

  /** No limit that could matter: for code that builds settings by hand. */
  public static final Budget NONE = new Budget(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, 0);

  public Budget {
    if (maxSteps < 1 || maxModelCalls < 1 || maxToolCalls < 1 || maxTokens < 0) {
      throw new IllegalArgumentException("budget limits must be at least 1 (tokens: 0 for none): maxSteps " + maxSteps
          + ", maxModelCalls " + maxModelCalls + ", maxToolCalls " + maxToolCalls + ", maxTokens " + maxTokens);
    }
  }

  public boolean limitsTokens() {
    return maxTokens > 0;
  }

  /** This budget with the steps of an agent's {@code maxSteps}. */
  public Budget withMaxSteps(int steps) {
    return new Budget(steps, maxModelCalls, maxToolCalls, maxTokens);
  }

  /**
   * This budget with the limits a person raised; {@code null} keeps a limit.
   *
   * @throws IllegalArgumentException when a new limit is below 1
   */
  public Budget raisedTo(Integer steps, Integer modelCalls, Integer toolCalls, Long tokens) {
    return new Budget(steps == null ? maxSteps : steps, modelCalls == null ? maxModelCalls : modelCalls,
        toolCalls == null ? maxToolCalls : toolCalls, tokens == null ? maxTokens : tokens);
  }

  /**
   * The budget of a run another agent's call starts: this (its agent's) budget, at most what the caller has left of
   * its own. A limit the caller has used up leaves the child one call, which the caller's budget refuses when it is
   * asked for (the caller's budget is checked at every call of its tree).
   *
   * @param caller the caller's budget
   * @param spent what the caller and the runs it called have spent
   */
  public Budget within(Budget caller, Spending spent) {
    long tokens = caller.limitsTokens() ? Math.max(1, caller.maxTokens - spent.tokens()) : 0;
    return new Budget(maxSteps,
        (int) Math.max(1, Math.min(maxModelCalls, (long) caller.maxModelCalls - spent.modelCalls())),
        (int) Math.max(1, Math.min(maxToolCalls, (long) caller.maxToolCalls - spent.toolCalls())),
        !limitsTokens() ? tokens : tokens == 0 ? maxTokens : Math.min(maxTokens, tokens));
  }
}
