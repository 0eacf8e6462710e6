package dev.agentloop.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One turn of a conversation: a question and the answer the agent gave to it. The first turn's
 * question is the run's own; every later one is a follow-up step of the trace.
 *
 * @param number 1 for the run's question, then one more per follow-up
 * @param question what was asked
 * @param answer the newest answer on the active path, or {@code null} while there is none
 * @param status how the turn stands
 * @param askedBy who asked: the user who started the run or sent the follow-up, {@code null} where unknown
 * @param questionStep the follow-up step that opened the turn, {@code null} for the first turn
 * @param answerStep the step of {@code answer}, or {@code null}
 * @param costs what the turn's calls cost: those of its steps on the active path, and those of the branches
 *     superseded within it (earlier answers; the later turns a regeneration of it took off the path)
 * @param answerData the fields of {@code answer} where the run has an answer schema, else {@code null}
 */
public record ConversationTurn(int number, String question, String answer, Status status, String askedBy,
    Integer questionStep, Integer answerStep, RunCosts costs, JsonNode answerData) {

  /** How a turn stands. */
  public enum Status {
    /** The agent works on it, or its answer waits for review. */
    IN_PROGRESS,
    /** Its answer was accepted. */
    ANSWERED,
    /** The run ended without an accepted answer to it (rejected, stopped, cancelled). */
    UNANSWERED
  }

  public ConversationTurn {
    if (number < 1) {
      throw new IllegalArgumentException("number must be at least 1, was " + number);
    }
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(status, "status");
    costs = costs == null ? RunCosts.NONE : costs;
  }
}
