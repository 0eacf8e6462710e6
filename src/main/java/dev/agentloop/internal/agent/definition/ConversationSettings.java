package dev.agentloop.internal.agent.definition;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether an agent's run goes on after an accepted answer, taking follow-up questions, and how long
 * it waits for the next one before the conversation closes. Immutable.
 *
 * @param enabled {@code false}: one question per run, the run ends with its accepted answer
 * @param idle how long a conversation waits for a follow-up question before it closes (positive)
 */
public record ConversationSettings(boolean enabled, Duration idle) {

  /** One question per run; the idle time does not matter then. */
  public static final ConversationSettings ONE_SHOT = new ConversationSettings(false, Duration.ofHours(24));

  public ConversationSettings {
    Objects.requireNonNull(idle, "idle");
    if (idle.isNegative() || idle.isZero()) {
      throw new IllegalArgumentException("idle must be a positive duration, was " + idle);
    }
  }
}
