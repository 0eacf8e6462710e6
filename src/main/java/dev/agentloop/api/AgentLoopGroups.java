package dev.agentloop.api;

/**
 * The groups AgentLoop grants rights to: a host gives its people these groups (in Camunda Admin or its own
 * identity provider). The shipped diagrams offer their user tasks to
 * {@link #REVIEWERS}; operators fix and steer runs; remote workers run tools; analysts deploy agents.
 */
public final class AgentLoopGroups {

  /** Review plans, answer the agent's questions, approve actions, review answers; start and read runs. */
  public static final String REVIEWERS = "agent-reviewers";

  /** Everything reviewers do, plus Cockpit and every run and task. */
  public static final String OPERATORS = "agent-operators";

  /**
   * Remote workers that serve tool topics over the engine REST API: fetch-and-lock, complete, fail,
   * raise a caught BPMN error, extend or release locks of external tasks of tool topics
   * ({@code agentloop.tool.*}), nothing else (see AgentLoop's gate of {@code /engine-rest}); a member is only a worker,
   * whatever other groups it is in.
   */
  public static final String WORKERS = "agent-workers";

  /**
   * Analysts who build agents in Modeler: deploy diagrams that are agents (through {@code /engine-rest}, as
   * Modeler deploys), start runs of agents and read them, in Cockpit too; nothing else. A deployment of theirs
   * that holds a process which is no agent is refused .
   */
  public static final String ANALYSTS = "agent-analysts";

  private AgentLoopGroups() {}
}
