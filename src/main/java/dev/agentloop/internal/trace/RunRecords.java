package dev.agentloop.internal.trace;

import dev.agentloop.api.RunStatus;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.budget.Budget;
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

  /**
   * A run's row and, beside it, what the runs it called spent: subqueries, not a join, so that the row alone is
   * locked where it is read for update (PostgreSQL locks no outer join's nullable side).
   */
  static final String SELECT = "SELECT r.*,"
      + " (SELECT t.model_calls FROM agentloop_tree_use t WHERE t.run_id = r.run_id) AS calls_model_calls,"
      + " (SELECT t.tool_calls FROM agentloop_tree_use t WHERE t.run_id = r.run_id) AS calls_tool_calls,"
      + " (SELECT t.tokens FROM agentloop_tree_use t WHERE t.run_id = r.run_id) AS calls_tokens,"
      + " (SELECT t.last_by FROM agentloop_tree_use t WHERE t.run_id = r.run_id) AS calls_last_by"
      + " FROM agentloop_run r";

  void create(String runId, String agentKey, String question, List<String> callers, Budget budget,
      String answerSchema) {
    jdbc.update(
        "INSERT INTO agentloop_run (run_id, agent_key, question, status, head_turn, step_count, version,"
            + " model_calls, tool_calls, tokens, created_at, callers, max_steps, max_model_calls, max_tool_calls,"
            + " max_tokens, answer_schema) VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, 0, ?, ?, ?, ?, ?, ?, ?)",
        runId, agentKey, StoredText.of(question), RunStatus.RUNNING.name(), StepStore.now(),
        callers.isEmpty() ? null : String.join(",", callers), budget == null ? null : budget.maxSteps(),
        budget == null ? null : budget.maxModelCalls(), budget == null ? null : budget.maxToolCalls(),
        budget == null ? null : budget.maxTokens(), answerSchema);
  }

  /** A person raised the run's budget; it holds for the rest of the run, all its turns. */
  void raiseBudget(String runId, Budget budget) {
    jdbc.update("UPDATE agentloop_run SET max_steps = ?, max_model_calls = ?, max_tool_calls = ?, max_tokens = ?"
        + " WHERE run_id = ?", budget.maxSteps(), budget.maxModelCalls(), budget.maxToolCalls(), budget.maxTokens(),
        runId);
    // and where it called agents, the guard of their charges: a child that answers again after an edit, or one its
    // next call starts, spends within the new limits
    jdbc.update("UPDATE agentloop_tree_use SET max_model_calls = ?, max_tool_calls = ?, max_tokens = ? WHERE"
        + " run_id = ?", budget.maxModelCalls(), budget.maxToolCalls(), budget.maxTokens(), runId);
  }

  Optional<RunRecord> find(String runId) {
    return jdbc.query(SELECT + " WHERE r.run_id = ?", mapper, runId).stream().findFirst();
  }

  RunRecord get(String runId) {
    return find(runId).orElseThrow(() -> new UnknownRunException(runId));
  }

  RunRecord lock(String runId) {
    return jdbc.query(SELECT + " WHERE r.run_id = ? FOR UPDATE", mapper, runId).stream()
        .findFirst().orElseThrow(() -> new UnknownRunException(runId));
  }

  List<String> restartsOf(String runId) {
    return jdbc.queryForList("SELECT run_id FROM agentloop_run WHERE restarted_from = ? ORDER BY created_at",
        String.class, runId);
  }

  List<RunRecord> recent(String agentKey, boolean finished, int limit) {
    String onlyFinished = finished ? " AND ended_at IS NOT NULL" : "";
    return jdbc.query(SELECT + " WHERE r.agent_key = ?" + onlyFinished.replace("ended_at", "r.ended_at")
        + " ORDER BY r.created_at DESC LIMIT ?", mapper, agentKey, limit);
  }

  void markEnded(String runId, RunStatus status, String reason) {
    jdbc.update("UPDATE agentloop_run SET status = ?, status_reason = ?, ended_at = ? WHERE run_id = ?",
        status.name(), StoredText.of(reason), StepStore.now(), runId);
  }
}
