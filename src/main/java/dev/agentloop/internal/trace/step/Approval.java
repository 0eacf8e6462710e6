package dev.agentloop.internal.trace.step;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Objects;

/**
 * A person's decision on one tool call that needed approval, kept in an {@link Approvals} step of
 * the turn.
 *
 * @param arguments the edited arguments when the decision is EDIT, else {@code null}
 * @param decidedBy who decided: the author of the step it is kept in (not stored with the decision),
 *     or {@code null} where not known
 */
public record Approval(String callId, Decision decision, JsonNode arguments, String reason, String decidedBy) {

  /** What a person decided about a tool call; the value is what the approval form submits. */
  public enum Decision {
    APPROVE, EDIT, REJECT;

    public String value() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The decision a form's value names, or empty. */
    public static java.util.Optional<Decision> of(String value) {
      for (Decision decision : values()) {
        if (decision.value().equalsIgnoreCase(value)) {
          return java.util.Optional.of(decision);
        }
      }
      return java.util.Optional.empty();
    }
  }

  public Approval {
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(decision, "decision");
  }

  public boolean rejects() {
    return decision == Decision.REJECT;
  }

  /** The same decision, made by the author of the step that keeps it. */
  public Approval by(String author) {
    return new Approval(callId, decision, arguments, reason, author);
  }
}
