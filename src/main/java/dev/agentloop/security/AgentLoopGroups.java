package dev.agentloop.security;

/**
 * The groups AgentLoop grants rights to. The shipped diagrams offer their user tasks to
 * {@link #REVIEWERS}; operators fix and steer runs.
 */
public final class AgentLoopGroups {

  /** Review plans, answer the agent's questions, approve actions, review answers; start and read runs. */
  public static final String REVIEWERS = "agent-reviewers";

  /** Everything reviewers do, plus Cockpit and every run and task. */
  public static final String OPERATORS = "agent-operators";

  private AgentLoopGroups() {}
}
