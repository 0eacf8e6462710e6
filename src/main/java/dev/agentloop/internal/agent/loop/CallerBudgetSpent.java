package dev.agentloop.internal.agent.loop;

/**
 * The budget of a run that called other agents is spent: a run below it asked for a call its budget has no room for.
 * Published from the worker's thread, outside any transaction; acted on by moving {@code callerRun} to its
 * {@code agentStuck}, which stops the runs it called.
 *
 * @param callerRun the run whose budget is spent
 * @param byRun the run that asked for more
 * @param byAgent that run's agent
 * @param what which limit, in words, e.g. "all 10 model calls were made (7 of them by the agents it called)"
 */
public record CallerBudgetSpent(String callerRun, String byRun, String byAgent, String what) {

  /** The reason {@code callerRun} is stuck with, naming the run that spent its budget. */
  public String reason() {
    return "The budget of this run and the agents it called is used up: " + what + "; the last call was asked for by "
        + byAgent + " (run " + byRun + ").";
  }
}
