package dev.agentloop.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Objects;

/**
 * A person's decision on one tool call that needed approval, kept in a HUMAN_INPUT step of the
 * turn: {@code {"approvals": [{"callId", "decision", "arguments"?, "reason"?}]}}.
 *
 * @param arguments the edited arguments when the decision is EDIT, else {@code null}
 * @param decidedBy who decided (the author of the step it is kept in); not part of its JSON
 */
public record Approval(String callId, Decision decision, JsonNode arguments, String reason, String decidedBy) {

  /** What a person decided about a tool call. */
  public enum Decision {
    APPROVE, EDIT, REJECT;

    public String value() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public Approval {
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(decision, "decision");
  }

  static Approval from(JsonNode json, String decidedBy) {
    JsonNode arguments = json.get("arguments");
    return new Approval(json.path("callId").asText(),
        Decision.valueOf(json.path("decision").asText().toUpperCase(Locale.ROOT)),
        arguments == null || arguments.isNull() ? null : arguments,
        json.hasNonNull("reason") ? json.get("reason").asText() : null,
        decidedBy);
  }

  ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode().put("callId", callId).put("decision", decision.value());
    if (arguments != null) {
      json.set("arguments", arguments);
    }
    if (reason != null) {
      json.put("reason", reason);
    }
    return json;
  }
}
