package dev.agentloop.internal.trace;

import dev.agentloop.api.RunStatus;
import dev.agentloop.api.UnknownRunException;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The runs' own rows in {@code agentloop_run}: created, read, locked, listed and ended. Apart from the steps'
 * reads and writes because none of these touches a step: the head that the step writes move is theirs to guard.
 * Thread-safe.
 */
final class RunRecords {

  private final JdbcTemplate jdbc;
  private final RowMapper<RunRecord> mapper;

  RunRecords(JdbcTemplate jdbc, StepRows rows) {
    this.jdbc = jdbc;
    this.mapper = rows::run;
  }

  void create(String runId, String agentKey, String question, String answerSchema) {
    jdbc.update(
        "INSERT INTO agentloop_run (run_id, agent_key, question, status, head_turn, step_count, version,"
            + " model_calls, tool_calls, tokens, created_at, answer_schema) VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, 0, ?, ?)",
        runId, agentKey, StoredText.of(question), RunStatus.RUNNING.name(), StepStore.now(), answerSchema);
  }

  Optional<RunRecord> find(String runId) {
    return jdbc.query("SELECT * FROM agentloop_run WHERE run_id = ?", mapper, runId).stream().findFirst();
  }

  RunRecord get(String runId) {
    return find(runId).orElseThrow(() -> new UnknownRunException(runId));
  }

  RunRecord lock(String runId) {
    return jdbc.query("SELECT * FROM agentloop_run WHERE run_id = ? FOR UPDATE", mapper, runId).stream()
        .findFirst().orElseThrow(() -> new UnknownRunException(runId));
  }

  List<String> restartsOf(String runId) {
    return jdbc.queryForList("SELECT run_id FROM agentloop_run WHERE restarted_from = ? ORDER BY created_at",
        String.class, runId);
  }

  List<RunRecord> recent(String agentKey, boolean finished, int limit) {
    String onlyFinished = finished ? " AND ended_at IS NOT NULL" : "";
    return jdbc.query("SELECT * FROM agentloop_run WHERE agent_key = ?" + onlyFinished
        + " ORDER BY created_at DESC LIMIT ?", mapper, agentKey, limit);
  }

  void markEnded(String runId, RunStatus status, String reason) {
    jdbc.update("UPDATE agentloop_run SET status = ?, status_reason = ?, ended_at = ? WHERE run_id = ?",
        status.name(), StoredText.of(reason), StepStore.now(), runId);
  }
}
