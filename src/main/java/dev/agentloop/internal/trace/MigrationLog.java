package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.retention.TraceRetention;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The migrations people asked for and what became of each run they named ({@code agentloop_migration},
 * {@code agentloop_migration_run}): the progress of a batch, and the runs that move when they next wait. A run's
 * rows go with its trace ({@link TraceRetention}). Thread-safe; writes join the caller's transaction.
 */
public class MigrationLog {

  private static final String RUN_COLUMNS = "run_id, outcome, from_version, detail, decided_at";

  private final JdbcTemplate jdbc;

  public MigrationLog(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** Keeps a migration that was asked for (not a dry run: that keeps nothing). */
  public void open(StoredMigration migration) {
    MigrationOrder order = migration.order();
    jdbc.update("INSERT INTO agentloop_migration (migration_id, agent_key, to_definition, to_version, from_version,"
            + " when_busy, requested_by, reason, requested_at, run_count, batch_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        migration.migrationId(), order.agentKey(), order.toDefinition(), order.toVersion(), migration.fromVersion(),
        order.moveWhenWaiting() ? "moveWhenWaiting" : "refuse", StoredText.of(order.requestedBy()),
        StoredText.of(order.reason()), migration.requestedAt().atOffset(ZoneOffset.UTC), migration.runCount(),
        migration.batchId());
  }

  /** The migration, if it is kept. */
  public Optional<StoredMigration> find(String migrationId) {
    return jdbc.query("SELECT * FROM agentloop_migration WHERE migration_id = ?", MigrationLog::migration, migrationId)
        .stream().findFirst();
  }

  /**
   * Keeps what became of a run of a migration, or what becomes of it now (a pending run that moved or was
   * refused later); in the caller's transaction.
   */
  public void result(String migrationId, RunMove move) {
    OffsetDateTime at = ClockUtil.getCurrentTime().toInstant().atOffset(ZoneOffset.UTC);
    String detail = StoredText.of(move.detail());
    int updated = jdbc.update("UPDATE agentloop_migration_run SET outcome = ?, from_version = ?, detail = ?,"
            + " decided_at = ? WHERE migration_id = ? AND run_id = ?", move.outcome().value(), move.fromVersion(),
        detail, at, migrationId, move.runId());
    if (updated == 0) {
      jdbc.update("INSERT INTO agentloop_migration_run (migration_id, " + RUN_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)",
          migrationId, move.runId(), move.outcome().value(), move.fromVersion(), detail, at);
    }
  }

  /** What became of the run in this migration so far; empty while the migration has not looked at it. */
  public Optional<RunMove> result(String migrationId, String runId) {
    return jdbc.query("SELECT " + RUN_COLUMNS + " FROM agentloop_migration_run WHERE migration_id = ? AND run_id = ?",
        MigrationLog::move, migrationId, runId).stream().findFirst();
  }

  /** What became of the runs the migration looked at so far, in the order it decided. */
  public List<RunMove> results(String migrationId) {
    return jdbc.query("SELECT " + RUN_COLUMNS + " FROM agentloop_migration_run WHERE migration_id = ?"
        + " ORDER BY decided_at, run_id", MigrationLog::move, migrationId);
  }

  /** The migrations that wait for this run to wait, oldest first: one indexed read, done at every wait of a run. */
  public List<String> pendingFor(String runId) {
    return jdbc.queryForList("SELECT migration_id FROM agentloop_migration_run WHERE run_id = ? AND outcome = ?"
        + " ORDER BY decided_at", String.class, runId, MoveOutcome.PENDING.value());
  }

  /** Runs that move when they next wait, {@code migrationId/runId}, oldest first; at most {@code limit}. */
  public List<PendingMove> pending(int limit) {
    return jdbc.query("SELECT migration_id, run_id FROM agentloop_migration_run WHERE outcome = ? ORDER BY decided_at",
        ps -> {
          ps.setString(1, MoveOutcome.PENDING.value());
          ps.setMaxRows(limit);
        }, (rs, row) -> new PendingMove(rs.getString("migration_id"), rs.getString("run_id")));
  }

  /** A run that moves when it next waits, for the migration that asked. */
  public record PendingMove(String migrationId, String runId) {}

  private static StoredMigration migration(ResultSet rs, int row) throws SQLException {
    MigrationOrder order = new MigrationOrder(rs.getString("agent_key"), rs.getString("to_definition"),
        rs.getInt("to_version"), "moveWhenWaiting".equals(rs.getString("when_busy")), rs.getString("requested_by"),
        rs.getString("reason"));
    return new StoredMigration(rs.getString("migration_id"), order, rs.getObject("from_version", Integer.class),
        rs.getObject("requested_at", OffsetDateTime.class).toInstant(), rs.getInt("run_count"),
        rs.getString("batch_id"));
  }

  private static RunMove move(ResultSet rs, int row) throws SQLException {
    return new RunMove(rs.getString("run_id"), MoveOutcome.of(rs.getString("outcome")),
        rs.getObject("from_version", Integer.class), rs.getString("detail"),
        rs.getObject("decided_at", OffsetDateTime.class).toInstant());
  }
}
