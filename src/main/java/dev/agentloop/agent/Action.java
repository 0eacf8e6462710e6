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
 */
public record Action(String callId, String tool, JsonNode arguments, String rawArguments) {

  public static Action from(Step step) {
    if (step.kind() != StepKind.ACTION) {
      throw new IllegalArgumentException("step " + step.stepNo() + " is a " + step.kind() + ", not an ACTION");
    }
    JsonNode arguments = step.content().get("arguments");
    return new Action(step.text("callId"), step.text("tool"), arguments,
        step.content().has("rawArguments") ? step.text("rawArguments") : null);
  }

  public boolean hasValidArguments() {
    return arguments != null && arguments.isObject();
  }

  /** The arguments as the model should see them again: the object, or exactly what it wrote. */
  public String argumentsText() {
    return hasValidArguments() ? arguments.toString() : rawArguments == null ? "" : rawArguments;
  }

  JsonNode toContent() {
    ObjectNode content = JsonNodeFactory.instance.objectNode().put("callId", callId).put("tool", tool);
    if (hasValidArguments()) {
      content.set("arguments", arguments);
    } else {
      content.put("rawArguments", rawArguments == null ? "" : rawArguments);
    }
    return content;
  }
}
