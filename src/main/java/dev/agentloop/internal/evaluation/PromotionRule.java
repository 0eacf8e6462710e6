package dev.agentloop.internal.evaluation;

import java.util.Optional;

/**
 * When an evaluation's candidate may become its agent's version: once, after the evaluation is done, with no case
 * failed and at least one that ran. The rule only; {@link Evaluations} applies it and claims the promotion.
 */
final class PromotionRule {

  private PromotionRule() {
  }

  /** Why the evaluation cannot be promoted, in words that say what to do; empty where it can. */
  static Optional<String> refusal(EvaluationRow row, Summary summary) {
    if (row.promotion() != null) {
      return Optional.of("it was promoted already, by " + row.promotion().by() + " as version "
          + row.promotion().version());
    }
    if (row.status() != EvaluationStatus.DONE) {
      return Optional.of("it is " + row.status().name().toLowerCase() + "; promote it once it is done");
    }
    if (summary.failed() > 0) {
      return Optional.of(summary.failed() + " of its " + summary.cases() + " cases failed; change the candidate and"
          + " evaluate it anew");
    }
    if (summary.same() + summary.changed() == 0) {
      return Optional.of("none of its cases ran (their recorded runs are gone); evaluate it on other runs");
    }
    return Optional.empty();
  }
}
