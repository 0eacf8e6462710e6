package dev.agentloop.internal.tool.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.tool.RemoteInput;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import java.util.ArrayList;
import java.util.List;

/**
 * What a remote agent said about a task, read strictly from its answer: an id and a state it must give, the
 * words of its status message and the text of its artifacts. A reply that is a message and no task (the
 * agent answered at once) counts as a completed task without an id. A task that waits for input its callers may
 * not give (an AgentLoop agent waiting for its reviewers says so: {@code callersMayAnswer: false}) counts as working.
 * Immutable.
 *
 * @param id the task's id; empty for an answer that was a message
 * @param contextId its context, or empty
 * @param text for a completed task its artifacts' text (else its status message's), otherwise its status message
 */
record RemoteTask(String id, String contextId, TaskState state, String text) {

  /** Whether the call is over: the task ended, or waits for input or authentication. */
  boolean ended() {
    return state.terminal() || state.interrupted();
  }

  /** The task (or message) of a {@code SendMessage} result. */
  static RemoteTask ofSendResult(JsonNode result, String agent) throws A2aPeerException {
    if (result.path("task").isObject()) {
      return of(result.get("task"), agent);
    }
    if (result.path("message").isObject()) {
      JsonNode message = result.get("message");
      return new RemoteTask("", text(message.path("contextId")), TaskState.COMPLETED, parts(message.path("parts")));
    }
    throw new A2aPeerException("remote agent '" + agent + "' answered SendMessage with neither a task nor a message");
  }

  /** A task object ({@code GetTask}, {@code CancelTask}, or inside a {@code SendMessage} result). */
  static RemoteTask of(JsonNode task, String agent) throws A2aPeerException {
    String id = text(task.path("id"));
    String context = text(task.path("contextId"));
    if (!RemoteInput.ID.matcher(id).matches() || !context.isEmpty() && !RemoteInput.ID.matcher(context).matches()) {
      throw new A2aPeerException("remote agent '" + agent + "' answered with a task whose id or contextId is missing"
          + " or not an id (letters, digits and ._:~@/+=- only, at most 200)");
    }
    String wire = text(task.path("status").path("state"));
    TaskState state = TaskState.fromWire(wire).orElseThrow(() -> new A2aPeerException("remote agent '" + agent
        + "' answered with task state '" + abbreviate(wire) + "', which A2A " + A2aProtocol.VERSION + " does not know"));
    String status = parts(task.path("status").path("message").path("parts"));
    if (state == TaskState.INPUT_REQUIRED
        && task.path("status").path("message").path("metadata").path("callersMayAnswer").isBoolean()
        && !task.path("status").path("message").path("metadata").path("callersMayAnswer").asBoolean()) {
      // an AgentLoop agent waiting for its own people: nothing to ask here, it goes on when they have decided
      return new RemoteTask(id, context, TaskState.WORKING, status);
    }
    if (state != TaskState.COMPLETED) {
      return new RemoteTask(id, context, state, status);
    }
    List<String> artifacts = new ArrayList<>();
    task.path("artifacts").forEach(artifact -> {
      String text = parts(artifact.path("parts"));
      if (!text.isEmpty()) {
        artifacts.add(text);
      }
    });
    return new RemoteTask(id, context, state, artifacts.isEmpty() ? status : String.join("\n\n", artifacts));
  }

  /** The parts as text: text as it is, data as JSON, files by their name or URL (their bytes are not read). */
  static String parts(JsonNode parts) {
    List<String> texts = new ArrayList<>();
    parts.forEach(part -> {
      if (part.path("text").isTextual()) {
        texts.add(part.get("text").asText());
      } else if (part.has("data")) {
        texts.add(part.get("data").toString());
      } else if (part.path("url").isTextual()) {
        texts.add("[file " + part.get("url").asText() + "]");
      } else if (part.has("raw")) {
        texts.add("[file " + text(part.path("filename")) + " (" + text(part.path("mediaType")) + "), not read]");
      }
    });
    return String.join("\n", texts).strip();
  }

  private static String text(JsonNode node) {
    return node.isTextual() ? node.asText() : "";
  }

  private static String abbreviate(String text) {
    return text.length() <= 60 ? text : text.substring(0, 60) + "…";
  }
}
