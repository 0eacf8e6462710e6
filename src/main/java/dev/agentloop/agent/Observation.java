package dev.agentloop.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.trace.Step;
import java.util.Locale;

/**
 * What came back for a tool call (callId set), or a note that the model's whole reply could not be
 * used (callId {@code null}), as stored in an OBSERVATION step. Exactly one of result and error is set.
 *
 * @param failure for an error: what kind of failure, e.g. {@code unavailable} (the tool's circuit
 *     breaker is open), {@code timed_out}, {@code failed}, {@code not_run}; {@code null} when not known
 */
public record Observation(String callId, String tool, String result, String error, String failure) {

  /** A call that was not run because the run left its loop (escape, stop, time-out). */
  public static final String NOT_RUN = "not_run";
  /** A call of a tool the model was not offered that turn (its final-answer turn), refused unrun. */
  public static final String NOT_OFFERED = "not_offered";
  /** A call refused because the tool's circuit breaker is open. */
  public static final String UNAVAILABLE = "unavailable";

  public Observation(String callId, String tool, String result, String error) {
    this(callId, tool, result, error, null);
  }

  public static Observation result(Action action, String result) {
    return new Observation(action.callId(), action.tool(), result, null);
  }

  public static Observation error(Action action, String error) {
    return new Observation(action.callId(), action.tool(), null, error);
  }

  /** @param failure a kind of failure such as {@link #UNAVAILABLE}, or an enum whose name is one */
  public static Observation error(Action action, String error, Object failure) {
    return new Observation(action.callId(), action.tool(), null, error,
        failure == null ? null : failure.toString().toLowerCase(Locale.ROOT));
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
        content.has("error") ? step.text("error") : null,
        content.has("failure") ? step.text("failure") : null);
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
    if (failure != null) {
      content.put("failure", failure);
    }
    return isError() ? content.put("error", error) : content.put("result", result);
  }
}
