package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.trace.StoredText;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The evaluations' two tables ({@code agentloop_evaluation}, {@code agentloop_evaluation_case}): what was asked, how
 * far each case got, what it came to, and who promoted what. Writes join the caller's transaction where there is one.
 * Thread-safe.
 */
class EvaluationStore {

  private static final String EVALUATION_COLUMNS = "evaluation_id, agent_key, candidate_key, candidate_version,"
      + " choices, status, summary, reason, created_by, created_at, ended_at, promoted_by, promoted_at, promote_reason,"
      + " promoted_version";
  private static final String CASE_COLUMNS = "evaluation_id, case_no, recorded_run, data_case, run_id, status, verdict,"
      + " result";

  private final JdbcTemplate jdbc;

  EvaluationStore(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  void insert(EvaluationRow evaluation, String candidateXml, List<CaseRow> cases) {
    jdbc.update("INSERT INTO agentloop_evaluation (evaluation_id, agent_key, candidate_key, candidate_version,"
            + " candidate_xml, choices, status, reason, created_by, created_at, heartbeat_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", evaluation.id(), evaluation.agentKey(),
        evaluation.candidateKey(), evaluation.candidateVersion(), StoredText.of(candidateXml),
        StoredText.ofJson(evaluation.choices()), evaluation.status().name(), StoredText.of(evaluation.reason()),
        evaluation.createdBy(), at(evaluation.createdAt()), at(evaluation.createdAt()));
    jdbc.batchUpdate("INSERT INTO agentloop_evaluation_case (" + CASE_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        cases.stream().map(c -> new Object[] {c.evaluationId(), c.caseNo(), c.recordedRun(),
            c.dataCase() == null ? null : StoredText.ofJson(c.dataCase()), c.runId(), c.status().name(),
            c.verdict() == null ? null : c.verdict().name(), c.result() == null ? null : StoredText.ofJson(c.result())})
            .toList());
  }

  Optional<EvaluationRow> find(String evaluationId) {
    return jdbc.query("SELECT " + EVALUATION_COLUMNS + " FROM agentloop_evaluation WHERE evaluation_id = ?",
        EvaluationStore::evaluation, evaluationId).stream().findFirst();
  }

  Optional<EvaluationRow> findByCandidateKey(String candidateKey) {
    return jdbc.query("SELECT " + EVALUATION_COLUMNS + " FROM agentloop_evaluation WHERE candidate_key = ?",
        EvaluationStore::evaluation, candidateKey).stream().findFirst();
  }

  /**
   * Deletes the evaluations that ended before the instant and were not promoted, with their cases.
   *
   * @return how many evaluations went
   */
  int deleteEndedBefore(Instant before) {
    String expired = "SELECT evaluation_id FROM agentloop_evaluation WHERE ended_at < ? AND promoted_at IS NULL";
    jdbc.update("DELETE FROM agentloop_evaluation_case WHERE evaluation_id IN (" + expired + ")", at(before));
    return jdbc.update("DELETE FROM agentloop_evaluation WHERE ended_at < ? AND promoted_at IS NULL", at(before));
  }

  /** The agent's evaluations, newest first. */
  List<EvaluationRow> ofAgent(String agentKey, int limit) {
    return jdbc.query("SELECT " + EVALUATION_COLUMNS + " FROM agentloop_evaluation WHERE agent_key = ?"
        + " ORDER BY created_at DESC, evaluation_id FETCH FIRST " + limit + " ROWS ONLY", EvaluationStore::evaluation,
        agentKey);
  }

  String candidateXml(String evaluationId) {
    return jdbc.queryForObject("SELECT candidate_xml FROM agentloop_evaluation WHERE evaluation_id = ?", String.class,
        evaluationId);
  }

  List<CaseRow> cases(String evaluationId) {
    return jdbc.query("SELECT " + CASE_COLUMNS + " FROM agentloop_evaluation_case WHERE evaluation_id = ?"
        + " ORDER BY case_no", EvaluationStore::caseRow, evaluationId);
  }

  /** The case a candidate run plays, with its evaluation's choices. */
  Optional<CaseOfRun> caseOfRun(String runId) {
    return jdbc.query("SELECT c.evaluation_id, c.case_no, c.recorded_run, e.choices FROM agentloop_evaluation_case c"
            + " JOIN agentloop_evaluation e ON e.evaluation_id = c.evaluation_id WHERE c.run_id = ?",
        (rs, n) -> new CaseOfRun(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4)), runId)
        .stream().findFirst();
  }

