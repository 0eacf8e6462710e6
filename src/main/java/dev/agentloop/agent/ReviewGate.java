package dev.agentloop.agent;

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

  /** The transient {@code decision} variable to complete a task with. */
  Map<String, Object> asVariable() {
    return ReactAgentProcess.DECISION.transientWith(name().toLowerCase(Locale.ROOT));
  }
}
