package dev.agentloop.internal.resume;

import static dev.agentloop.ApiClient.JSON;
import static dev.agentloop.ApiClient.body;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.BaseElement;
import org.camunda.bpm.model.bpmn.instance.FlowNode;
import org.camunda.bpm.model.bpmn.instance.SequenceFlow;
import org.camunda.bpm.model.bpmn.instance.bpmndi.BpmnEdge;
import org.camunda.bpm.model.bpmn.instance.bpmndi.BpmnShape;

/**
 * What the migration tests share: the agents they deploy, the request a person sends, the decisions that moved a
 * run as its trace shows them, and a diagram with elements taken out (a version without the run's wait).
 */
final class MigrationCalls {

  private MigrationCalls() {}

  /** Deploys a version of the agent: the answer reviewed, the plan not, no conversation, every tool, unless said. */
  static void deploy(ProcessEngine engine, String key, Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "false",
        AgentSettings.CONVERSATION, "false"));
    all.putAll(settings);
    TestAgent.deployVariant(engine, key, all);
  }

  /** {@code POST /api/agents/{key}/migrations}'s body: these runs to that version, for a better prompt. */
  static ObjectNode migration(int toVersion, String... runIds) {
    ObjectNode request = JSON.createObjectNode().put("toVersion", toVersion).put("reason", "a better prompt");
    var array = request.putArray("runs");
    for (String run : runIds) {
      array.add(run);
    }
    return request;
  }

  /** The migration's report, asked as the user. */
  static JsonNode migrate(ApiClient user, String key, ObjectNode request) {
    return body(user.post("/api/agents/" + key + "/migrations", request.toString()), 200);
  }

  /** The run's decisions that moved it, as the user reads its trace. */
  static List<JsonNode> migrations(ApiClient user, String run) {
    List<JsonNode> moves = new ArrayList<>();
    body(user.get("/api/runs/" + run + "/trace?branches=all"), 200).get("decisions").forEach(decision -> {
      if (decision.get("decision").asText().equals("migrate")) {
        moves.add(decision);
      }
    });
    return moves;
  }

  /** Removes elements from a diagram with their sequence flows and their shapes. */
  static void remove(BpmnModelInstance model, String... ids) {
    for (String id : ids) {
      FlowNode node = model.getModelElementById(id);
      List<SequenceFlow> flows = new ArrayList<>(node.getIncoming());
      flows.addAll(node.getOutgoing());
      for (SequenceFlow flow : flows) {
        flow.getSource().getOutgoing().remove(flow);
        flow.getTarget().getIncoming().remove(flow);
        removeWithShape(model, flow);
      }
      removeWithShape(model, node);
    }
  }

  private static void removeWithShape(BpmnModelInstance model, BaseElement element) {
    model.getModelElementsByType(BpmnShape.class).stream().filter(shape -> shape.getBpmnElement() == element)
        .toList().forEach(shape -> shape.getParentElement().removeChildElement(shape));
    model.getModelElementsByType(BpmnEdge.class).stream().filter(edge -> edge.getBpmnElement() == element)
        .toList().forEach(edge -> edge.getParentElement().removeChildElement(edge));
    if (element.getParentElement() != null) {
      element.getParentElement().removeChildElement(element);
    }
  }
}
