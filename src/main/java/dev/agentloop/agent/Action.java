package dev.agentloop.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;

/**
 * A tool call the model asked for, as stored in an ACTION step.
 *
 * @param arguments the arguments object, or {@code null} when the model's arguments were no JSON object
 * @param rawArguments what the model wrote when it was no JSON object, else {@code null}
 * @param repeats the superseded observation of the same side-effecting tool when this call would
 *     repeat what already happened on an abandoned branch, else {@code null}: such a call always
 *     waits for a person's approval
 */
public record Action(String callId, String tool, JsonNode arguments, String rawArguments, Integer repeats) {

  public Action(String callId, String tool, JsonNode arguments, String rawArguments) {
    this(callId, tool, arguments, rawArguments, null);
  }

  public static Action from(Step step) {
    if (step.kind() != StepKind.ACTION) {
      throw new IllegalArgumentException("step " + step.stepNo() + " is a " + step.kind() + ", not an ACTION");
    }
    return fromContent(step.content());
  }

  /** The call an ACTION step's content stands for. */
  public static Action fromContent(JsonNode content) {
    JsonNode repeats = content.get("repeats");
    return new Action(content.path("callId").asText(), content.path("tool").asText(), content.get("arguments"),
        content.has("rawArguments") ? content.path("rawArguments").asText() : null,
        repeats == null || !repeats.canConvertToInt() ? null : repeats.asInt());
  }

  public boolean hasValidArguments() {
    return arguments != null && arguments.isObject();
  }

  /** The arguments as the model should see them again: the object, or exactly what it wrote. */
  public String argumentsText() {
    return hasValidArguments() ? arguments.toString() : rawArguments == null ? "" : rawArguments;
  }

  /** This call, marked as repeating the side effect observed at {@code observationStep}. */
  public Action repeating(int observationStep) {
    return new Action(callId, tool, arguments, rawArguments, observationStep);
  }

  public JsonNode toContent() {
    ObjectNode content = JsonNodeFactory.instance.objectNode().put("callId", callId).put("tool", tool);
    if (hasValidArguments()) {
      content.set("arguments", arguments);
    } else {
      content.put("rawArguments", rawArguments == null ? "" : rawArguments);
    }
    if (repeats != null) {
      content.put("repeats", repeats);
    }
    return content;
  }
}
