package dev.agentloop.internal.evaluation;

import java.time.Instant;
import java.util.List;

/**
 * An evaluation as the API shows it: what was evaluated, where it stands, each case side by side (the recorded run's
 * and the candidate's), and the summary counted from the cases as they are now. Immutable.
 *
 * @param candidateVersion the agent's version the candidate is, or {@code null} for an uploaded diagram
 * @param promotion who made the candidate the version new runs start on, or {@code null}
 */
public record EvaluationView(String id, String agentKey, Integer candidateVersion, String status, String reason,
    String createdBy, Instant createdAt, Instant endedAt, EvaluationRow.Promotion promotion, Summary summary,
    List<CaseView> cases) {

  /**
   * One case: the recorded run it replays or the data-set case it plays, where it stands, and what it came to.
   *
   * @param verdict {@code SAME}, {@code CHANGED} or {@code FAILED} once done; {@code null} before and for a missing case
   * @param result both sides, the checks, the marks and the error; {@code null} until the case is done
   */
  public record CaseView(int caseNo, String recordedRun, DataSetCase dataCase, String runId, String status,
      String verdict, CaseResult result) {

    static CaseView of(CaseRow row) {
      return new CaseView(row.caseNo(), row.recordedRun(),
          row.dataCase() == null ? null : EvaluationJson.read(row.dataCase(), DataSetCase.class), row.runId(),
          row.status().name(), row.verdict() == null ? null : row.verdict().name(),
          row.result() == null ? null : EvaluationJson.read(row.result(), CaseResult.class));
    }
  }

  /** The evaluation in a list: without its cases, with the summary it ended with ({@code null} while it runs). */
  static EvaluationView listed(EvaluationRow row) {
    return new EvaluationView(row.id(), row.agentKey(), row.candidateVersion(), row.status().name(), row.reason(),
        row.createdBy(), row.createdAt(), row.endedAt(), row.promotion(),
        row.summary() == null ? null : EvaluationJson.read(row.summary(), Summary.class), List.of());
  }

  static EvaluationView of(EvaluationRow row, List<CaseRow> cases) {
    return new EvaluationView(row.id(), row.agentKey(), row.candidateVersion(), row.status().name(), row.reason(),
        row.createdBy(), row.createdAt(), row.endedAt(), row.promotion(), Summary.of(cases),
        cases.stream().map(CaseView::of).toList());
  }
}
