package dev.agentloop.internal.evaluation;

import java.math.BigDecimal;
import java.util.List;

/**
 * What an evaluation's cases came to, counted: verdicts, cases missing or still to come, what the recorded runs and the
 * candidate's runs used (the candidate's apart from every person's runs), and what the judge's calls used.
 *
 * @param pending cases queued or running
 * @param currency of the costs, {@code null} without a price table
 */
public record Summary(int cases, int same, int changed, int failed, int missing, int pending, Totals recorded,
    Totals candidate, CaseResult.JudgeUse judge, String currency) {

  /** What runs used together; cost {@code null} without prices. */
  public record Totals(int runs, int modelCalls, int toolCalls, long tokens, BigDecimal cost) {

    static final Totals NONE = new Totals(0, 0, 0, 0, null);

    Totals plus(CaseSide side) {
      if (side == null) {
        return this;
      }
      BigDecimal sum = side.cost() == null ? cost : cost == null ? side.cost() : cost.add(side.cost());
      return new Totals(runs + 1, modelCalls + side.modelCalls(), toolCalls + side.toolCalls(), tokens + side.tokens(),
          sum);
    }
  }

  static Summary of(List<CaseRow> cases) {
    int same = 0;
    int changed = 0;
    int failed = 0;
    int missing = 0;
    int pending = 0;
    Totals recorded = Totals.NONE;
    Totals candidate = Totals.NONE;
    CaseResult.JudgeUse judge = CaseResult.JudgeUse.NONE;
    String currency = null;
    for (CaseRow row : cases) {
      if (row.status() == CaseStatus.MISSING) {
        missing++;
      } else if (row.status() != CaseStatus.DONE) {
        pending++;
      } else {
        same += row.verdict() == Verdict.SAME ? 1 : 0;
        changed += row.verdict() == Verdict.CHANGED ? 1 : 0;
        failed += row.verdict() == Verdict.FAILED ? 1 : 0;
      }
      if (row.result() != null) {
        CaseResult result = EvaluationJson.read(row.result(), CaseResult.class);
        recorded = recorded.plus(result.recorded());
        candidate = candidate.plus(result.candidate());
        judge = judge.plus(result.judge());
        currency = currency != null ? currency : result.candidate() != null && result.candidate().currency() != null
            ? result.candidate().currency() : result.recorded() != null ? result.recorded().currency() : null;
      }
    }
    return new Summary(cases.size(), same, changed, failed, missing, pending, recorded, candidate, judge, currency);
  }
}
