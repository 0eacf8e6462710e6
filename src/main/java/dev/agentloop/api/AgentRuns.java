package dev.agentloop.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Starts agent runs and tells how they stand: what an application that embeds AgentLoop calls (autowire it), the
 * same service that AgentLoop's REST API uses. Who may start or read a run is checked as for any caller. Thread-safe.
 */
public interface AgentRuns {

  /**
   * Starts a run of the latest version of an agent.
   *
   * @param agentKey the agent's process key, e.g. {@code react-agent}
   * @param question what the agent should answer
   * @return the run id, which is the process instance id
   * @throws UnknownAgentException when no agent with that key is deployed
   */
  String start(String agentKey, String question);

  /**
   * Starts a run whose final answer must be a JSON object matching {@code answerSchema}, instead of the agent's own
   * answer schema (or its text answer): the run's view then has the answer's fields ({@link RunView#answerData()}).
   *
   * @param answerSchema a JSON Schema (draft 2020-12) of {@code "type": "object"} with {@code properties};
   *     {@code null}: the agent's own
   * @throws IllegalArgumentException when {@code answerSchema} is no such schema, saying why; nothing is started
   * @throws UnknownAgentException when no agent with that key is deployed
   */
  String startWithAnswerSchema(String agentKey, String question, JsonNode answerSchema);

  /**
   * How a run stands now.
   *
   * @throws UnknownRunException when there is no run with that id
   */
  RunView view(String runId);

  /** The most recent runs of an agent, newest first; only those that ended when {@code finished}. */
  List<RunView> recent(String agentKey, boolean finished, int limit);

  /**
   * The keys of all deployed agents, sorted. Whoever asks sees them all: a user who may not start an agent is told
   * so when trying, rather than that it does not exist.
   */
  List<String> deployedAgents();
}
