package dev.agentloop.internal.trace.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * An ACTION step: a tool call the model (or a person, retrying it) asked for.
 *
 * @param arguments the arguments object, or {@code null} when the model's arguments were no JSON object
 * @param rawArguments what the model wrote when it was no JSON object, else {@code null}
 * @param repeats the superseded observation of the same side-effecting tool when this call would
 *     repeat what already happened on an abandoned branch, else {@code null}: such a call always
 *     waits for a person's approval
 */
public record Action(String callId, String tool, JsonNode arguments, String rawArguments, Integer repeats)
    implements StepContent {

  public Action {
    callId = StepContent.orEmpty(callId);
    tool = StepContent.orEmpty(tool);
  }

  public Action(String callId, String tool, JsonNode arguments, String rawArguments) {
    this(callId, tool, arguments, rawArguments, null);
  }


  @Override
  public StepKind kind() {
    return StepKind.ACTION;
  }

  public boolean hasValidArguments() {
    return arguments != null && arguments.isObject();
  }

  /** The arguments as the model should see them again: the object, or exactly what it wrote. */
  public String argumentsText() {
    return hasValidArguments() ? arguments.toString() : rawArguments == null ? "" : rawArguments;
  }

  /** The arguments object, or what the model wrote as a JSON string: for checks that report it. */
  public JsonNode argumentsAsWritten() {
    return hasValidArguments() ? arguments : TextNode.valueOf(argumentsText());
  }

  /** This call, marked as repeating the side effect observed at {@code observationStep}. */
  public Action repeating(int observationStep) {
    return new Action(callId, tool, arguments, rawArguments, observationStep);
  }

  /**
   * This call with other arguments (a person's edit) and no mark: what runs. Arguments that are no
   * JSON object are kept as written, for the check that refuses them to quote.
   */
  public Action withArguments(JsonNode newArguments) {
    if (newArguments == null || newArguments.isObject()) {
      return new Action(callId, tool, newArguments, null);
    }
    return new Action(callId, tool, null, newArguments.isTextual() ? newArguments.asText() : newArguments.toString());
  }
}
