package dev.agentloop.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentloop.agent.Action;
import dev.agentloop.agent.AgentDefinitions;
import dev.agentloop.agent.AgentSettings;
import dev.agentloop.agent.Approval;
import dev.agentloop.agent.Approval.Decision;
import dev.agentloop.agent.Router;
import dev.agentloop.agent.Steps;
import dev.agentloop.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code approveAction}: the turn's tool calls that need approval, each with its arguments as
 * editable JSON. Per call: approve, edit the arguments (checked against the tool's schema before
 * anything continues) or reject with a reason. The decisions become one step by the approver.
 */
class ActionApproval implements Review {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DECISIONS = List.of("approve", "edit", "reject");

  private final PendingCalls calls;
  private final Router router;
  private final AgentDefinitions definitions;
  private final ToolRegistry tools;

  ActionApproval(PendingCalls calls, Router router, AgentDefinitions definitions, ToolRegistry tools) {
    this.calls = calls;
    this.router = router;
    this.definitions = definitions;
    this.tools = tools;
  }

  @Override
  public void prepare(ReviewTask task) {
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    for (Action action : waiting(task)) {
      list.addObject().put("callId", action.callId()).put("tool", action.tool())
          .put("arguments", action.arguments().toPrettyString()).put("decision", "approve").put("reason", "");
    }
    task.putJson("calls", list);
  }

  @Override
  public String decide(ReviewTask task) {
    Map<String, JsonNode> submitted = new HashMap<>();
    task.json("calls").forEach(item -> submitted.put(item.path("callId").asText(), item));
    List<Approval> decisions = new ArrayList<>();
    List<String> summary = new ArrayList<>();
    for (Action action : waiting(task)) {
      JsonNode item = submitted.get(action.callId());
      if (item == null) {
        throw new ReviewException("decide on every call; missing: " + action.tool() + " (" + action.callId() + ")");
      }
      Approval approval = approval(action, item, task.actor());
      decisions.add(approval);
      summary.add(approval.decision().value() + " " + action.tool()
          + (approval.reason() == null || approval.reason().isBlank() ? "" : ": " + approval.reason()));
    }
    calls.write(task.runId(), Steps.approvals(decisions, String.join("; ", summary), task.actor()));
    return null;
  }

  private Approval approval(Action action, JsonNode item, String actor) {
    String decision = item.path("decision").asText("").strip().toLowerCase(Locale.ROOT);
    if (!DECISIONS.contains(decision)) {
      throw new ReviewException("'" + item.path("decision").asText("") + "' is not a decision for " + action.tool()
          + "; choose one of " + String.join(", ", DECISIONS));
    }
    String reason = item.path("reason").asText("").strip();
    if (decision.equals("reject")) {
      return new Approval(action.callId(), Decision.REJECT, null, reason, actor);
    }
    JsonNode arguments = decision.equals("edit") ? editedArguments(action, item) : action.arguments();
    return arguments.equals(action.arguments())
        ? new Approval(action.callId(), Decision.APPROVE, null, reason, actor)
        : new Approval(action.callId(), Decision.EDIT, arguments, reason, actor);
  }

  private JsonNode editedArguments(Action action, JsonNode item) {
    JsonNode arguments;
    try {
      arguments = JSON.readTree(item.path("arguments").asText(""));
    } catch (Exception e) {
      throw new ReviewException("the arguments of " + action.tool() + " are not valid JSON: " + e.getMessage());
    }
    if (arguments == null || !arguments.isObject()) {
      throw new ReviewException("the arguments of " + action.tool() + " must be a JSON object");
    }
    List<String> violations = tools.violations(action.tool(), arguments);
    if (!violations.isEmpty()) {
      throw new ReviewException("the arguments of " + action.tool() + " do not match its schema: "
          + String.join("; ", violations));
    }
    return arguments;
  }

  /** The calls that need approval; the turn's other calls run without asking. */
  private List<Action> waiting(ReviewTask task) {
    AgentSettings settings = definitions.settings(task.processDefinitionId());
    return calls.of(task.runId()).stream().filter(action -> router.needsApproval(action, settings)).toList();
  }
}
