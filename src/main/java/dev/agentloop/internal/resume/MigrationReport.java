package dev.agentloop.internal.resume;

import dev.agentloop.internal.trace.RunMove;
import java.time.Instant;
import java.util.List;

/**
 * What a migration did or, in a dry run, would do: per run {@code migrated}, {@code refused} (with the reason in
 * words) or {@code pending} (busy, moves when it next waits), with the counts.
 *
 * @param migrationId {@code null} for a dry run, which keeps nothing
 * @param batchId the Camunda batch that moves the runs, or {@code null} where the request moved them itself
 * @param total how many runs the migration named
 * @param done whether every run has moved or been refused (pending runs are not done)
 * @param runs what became of each run so far, in the order decided
 */
public record MigrationReport(String migrationId, String agent, int toVersion, Integer fromVersion, boolean dryRun,
    String requestedBy, String reason, Instant requestedAt, String batchId, int total, int migrated, int refused,
    int pending, boolean done, List<RunMove> runs) {

  public MigrationReport {
    runs = List.copyOf(runs);
  }
}
