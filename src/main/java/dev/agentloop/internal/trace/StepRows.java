package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.Spending;
import dev.agentloop.internal.trace.step.StepContent;
import dev.agentloop.internal.trace.step.StepJson;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/** Steps and runs to and from the rows of {@code agentloop_step} and {@code agentloop_run}. Thread-safe. */
class StepRows {

  /** The columns of a step, in the order of {@link #row(Step)} and {@link #step}. */
  static final String STEP_COLUMNS =
      "run_id, step_no, parent_no, kind, turn, content, status, author, created_at, supersedes, reason";

  /** Narrows the rows to read to those that may be follow-ups; the content read decides. */
  static final String FOLLOW_UP_PATTERN = "%\"" + StepJson.FOLLOW_UP + "\"%";

  private final ObjectMapper json;

  StepRows(ObjectMapper json) {
    this.json = json;
  }

  /** The row of a step that no call of its own wrote: a person's, or a copy of another run's. */
  Object[] row(Step step) {
    return row(step, null);
  }

  /** The row of {@code agentloop_step}, with what the call that wrote the step cost. */
  Object[] row(Step step, StepCost cost) {
    Object[] paid = cost == null ? new Object[8] : new Object[] {cost.modelCall(), cost.latencyMillis(),
        cost.promptTokens(), cost.completionTokens(), cost.totalTokens(), cost.cacheReadTokens(),
        cost.cacheWriteTokens(), StoredText.of(cost.model())};
    return new Object[] {step.runId(), step.stepNo(), step.parentNo(), step.kind().name(), step.turn(),
        StoredText.ofJson(write(step.json())), step.status().name(), StoredText.of(step.author()),
        step.createdAt().atOffset(ZoneOffset.UTC), step.supersedes(), StoredText.of(step.reason()), paid[0], paid[1],
        paid[2], paid[3], paid[4], paid[5], paid[6], paid[7]};
  }

  private String write(JsonNode content) {
    try {
      return json.writeValueAsString(content);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("step content cannot be written as JSON", e);
    }
  }

  private JsonNode read(String content) {
    try {
      return json.readTree(content);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored step content is not JSON", e);
    }
  }

  Step step(ResultSet rs, int row) throws SQLException {
    return new Step(
        rs.getString("run_id"),
        rs.getInt("step_no"),
        rs.getObject("parent_no", Integer.class),
        rs.getInt("turn"),
        StepContent.fromJson(StepKind.valueOf(rs.getString("kind")), read(rs.getString("content"))),
        StepStatus.valueOf(rs.getString("status")),
        rs.getString("author"),
        instant(rs, "created_at"),
        rs.getObject("supersedes", Integer.class),
        rs.getString("reason"));
  }

  RunRecord run(ResultSet rs, int row) throws SQLException {
    String runId = rs.getString("run_id");
    return new RunRecord(
        runId,
        rs.getString("agent_key"),
        rs.getString("question"),
        RunStatus.valueOf(rs.getString("status")),
        rs.getString("status_reason"),
        new RunHead(runId, rs.getInt("version"), rs.getObject("head_step", Integer.class), rs.getInt("head_turn"),
            rs.getInt("step_count")),
        rs.getInt("model_calls"),
        rs.getInt("tool_calls"),
        rs.getLong("tokens"),
        instant(rs, "created_at"),
        instant(rs, "ended_at"),
        rs.getString("restarted_from") == null ? null : new RunRecord.Restart(rs.getString("restarted_from"),
            rs.getInt("restarted_from_step"), rs.getString("restarted_by"), rs.getString("restart_reason")),
        rs.getObject("max_model_calls") == null ? null : new Budget(rs.getInt("max_steps"),
            rs.getInt("max_model_calls"), rs.getInt("max_tool_calls"), rs.getLong("max_tokens")),
        tree(rs), rs.getString("answer_schema"));
  }

  /** The run's place among agents: its callers' column, and its row of what its calls spent (read beside it). */
  private static RunRecord.Tree tree(ResultSet rs) throws SQLException {
    String callers = rs.getString("callers");
    boolean called = rs.getObject("calls_model_calls") != null;
    if (callers == null && !called) {
      return RunRecord.Tree.NONE;
    }
    return new RunRecord.Tree(callers == null ? List.of() : List.of(callers.split(",")),
        called ? new Spending(0, rs.getInt("calls_model_calls"), rs.getInt("calls_tool_calls"),
            rs.getLong("calls_tokens")) : Spending.NONE,
        rs.getString("calls_last_by"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
