package dev.agentloop.internal.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * A migration as {@link MigrationLog} keeps it.
 *
 * @param fromVersion the version whose runs it moves, or {@code null} where it named its runs one by one
 * @param runCount how many runs it named
 * @param batchId the Camunda batch that moves its runs, or {@code null} where the request moved them itself
 */
public record StoredMigration(String migrationId, MigrationOrder order, Integer fromVersion, Instant requestedAt,
    int runCount, String batchId) {

  public StoredMigration {
    Objects.requireNonNull(migrationId, "migrationId");
    Objects.requireNonNull(order, "order");
    Objects.requireNonNull(requestedAt, "requestedAt");
    if (runCount < 0) {
      throw new IllegalArgumentException("runCount must not be negative, was " + runCount);
    }
  }
}
