package dev.agentloop.internal.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricVariableInstance;

/**
 * What the answer-schema tests of every wire share: the triage schema, an agent that answers by it (plans and
 * answers accepted without review, so that a run ends with its fields), a fake's replies queued per run by a
 * marker in the run's question (the tests of a class share one fake), and the run's outcome and variables.
 */
public final class AnswerSchemaRuns {

  /** Strict-compatible: every object closed, every property required, only strict mode's keywords. */
  public static final String SCHEMA = """
      {"type": "object", "properties": {
        "category": {"type": "string", "enum": ["refund", "delivery", "defect", "other"]},
        "priority": {"type": "string", "enum": ["urgent", "normal", "low"]},
        "days": {"type": "integer", "description": "working days until the customer hears back"},
        "reply": {"type": "string"}},
       "required": ["category", "priority", "days", "reply"], "additionalProperties": false}
      """;
  /** A valid answer's JSON. */
  public static final String VALID = "{\"category\": \"defect\", \"priority\": \"urgent\", \"days\": 2,"
      + " \"reply\": \"We are sorry.\"}";

  private final Map<String, Deque<Object>> replies = new ConcurrentHashMap<>();

  /** Deploys an agent with the triage schema (2 repairs), answers accepted automatically. */
  public static void deploy(ProcessEngine engine, String key) {
    TestAgent.deployVariant(engine, key, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.ANSWER_SCHEMA, SCHEMA));
  }

  /** Queues a run's replies, the plan's first, for requests whose body holds {@code marker}. */
  public void queue(String marker, Object... inOrder) {
    replies.put(marker, new ArrayDeque<>(List.of(inOrder)));
  }

  /** The next reply for a request, by the marker its body holds; {@code null} when none is queued. */
  @SuppressWarnings("unchecked")
  public <T> T next(String body) {
    for (Map.Entry<String, Deque<Object>> queued : replies.entrySet()) {
      if (body.contains(queued.getKey())) {
        return (T) queued.getValue().poll();
      }
    }
    return null;
  }

  public static JsonNode json(String text) {
    return ModelCalls.json(text);
  }

  /** Waits until the run has ended or waits for a person. */
  public static RunView settled(RunService runs, String run) {
    return Runs.awaitView(runs, run, view -> view.status() == RunStatus.ANSWERED
        || view.waitingFor().contains(ReactAgentProcess.AGENT_STUCK));
  }

  /** A variable of the run, as its history keeps it (the run may have ended). */
  public static Object variable(ProcessEngine engine, String run, String name) {
    HistoricVariableInstance variable = engine.getHistoryService().createHistoricVariableInstanceQuery()
        .processInstanceId(run).variableName(name).singleResult();
    return variable == null ? null : variable.getValue();
  }

  /** Why the run left its loop, as the agentStuck task shows it. */
  public static String escapeReason(ProcessEngine engine, String run) {
    return (String) engine.getRuntimeService().getVariable(run, ReactAgentProcess.ESCAPE_REASON.name());
  }

}
