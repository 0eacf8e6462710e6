package dev.agentloop.internal.review;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.Router;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval.Decision;
import dev.agentloop.internal.trace.step.Approval;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code approveAction}: the turn's tool calls that need approval, call n as {@code tooln},
 * {@code argumentsn} (editable JSON), {@code decisionn} and {@code reasonn}. Per call: approve,
 * edit the arguments (checked against the tool's schema before anything continues) or reject with
 * a reason. The decisions become one step by the approver. The form has {@value #FORM_CALLS}
 * calls; should a turn have more that need approval, the rest is rejected with a reason the model
 * understands, never run unapproved.
 *
 * <p>The form also shows the steps that led to the calls ({@code steps}) and, only when some of the
 * calls are of tools that declare side effects, which ({@code sideEffects}). Arguments changed while
 * the decision is <i>approve</i> are refused with a message, not run and not dropped: approving runs
 * the call exactly as the model made it, and only <i>edit</i> runs a person's arguments, so the trace
 * always says which of the two happened. No decision is chosen in advance: each call needs one.
 */
class ActionApproval implements Review {

  private static final ObjectMapper JSON = new ObjectMapper();
  static final int FORM_CALLS = 5;
  private static final int LAST_STEPS = 12;

  private final CallsForPeople calls;
  private final Router router;
  private final AgentDefinitions definitions;
  private final ToolRegistry tools;

  ActionApproval(CallsForPeople calls, Router router, AgentDefinitions definitions, ToolRegistry tools) {
    this.calls = calls;
    this.router = router;
    this.definitions = definitions;
    this.tools = tools;
  }

  @Override
  public void prepare(ReviewTask task, RunState run) {
    List<Action> waiting = waiting(task, run);
    for (int n = 1; n <= Math.min(waiting.size(), FORM_CALLS); n++) {
      Action action = waiting.get(n - 1);
      task.put("tool" + n, action.tool());
      task.put("arguments" + n, action.arguments().toPrettyString());
      task.put("decision" + n, null);
      task.put("reason" + n, "");
    }
    List<String> changing = waiting.stream().map(Action::tool).distinct()
        .filter(tool -> tools.find(tool).map(AgentTool::sideEffects).orElse(false)).toList();
    task.put("sideEffects", changing.isEmpty() ? ""
        : "Calls of " + String.join(", ", changing) + " change something outside AgentLoop.");
    List<Step> path = run.activePath();
    task.putShown("steps", PathText.lines(path.subList(Math.max(0, path.size() - LAST_STEPS), path.size())), true);
  }

  @Override
  public Decided decide(ReviewTask task, RunState run) {
    List<Approval> decisions = new ArrayList<>();
    List<String> summary = new ArrayList<>();
    List<Action> waiting = waiting(task, run);
    for (int n = 1; n <= waiting.size(); n++) {
      Action action = waiting.get(n - 1);
      Approval approval = n <= FORM_CALLS ? approval(action, task, n)
          : new Approval(action.callId(), Decision.REJECT, null, "a person approves at most " + FORM_CALLS
              + " calls at a time; call it again in a later turn", task.actor());
      decisions.add(approval);
      summary.add(approval.decision().value() + " " + action.tool()
          + (approval.reason() == null || approval.reason().isBlank() ? "" : ": " + approval.reason()));
    }
    calls.write(run, Steps.approvals(decisions, String.join("; ", summary), task.actor()));
    return null;
  }

  private Approval approval(Action action, ReviewTask task, int n) {
    String choices = Arrays.stream(Decision.values()).map(Decision::value).collect(Collectors.joining(", "));
    Decision decision = Decision.of(task.text("decision" + n)).orElseThrow(() -> new ReviewException(
        task.text("decision" + n).isEmpty() ? "choose a decision for call " + n + " (" + action.tool() + ", decision" + n
            + "): one of " + choices
            : "'" + task.text("decision" + n) + "' is not a decision for " + action.tool() + "; choose one of " + choices));
    String reason = task.text("reason" + n);
    String actor = task.actor();
    if (decision == Decision.REJECT) {
      return new Approval(action.callId(), Decision.REJECT, null, reason, actor);
    }
    if (decision == Decision.APPROVE && changed(action, task.text("arguments" + n))) {
      throw new ReviewException("you changed the arguments of " + action.tool() + " (call " + n + ") but chose"
          + " approve, which runs the call as the model made it: choose 'Run with my edited arguments' (edit) to run"
          + " yours, or undo the change");
    }
    JsonNode arguments = decision == Decision.EDIT ? editedArguments(action, task.text("arguments" + n))
        : action.arguments();
    return arguments.equals(action.arguments())
        ? new Approval(action.callId(), Decision.APPROVE, null, reason, actor)
        : new Approval(action.callId(), Decision.EDIT, arguments, reason, actor);
  }

  /** Whether the arguments field says something else than the model's call; layout does not count. */
  private static boolean changed(Action action, String text) {
    try {
      return !action.arguments().equals(JSON.readTree(text));
    } catch (Exception e) {
      return true;
    }
  }

  private JsonNode editedArguments(Action action, String text) {
    JsonNode arguments;
    try {
      arguments = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ReviewException("the arguments of " + action.tool() + " are " + notValidJson(e));
    }
    tools.refusal(action.tool(), arguments, null).ifPresent(refusal -> {
      throw new ReviewException(refusal.message());
    });
    return arguments;
  }

  /**
   * "not valid JSON at line 1, column 3: unexpected character ('t') …": where and what, without
   * Jackson's source description and character codes, which mean nothing to a reviewer.
   */
  static String notValidJson(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String what = String.valueOf(e.getOriginalMessage()).replaceAll(" \\(code -?\\d+\\)", "").strip();
    return "not valid JSON" + (at == null || at.getLineNr() < 1 ? ""
        : " at line " + at.getLineNr() + ", column " + at.getColumnNr()) + ": "
        + (what.isEmpty() ? what : Character.toLowerCase(what.charAt(0)) + what.substring(1));
  }

  /** The calls that need approval; the turn's other calls run without asking. */
  private List<Action> waiting(ReviewTask task, RunState run) {
    AgentSettings settings = definitions.settings(task.processDefinitionId());
    return calls.of(run).stream().filter(action -> router.needsApproval(action, settings)).toList();
  }
}
