package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.api.RunView;
import java.math.BigDecimal;

/**
 * One side of a case, the recorded run's or the candidate's: how it ended, what it answered, and what it cost.
 *
 * @param outcome the run's status, e.g. {@code ANSWERED}, {@code STOPPED}
 * @param answer the newest final answer, or {@code null}
 * @param answerData the answer's fields where the agent declares an answer schema, else {@code null}
 * @param steps the steps on its active path
 * @param cost what its model calls cost by the price table, {@code null} without prices
 */
public record CaseSide(String runId, String outcome, String statusReason, String answer, JsonNode answerData,
    int steps, int modelCalls, int toolCalls, long tokens, BigDecimal cost, String currency) {

  static CaseSide of(RunView run) {
    return new CaseSide(run.id(), run.status().name(), run.statusReason(), run.finalAnswer(), AnswerFields.of(run),
        run.steps(), run.modelCalls(), run.toolCalls(), run.tokens(), run.money() == null ? null : run.money().amount(),
        run.money() == null ? null : run.money().currency());
  }
}
