package dev.agentloop.internal.trace;

import static dev.agentloop.internal.trace.StepRows.STEP_COLUMNS;

import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The SQL of {@link StepWrites}: the inserts of steps and the updates of a run's head and figures. Apart from
 * the writes' logic (which steps go where, below which head) so that each statement is written once.
 * Joins the caller's transaction. Thread-safe.
 */
final class StepTable {

  /** A step's row: the step, and what the call that wrote it cost ({@link RunInsights#costs}). */
  private static final String ROW_COLUMNS = STEP_COLUMNS
      + ", cost_model_call, cost_latency_ms, cost_prompt_tokens, cost_completion_tokens, cost_total_tokens"
      + ", cost_cache_read_tokens, cost_cache_write_tokens, cost_model";

  private final JdbcTemplate jdbc;

  StepTable(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** Stores step rows ({@link StepRows#row}): one insert, or one batch for several. */
  void insert(List<Object[]> rows) {
    String sql = "INSERT INTO agentloop_step (" + ROW_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    if (rows.size() == 1) {
      jdbc.update(sql, rows.get(0));
    } else {
      jdbc.batchUpdate(sql, rows);
    }
  }

  /** Active steps numbered from {@code first} up to, not including, {@code end}: the path after a branch point. */
  void supersedeFrom(String runId, int first, int end) {
    jdbc.update("UPDATE agentloop_step SET status = 'SUPERSEDED' WHERE run_id = ? AND status = 'ACTIVE'"
        + " AND step_no >= ? AND step_no < ?", runId, first, end);
  }

  /**
   * Moves the run's head from {@code expected} to {@code head}, counting {@code added} steps and what their calls
   * used.
   *
   * @throws StaleHeadException when the run's version is no longer {@code expected}'s; nothing is changed
   */
  void moveHead(RunHead expected, RunHead head, int added, Usage usage) {
    int updated = jdbc.update(
        "UPDATE agentloop_run SET head_step = ?, head_turn = ?, step_count = step_count + ?, version = version + 1,"
            + " model_calls = model_calls + ?, tool_calls = tool_calls + ?, tokens = tokens + ?"
            + " WHERE run_id = ? AND version = ?",
        head.headStep(), head.headTurn(), added, usage.modelCalls(), usage.toolCalls(), usage.tokens(),
        expected.runId(), expected.version());
    if (updated != 1) {
      throw new StaleHeadException(expected.runId(), expected.version());
    }
  }

  /** Counts {@code added} steps stored off the active path and what their calls used; the head stays. */
  void addOffPath(String runId, int added, Usage usage) {
    jdbc.update("UPDATE agentloop_run SET step_count = step_count + ?, version = version + 1,"
            + " model_calls = model_calls + ?, tool_calls = tool_calls + ?, tokens = tokens + ? WHERE run_id = ?",
        added, usage.modelCalls(), usage.toolCalls(), usage.tokens(), runId);
  }

  /** Counts what calls used whose steps were not stored: they were paid for all the same. */
  void addUsage(String runId, Usage usage) {
    jdbc.update("UPDATE agentloop_run SET model_calls = model_calls + ?, tool_calls = tool_calls + ?,"
        + " tokens = tokens + ? WHERE run_id = ?", usage.modelCalls(), usage.toolCalls(), usage.tokens(), runId);
  }

  /**
   * Sets the head of a new, empty run to the last of {@code count} copied steps, with where the run came from.
   *
   * @return whether the run was new and empty (else nothing is changed)
   */
  boolean startCopy(String runId, Step last, int count, RunRecord.Restart restart) {
    int updated = jdbc.update("UPDATE agentloop_run SET head_step = ?, head_turn = ?, step_count = ?,"
            + " version = version + 1, restarted_from = ?, restarted_from_step = ?, restarted_by = ?,"
            + " restart_reason = ? WHERE run_id = ? AND step_count = 0",
        last.stepNo(), last.turn(), count, restart.runId(), restart.fromStep(), StoredText.of(restart.by()),
        StoredText.of(restart.reason()),
        runId);
    return updated == 1;
  }
}
