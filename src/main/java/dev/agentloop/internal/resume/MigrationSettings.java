package dev.agentloop.internal.resume;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How AgentLoop moves waiting runs to another version of their agent ({@code agentloop.migration.*}, bound by
 * package {@code config}). Immutable.
 *
 * @param batchThreshold a migration of more runs than this moves them in a Camunda batch, run by the job executor
 *     of every node, one short transaction per run, while the request returns at once with the migration to follow;
 *     up to this many the request moves them itself and answers with each run's outcome
 * @param pendingCheckInterval how often each node looks for runs that were busy when a migration asked for them,
 *     chose to move them when they next wait, and wait now without having moved (a run moves the moment it reaches
 *     a wait; this catches the moves a node did not get to, say because it stopped)
 */
public record MigrationSettings(
    @DefaultValue("50") @PositiveOrZero int batchThreshold,
    @DefaultValue("PT30S") @NotNull Duration pendingCheckInterval) {

  public MigrationSettings {
    Objects.requireNonNull(pendingCheckInterval, "pendingCheckInterval");
    if (batchThreshold < 0) {
      throw new IllegalArgumentException("agentloop.migration.batch-threshold must be 0 (always a batch) or more, was "
          + batchThreshold);
    }
    if (pendingCheckInterval.isNegative() || pendingCheckInterval.isZero()) {
      throw new IllegalArgumentException("agentloop.migration.pending-check-interval must be positive, was "
          + pendingCheckInterval);
    }
  }
}