  /** The case's run started: written in the transaction that starts it, so that its calls always find their case. */
  void started(String evaluationId, int caseNo, String runId) {
    jdbc.update("UPDATE agentloop_evaluation_case SET run_id = ?, status = ? WHERE evaluation_id = ? AND case_no = ?",
        runId, CaseStatus.RUNNING.name(), evaluationId, caseNo);
  }

  void finished(String evaluationId, int caseNo, CaseStatus status, Verdict verdict, String result) {
    jdbc.update("UPDATE agentloop_evaluation_case SET status = ?, verdict = ?, result = ?"
            + " WHERE evaluation_id = ? AND case_no = ?", status.name(), verdict == null ? null : verdict.name(),
        StoredText.ofJson(result), evaluationId, caseNo);
  }

  void status(String evaluationId, EvaluationStatus status) {
    jdbc.update("UPDATE agentloop_evaluation SET status = ?, heartbeat_at = ? WHERE evaluation_id = ?", status.name(),
        now(), evaluationId);
  }

  void ended(String evaluationId, EvaluationStatus status, String summary) {
    jdbc.update("UPDATE agentloop_evaluation SET status = ?, summary = ?, ended_at = ? WHERE evaluation_id = ?",
        status.name(), StoredText.ofJson(summary), now(), evaluationId);
  }

  /** The lane still runs these evaluations: what tells a live one from one whose node stopped. */
  void heartbeat(List<String> evaluationIds) {
    OffsetDateTime now = now();
    evaluationIds.forEach(id -> jdbc.update("UPDATE agentloop_evaluation SET heartbeat_at = ? WHERE evaluation_id = ?",
        now, id));
  }

  /** Evaluations not ended whose lane has not said it runs them since {@code before}. */
  List<String> stale(Instant before) {
    return jdbc.queryForList("SELECT evaluation_id FROM agentloop_evaluation WHERE ended_at IS NULL"
        + " AND heartbeat_at < ?", String.class, at(before));
  }

  /** @return whether this promotion is the evaluation's first: only one may be */
  boolean promoted(String evaluationId, String by, String reason, int version) {
    return jdbc.update("UPDATE agentloop_evaluation SET promoted_by = ?, promoted_at = ?, promote_reason = ?,"
        + " promoted_version = ? WHERE evaluation_id = ? AND promoted_at IS NULL", by, now(), StoredText.of(reason),
        version, evaluationId) == 1;
  }

  /** The version the promotion deployed, written in the promotion's transaction. */
  void promotedVersion(String evaluationId, int version) {
    jdbc.update("UPDATE agentloop_evaluation SET promoted_version = ? WHERE evaluation_id = ?", version, evaluationId);
  }

  private static EvaluationRow evaluation(ResultSet rs, int n) throws SQLException {
    String promotedBy = rs.getString("promoted_by");
    return new EvaluationRow(rs.getString("evaluation_id"), rs.getString("agent_key"), rs.getString("candidate_key"),
        (Integer) rs.getObject("candidate_version"), rs.getString("choices"),
        EvaluationStatus.valueOf(rs.getString("status")), rs.getString("summary"), rs.getString("reason"),
        rs.getString("created_by"), instant(rs, "created_at"), instant(rs, "ended_at"),
        promotedBy == null ? null : new EvaluationRow.Promotion(promotedBy, instant(rs, "promoted_at"),
            rs.getString("promote_reason"), rs.getInt("promoted_version")));
  }

  private static CaseRow caseRow(ResultSet rs, int n) throws SQLException {
    String verdict = rs.getString("verdict");
    return new CaseRow(rs.getString("evaluation_id"), rs.getInt("case_no"), rs.getString("recorded_run"),
        rs.getString("data_case"), rs.getString("run_id"), CaseStatus.valueOf(rs.getString("status")),
        verdict == null ? null : Verdict.valueOf(verdict), rs.getString("result"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static OffsetDateTime at(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  static OffsetDateTime now() {
    return ClockUtil.getCurrentTime().toInstant().atOffset(ZoneOffset.UTC);
  }

  /** The case a candidate run plays, and the choices of its evaluation (JSON). */
  record CaseOfRun(String evaluationId, int caseNo, String recordedRun, String choices) {}
}
