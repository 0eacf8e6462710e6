package dev.agentloop.cluster;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * What the test reads directly from the database the nodes share: Camunda's runtime and history
 * tables and the step store, as an operator would query them.
 */
final class SharedDatabase {

  private final JdbcTemplate jdbc;
  private final NamedParameterJdbcTemplate named;

  SharedDatabase(DataSource dataSource) {
    this.jdbc = new JdbcTemplate(dataSource);
    this.named = new NamedParameterJdbcTemplate(jdbc);
  }

  long runsWithStatus(String status) {
    return jdbc.queryForObject("SELECT count(*) FROM agentloop_run WHERE status = ?", Long.class, status);
  }

  /**
   * The runs a worker holds a lock on, each with the moment its lock expires (the earliest, should
   * a run have several tasks). Camunda writes lock times as the locking JVM's local time without a
   * zone; the nodes run on this machine, so this JVM reads them back in the same zone.
   */
  Map<String, Instant> locksHeldBy(String workerId) {
    return Map.copyOf(jdbc.query(
        "SELECT proc_inst_id_, min(lock_exp_time_) FROM act_ru_ext_task WHERE worker_id_ = ? GROUP BY proc_inst_id_",
        rs -> {
          Map<String, Instant> locks = new HashMap<>();
          while (rs.next()) {
            locks.put(rs.getString(1), rs.getTimestamp(2).toInstant());
          }
          return locks;
        }, workerId));
  }

  /** Rows left in Camunda's runtime tables: executions, external tasks, incidents, jobs of runs. */
  Map<String, Long> runtimeRows() {
    return Map.of(
        "executions", count("act_ru_execution"),
        "external tasks", count("act_ru_ext_task"),
        "incidents", count("act_ru_incident"),
        // the engine's own history cleanup job stays, scheduled for its batch window: no run left it
        "jobs", count("act_ru_job WHERE handler_type_ <> 'history-cleanup'"));
  }

  /** Process instances that ended at the given end event, according to Camunda's history. */
  long instancesEndedAt(String endEventId, Collection<String> instanceIds) {
    return named.queryForObject("SELECT count(*) FROM act_hi_procinst WHERE end_act_id_ = :end AND id_ IN (:ids)",
        Map.of("end", endEventId, "ids", instanceIds), Long.class);
  }

  /** For each of the runs that got a step after {@code instant}: when its first such step was written. */
  Map<String, Instant> firstStepAfter(Collection<String> runIds, Instant instant) {
    return Map.copyOf(named.query(
        "SELECT run_id, min(created_at) FROM agentloop_step WHERE run_id IN (:ids) AND created_at > :after"
            + " GROUP BY run_id",
        Map.of("ids", runIds, "after", instant.atOffset(ZoneOffset.UTC)),
        rs -> {
          Map<String, Instant> first = new HashMap<>();
          while (rs.next()) {
            first.put(rs.getString(1), rs.getObject(2, OffsetDateTime.class).toInstant());
          }
          return first;
        }));
  }

  /** When the last of the runs ended. */
  Instant lastEnded(Collection<String> runIds) {
    return named.queryForObject("SELECT max(ended_at) FROM agentloop_run WHERE run_id IN (:ids)",
        Map.of("ids", runIds), OffsetDateTime.class).toInstant();
  }

  private long count(String table) {
    return jdbc.queryForObject("SELECT count(*) FROM " + table, Long.class);
  }
}
