package dev.agentloop.internal.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * What a person (or AgentLoop, for an agent that accepts automatically) decided on a step without
 * writing one: a plan accepted unchanged, an answer accepted or regenerated, a run stopped after it.
 * Decisions that write a step (an edit, feedback, guidance, an approval of tool calls) are that step.
 *
 * @param stepNo the step decided on
 * @param decision what was decided, in the words of the task's form, e.g. {@code accept}, {@code regenerate}
 * @param reason why, where the person said so, or {@code null}
 */
public record Decision(int stepNo, String decision, String author, String reason, Instant decidedAt) {

  public Decision {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(author, "author");
    Objects.requireNonNull(decidedAt, "decidedAt");
  }
}
