package dev.agentloop.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.trace.Step;

/**
 * What came back for a tool call (callId set), or a note that the model's whole reply could not be
 * used (callId {@code null}), as stored in an OBSERVATION step. Exactly one of result and error is set.
 */
public record Observation(String callId, String tool, String result, String error) {

  public static Observation result(Action action, String result) {
    return new Observation(action.callId(), action.tool(), result, null);
  }

  public static Observation error(Action action, String error) {
    return new Observation(action.callId(), action.tool(), null, error);
  }

  public static Observation replyError(String error) {
    return new Observation(null, null, null, error);
  }

  public static Observation from(Step step) {
    JsonNode content = step.content();
    return new Observation(
        content.has("callId") ? step.text("callId") : null,
        content.has("tool") ? step.text("tool") : null,
        content.has("result") ? step.text("result") : null,
        content.has("error") ? step.text("error") : null);
  }

  public boolean isError() {
    return error != null;
  }

  /** The text the model reads. */
  public String text() {
    return isError() ? "ERROR: " + error : result;
  }

  JsonNode toContent() {
    ObjectNode content = JsonNodeFactory.instance.objectNode();
    if (callId != null) {
      content.put("callId", callId).put("tool", tool);
    }
    return isError() ? content.put("error", error) : content.put("result", result);
  }
}
