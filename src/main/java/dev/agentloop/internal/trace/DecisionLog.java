package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.retention.TraceRetention;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The decisions people (or AgentLoop, for an agent that accepts automatically) made on a run's steps
 * without writing a step: {@code agentloop_decision}, beside the step tree. They go with the run's
 * trace ({@link TraceRetention}). Thread-safe.
 */
public class DecisionLog {

  private final JdbcTemplate jdbc;
  private final RunWatchers watchers;

  public DecisionLog(JdbcTemplate jdbc) {
    this(jdbc, new RunWatchers());
  }

  /** @param watchers told of every decision kept here, for those who follow runs in this JVM */
  public DecisionLog(JdbcTemplate jdbc, RunWatchers watchers) {
    this.jdbc = jdbc;
    this.watchers = watchers;
  }

  /**
   * Keeps a decision on step {@code stepNo}, in the caller's transaction.
   *
   * @param reason why, or blank when nobody said
   */
  public void record(String runId, int stepNo, String decision, String author, String reason) {
    jdbc.update("INSERT INTO agentloop_decision (run_id, step_no, decision, author, reason, decided_at)"
            + " VALUES (?, ?, ?, ?, ?, ?)", runId, stepNo, decision, StoredText.of(author),
        reason == null || reason.isBlank() ? null : StoredText.of(reason),
        ClockUtil.getCurrentTime().toInstant().atOffset(ZoneOffset.UTC));
    watchers.changed(runId);
  }

  /** The decisions on the run's steps, in the order they were made. */
  public List<Decision> of(String runId) {
    return jdbc.query("SELECT step_no, decision, author, reason, decided_at FROM agentloop_decision WHERE run_id = ?"
        + " ORDER BY decided_at, step_no", (rs, row) -> new Decision(rs.getInt("step_no"), rs.getString("decision"),
            rs.getString("author"), rs.getString("reason"), rs.getObject("decided_at", OffsetDateTime.class).toInstant()),
        runId);
  }
}
