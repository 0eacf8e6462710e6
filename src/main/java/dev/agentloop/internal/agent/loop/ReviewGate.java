package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a plan or an answer the model just wrote goes to a person, read by the gateway after
 * {@code plan} and after the agent loop as {@code ${decision == 'review'}}. The reviews' own decisions
 * (accept, revise, regenerate …) take the same variable afterwards.
 */
enum ReviewGate {
  ACCEPT, REVIEW;

  static ReviewGate of(boolean autoAccept) {
    return autoAccept ? ACCEPT : REVIEW;
  }

  /** As the gateways compare it, and as a decision in the trace. */
  String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The transient {@code decision} variable to complete a task with. */
  Map<String, Object> asVariable() {
    return ReactAgentProcess.DECISION.transientWith(value());
  }
}
