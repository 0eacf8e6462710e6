package dev.agentloop.internal.trace.retention;

import java.time.Instant;
import java.util.Objects;

/**
 * The tombstone of a trace deleted on purpose: which run, when, by whom, why, and how many steps went.
 * The run's record stays (status, times, counters) without its question and reasons.
 */
public record TraceDeletion(String runId, Instant deletedAt, String deletedBy, String reason, int stepsDeleted) {

  public TraceDeletion {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(deletedAt, "deletedAt");
    Objects.requireNonNull(deletedBy, "deletedBy");
    Objects.requireNonNull(reason, "reason");
    if (stepsDeleted < 0) {
      throw new IllegalArgumentException("stepsDeleted must be >= 0, was " + stepsDeleted);
    }
  }
}
