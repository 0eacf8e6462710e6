package dev.agentloop.internal.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * What became of one run of a migration.
 *
 * @param fromVersion the version the run was on when the migration looked at it, {@code null} where it has none
 *     (an unknown run)
 * @param detail why, in words: where it waited when it moved, or why it stays
 */
public record RunMove(String runId, MoveOutcome outcome, Integer fromVersion, String detail, Instant decidedAt) {

  public RunMove {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(detail, "detail");
  }
}
