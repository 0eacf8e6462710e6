package dev.agentloop.internal.resilience;

import java.util.Objects;

/**
 * A run cannot go on by itself and must leave its agent loop for a person: the loop detector found
 * a loop, a budget is used up, or the model insists on a tool whose circuit breaker is open.
 * {@link Escapes} maps it to the BPMN error the diagram catches.
 */
public class EscapeException extends RuntimeException {

  /** Why the run escapes. */
  public enum Reason { LOOP_DETECTED, BUDGET_EXHAUSTED, TOOL_UNAVAILABLE }

  private final Reason reason;

  /**
   * @param message says what happened, for the person in the agentStuck task; it is the BPMN error's message
   */
  public EscapeException(Reason reason, String message) {
    super(Objects.requireNonNull(message, "message"));
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }
}
