package dev.agentloop.internal.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * What a person (or AgentLoop, for an agent that accepts automatically) decided on a step without
 * writing one: a plan accepted unchanged, an answer accepted or regenerated, a run stopped after it.
 * Decisions that write a step (an edit, feedback, guidance, an approval of tool calls) are that step.
 * A run moved to another version of its agent is a decision too ({@value #MIGRATE}), on the step it waited at.
 *
 * @param stepNo the step decided on
 * @param decision what was decided, in the words of the task's form, e.g. {@code accept}, {@code regenerate}
 * @param reason why, where the person said so, or {@code null}
 * @param fromVersion the agent version a moved run was on ({@value #MIGRATE}), else {@code null}
 * @param toVersion the agent version a moved run went to ({@value #MIGRATE}), else {@code null}
 */
public record Decision(int stepNo, String decision, String author, String reason, Instant decidedAt,
    Integer fromVersion, Integer toVersion) {

  /** The decision that moved a run to another version of its agent. */
  public static final String MIGRATE = "migrate";

  public Decision {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(author, "author");
    Objects.requireNonNull(decidedAt, "decidedAt");
    if ((fromVersion == null) != (toVersion == null)) {
      throw new IllegalArgumentException("a decision names both versions of a move or none, not only "
          + (fromVersion == null ? "toVersion" : "fromVersion"));
    }
  }

  /** A decision on a step that moved no run between versions. */
  public Decision(int stepNo, String decision, String author, String reason, Instant decidedAt) {
    this(stepNo, decision, author, reason, decidedAt, null, null);
  }
}
