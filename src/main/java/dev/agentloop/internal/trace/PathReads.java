package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import static dev.agentloop.internal.trace.StepRows.FOLLOW_UP_PATTERN;
import static dev.agentloop.internal.trace.StepRows.STEP_COLUMNS;

import dev.agentloop.internal.trace.step.FollowUp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The reads of a run's steps: its paths (active, recent, from a step, every branch) and the views on them that the
 * loop, the reviews and the conversations ask for. Apart from the writes because each is one indexed query that
 * neither locks nor needs a transaction. Thread-safe.
 */
final class PathReads {

  private final JdbcTemplate jdbc;
  private final RowMapper<Step> mapper;

  PathReads(JdbcTemplate jdbc, StepRows rows) {
    this.jdbc = jdbc;
    this.mapper = rows::step;
  }

  List<Step> activePath(String runId) {
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND status = 'ACTIVE' ORDER BY step_no",
        mapper, runId);
  }

  List<Step> activePathFrom(String runId, int fromStep) {
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND status = 'ACTIVE' AND step_no >= ?"
            + " ORDER BY step_no", mapper, runId, fromStep);
  }

  List<Step> recentPath(String runId, int limit) {
    List<Step> newestFirst = jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND status = 'ACTIVE'"
            + " ORDER BY run_id, status, step_no DESC LIMIT ?",
        mapper, runId, limit);
    List<Step> path = new ArrayList<>(newestFirst);
    Collections.reverse(path);
    return path;
  }

  Optional<Step> latestActive(String runId, StepKind kind) {
    return jdbc.query(
            "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND kind = ? AND status = 'ACTIVE'"
                + " ORDER BY run_id, kind, step_no DESC LIMIT 1",
            mapper, runId, kind.name())
        .stream().findFirst();
  }

  Optional<Step> latestFollowUp(String runId) {
    return jdbc.query(
            "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND kind = ? AND status = 'ACTIVE'"
                + " AND content LIKE ? ORDER BY run_id, kind, step_no DESC",
            mapper, runId, StepKind.HUMAN_INPUT.name(), FOLLOW_UP_PATTERN)
        .stream().filter(step -> step.content() instanceof FollowUp).findFirst();
  }

  List<Step> questionsAndAnswers(String runId, boolean activeOnly) {
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ?" + (activeOnly ? " AND status = 'ACTIVE'" : "")
            + " AND (kind = ? OR (kind = ? AND content LIKE ?)) ORDER BY step_no",
        mapper, runId, StepKind.FINAL_ANSWER.name(), StepKind.HUMAN_INPUT.name(), FOLLOW_UP_PATTERN)
        .stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER || step.content() instanceof FollowUp).toList();
  }

  int countChildren(String runId, int parentNo, StepKind kind) {
    Integer count = jdbc.queryForObject(
        "SELECT COUNT(*) FROM agentloop_step WHERE run_id = ? AND kind = ? AND parent_no = ?",
        Integer.class, runId, kind.name(), parentNo);
    return count == null ? 0 : count;
  }

  List<Step> allSteps(String runId) {
    return jdbc.query(
        "SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? ORDER BY step_no", mapper, runId);
  }

  List<Step> stepsAfter(String runId, int stepNo) {
    return jdbc.query("SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND step_no > ? ORDER BY step_no",
        mapper, runId, stepNo);
  }

  Optional<Step> find(String runId, int stepNo) {
    return jdbc.query("SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND step_no = ?",
        mapper, runId, stepNo).stream().findFirst();
  }

  List<Step> supersededRunsOf(String runId, Collection<String> tools) {
    if (tools.isEmpty()) {
      return List.of();
    }
    String names = String.join(", ", Collections.nCopies(tools.size(), "?"));
    List<Object> arguments = new ArrayList<>(List.of(runId, StepKind.OBSERVATION.name()));
    arguments.addAll(tools);
    return jdbc.query("SELECT " + STEP_COLUMNS + " FROM agentloop_step WHERE run_id = ? AND kind = ?"
        + " AND status = 'SUPERSEDED' AND author IN (" + names + ") ORDER BY step_no", mapper, arguments.toArray());
  }
}
