package dev.agentloop.internal.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A case as its table keeps it.
 *
 * @param recordedRun the run it replays, or {@code null} for a data-set case
 * @param dataCase the data-set case as JSON, or {@code null} for a recorded run
 * @param runId the candidate's run, once started
 * @param result what it came to as JSON ({@link CaseResult}), once done
 */
record CaseRow(String evaluationId, int caseNo, String recordedRun, String dataCase, String runId, CaseStatus status,
    Verdict verdict, String result) {

  CaseRow {
    Objects.requireNonNull(evaluationId, "evaluationId");
    Objects.requireNonNull(status, "status");
    if ((recordedRun == null) == (dataCase == null)) {
      throw new IllegalArgumentException("a case replays a recorded run or plays a data-set case, one of the two");
    }
  }

  /** The cases of a request as they are queued: its recorded runs first, then its data-set cases, numbered from 1. */
  static List<CaseRow> queued(String id, EvaluationRequest request) {
    List<CaseRow> cases = new ArrayList<>();
    for (String run : request.runs()) {
      cases.add(new CaseRow(id, cases.size() + 1, run, null, null, CaseStatus.QUEUED, null, null));
    }
    for (DataSetCase data : request.cases()) {
      cases.add(new CaseRow(id, cases.size() + 1, null, EvaluationJson.write(data), null, CaseStatus.QUEUED, null,
          null));
    }
    return cases;
  }
}
