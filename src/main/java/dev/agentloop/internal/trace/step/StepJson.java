package dev.agentloop.internal.trace.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one mapping of {@link StepContent} to and from JSON, the form the store keeps and the REST API
 * shows:
 * <ul>
 *   <li>{@code PLAN}: {@code {"steps": ["..."]}}</li>
 *   <li>{@code THOUGHT}, {@code FINAL_ANSWER}, {@code HUMAN_INPUT}: {@code {"text": "..."}}; a final answer of an
 *       agent with an answer schema adds its fields, {@code "data": {...}}</li>
 *   <li>{@code ACTION}: {@code {"callId", "tool", "arguments": {...}}}, or {@code "rawArguments"} when the
 *       model's arguments were not a JSON object; {@code "repeats": n} when the call would repeat the
 *       side effect observed at step n of an abandoned branch</li>
 *   <li>{@code OBSERVATION}: {@code {"callId", "tool", "result"}} or {@code {..., "error"}}, with
 *       {@code "failure"} naming the kind of failure where known, {@code "worker"} when a remote
 *       worker ran the tool and {@code "childRun"} when another agent's run answered it; a reply the model got wrong as a whole is observed as {@code {"error"}} alone</li>
 *   <li>approvals, a {@code HUMAN_INPUT}: {@code {"text", "approvals": [{"callId", "decision",
 *       "arguments"?, "reason"?}]}}</li>
 *   <li>a follow-up question, a {@code HUMAN_INPUT}: {@code {"text", "followUp": true}}</li>
 * </ul>
 * Plans, thoughts and final answers of a reasoning model add {@code "reasoning"}; those a model wrote add
 * {@code "stopReason"}, why it stopped writing as its provider said it. Reading is lenient
 * (a missing text is empty), as steps written by older versions must still be read.
 */
