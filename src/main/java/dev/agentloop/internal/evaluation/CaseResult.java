package dev.agentloop.internal.evaluation;

import java.math.BigDecimal;
import java.util.List;

/**
 * What a case came to, as its row keeps it (JSON) and the API shows it.
 *
 * @param recorded the recorded run's side, {@code null} for a data-set case
 * @param candidate the candidate's side, {@code null} where its run never started
 * @param marks what the replay had to do differently from the record: calls not recorded (run or refused), side effects
 *     not run, reviews asked anew and how they were answered, follow-ups the candidate could not take
 * @param error why the case could not be judged as it should (a run that did not finish, a recorded run gone), or
 *     {@code null}
 * @param judge what the judge's calls for this case cost, {@code null} without a judge
 */
public record CaseResult(CaseSide recorded, CaseSide candidate, List<Check> checks, List<String> marks, String error,
    JudgeUse judge) {

  public CaseResult {
    checks = checks == null ? List.of() : List.copyOf(checks);
    marks = marks == null ? List.of() : List.copyOf(marks);
  }

  /** The judge's calls of a case, or of a whole evaluation. */
  public record JudgeUse(int calls, long tokens, BigDecimal cost) {

    static final JudgeUse NONE = new JudgeUse(0, 0, null);

    JudgeUse plus(JudgeUse other) {
      if (other == null) {
        return this;
      }
      BigDecimal sum = cost == null ? other.cost : other.cost == null ? cost : cost.add(other.cost);
      return new JudgeUse(calls + other.calls, tokens + other.tokens, sum);
    }
  }
}