public final class StepJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final String TEXT = "text";
  private static final String REASONING = "reasoning";
  private static final String STOP_REASON = "stopReason";
  private static final String DATA = "data";
  static final String STEPS = "steps";
  private static final String CALL_ID = "callId";
  static final String TOOL = "tool";
  static final String ARGUMENTS = "arguments";
  static final String RAW_ARGUMENTS = "rawArguments";
  private static final String REPEATS = "repeats";
  static final String RESULT = "result";
  static final String ERROR = "error";
  private static final String FAILURE = "failure";
  private static final String WORKER = "worker";
  static final String CHILD_RUN = "childRun";
  private static final String APPROVALS = "approvals";
  private static final String DECISION = "decision";
  private static final String REASON = "reason";
  /** Marks the HUMAN_INPUT that opens a turn of a conversation; also what the step store looks for. */
  public static final String FOLLOW_UP = "followUp";

  private StepJson() {}

  public static JsonNode write(StepContent content) {
    if (content instanceof Plan plan) {
      ArrayNode steps = NODES.arrayNode();
      plan.steps().forEach(steps::add);
      ObjectNode json = NODES.objectNode();
      json.set(STEPS, steps);
      return withModelFields(json, plan.reasoning(), plan.stopReason());
    }
    if (content instanceof Thought thought) {
      return withModelFields(text(thought.text()), thought.reasoning(), thought.stopReason());
    }
    if (content instanceof FinalAnswer answer) {
      ObjectNode json = withModelFields(text(answer.text()), answer.reasoning(), answer.stopReason());
      return answer.hasData() ? json.set(DATA, answer.data()) : json;
    }
    if (content instanceof HumanInput input) {
      return text(input.text());
    }
    if (content instanceof FollowUp question) {
      return text(question.text()).put(FOLLOW_UP, true);
    }
    if (content instanceof Approvals approvals) {
      ArrayNode list = NODES.arrayNode();
      approvals.approvals().forEach(approval -> list.add(approval(approval)));
      ObjectNode json = text(approvals.text());
      json.set(APPROVALS, list);
      return json;
    }
    if (content instanceof Action action) {
      return action(action);
    }
    return observation((Observation) content);
  }

  public static StepContent read(StepKind kind, JsonNode json) {
    return switch (kind) {
      case PLAN -> new Plan(strings(json.path(STEPS)), text(json, REASONING), text(json, STOP_REASON));
      case THOUGHT -> new Thought(text(json, TEXT), text(json, REASONING), text(json, STOP_REASON));
      case FINAL_ANSWER -> new FinalAnswer(text(json, TEXT), text(json, REASONING), text(json, STOP_REASON),
          json.path(DATA).isObject() ? json.get(DATA) : null);
      case HUMAN_INPUT -> json.has(APPROVALS) ? approvals(json)
          : json.path(FOLLOW_UP).asBoolean(false) ? new FollowUp(text(json, TEXT)) : new HumanInput(text(json, TEXT));
      case ACTION -> new Action(text(json, CALL_ID), text(json, TOOL), json.get(ARGUMENTS),
          json.has(RAW_ARGUMENTS) ? text(json, RAW_ARGUMENTS) : null,
          json.has(REPEATS) && json.get(REPEATS).canConvertToInt() ? json.get(REPEATS).asInt() : null);
      case OBSERVATION -> new Observation(optional(json, CALL_ID), optional(json, TOOL), optional(json, RESULT),
          optional(json, ERROR), optional(json, FAILURE), optional(json, WORKER), optional(json, CHILD_RUN));
    };
  }

  private static ObjectNode action(Action action) {
    ObjectNode json = NODES.objectNode().put(CALL_ID, action.callId()).put(TOOL, action.tool());
    if (action.hasValidArguments()) {
      json.set(ARGUMENTS, action.arguments());
    } else {
      json.put(RAW_ARGUMENTS, action.rawArguments() == null ? "" : action.rawArguments());
    }
    if (action.repeats() != null) {
      json.put(REPEATS, action.repeats());
    }
    return json;
  }

  private static ObjectNode observation(Observation observation) {
    ObjectNode json = NODES.objectNode();
    if (observation.callId() != null) {
      json.put(CALL_ID, observation.callId()).put(TOOL, observation.tool());
    }
    if (observation.failure() != null) {
      json.put(FAILURE, observation.failure());
    }
    if (observation.isError()) {
      json.put(ERROR, observation.error());
    } else {
      json.put(RESULT, observation.result());
    }
    if (observation.worker() != null) {
      json.put(WORKER, observation.worker());
    }
    if (observation.childRun() != null) {
      json.put(CHILD_RUN, observation.childRun());
    }
    return json;
  }

  private static ObjectNode approval(Approval approval) {
    ObjectNode json = NODES.objectNode().put(CALL_ID, approval.callId()).put(DECISION, approval.decision().value());
    if (approval.arguments() != null) {
      json.set(ARGUMENTS, approval.arguments());
    }
    if (approval.reason() != null) {
      json.put(REASON, approval.reason());
    }
    return json;
  }

  private static Approvals approvals(JsonNode json) {
    List<Approval> approvals = new ArrayList<>();
    json.path(APPROVALS).forEach(item -> {
      JsonNode arguments = item.get(ARGUMENTS);
      approvals.add(new Approval(text(item, CALL_ID),
          Approval.Decision.valueOf(text(item, DECISION).toUpperCase(Locale.ROOT)),
          arguments == null || arguments.isNull() ? null : arguments,
          item.hasNonNull(REASON) ? item.get(REASON).asText() : null, null));
    });
    return new Approvals(text(json, TEXT), approvals);
  }

  private static ObjectNode withModelFields(ObjectNode json, String reasoning, String stopReason) {
    if (!reasoning.isEmpty()) {
      json.put(REASONING, reasoning);
    }
    return stopReason.isEmpty() ? json : json.put(STOP_REASON, stopReason);
  }

  private static ObjectNode text(String text) {
    return NODES.objectNode().put(TEXT, text);
  }

  /** A text field, or "" when absent or null. */
  static String text(JsonNode json, String field) {
    JsonNode value = json.get(field);
    return value == null || value.isNull() ? "" : value.asText();
  }

  /** A text field, or {@code null} when absent. */
  private static String optional(JsonNode json, String field) {
    return json.has(field) ? text(json, field) : null;
  }

  private static List<String> strings(JsonNode array) {
    List<String> strings = new ArrayList<>();
    array.forEach(item -> strings.add(item.asText()));
    return strings;
  }
}
