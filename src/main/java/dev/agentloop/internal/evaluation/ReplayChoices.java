package dev.agentloop.internal.evaluation;

import java.util.Objects;

/**
 * What an evaluation does where the record has no answer: a call of a tool without side effects that was not recorded
 * runs or is refused ({@link #unmatchedCalls}); a review the recorded run never had is accepted or rejected
 * ({@link #newReviews}); a question the candidate asks a person anew gets {@link #askHumanAnswer}. A tool with side
 * effects never runs, whatever is chosen. Immutable.
 */
public record ReplayChoices(UnmatchedCalls unmatchedCalls, NewReviews newReviews, String askHumanAnswer) {

  /** Run what reads only, accept what is new, and tell the agent nobody answers. */
  public static final ReplayChoices DEFAULTS = new ReplayChoices(UnmatchedCalls.RUN, NewReviews.ACCEPT,
      "Nobody answers questions during an evaluation; go on without an answer.");

  /** A call of a tool without side effects that the record does not have. */
  public enum UnmatchedCalls { RUN, REFUSE }

  /** A review the candidate needs and the recorded run never had: plan, approval, answer, a stuck run. */
  public enum NewReviews { ACCEPT, REJECT }

  public ReplayChoices {
    Objects.requireNonNull(unmatchedCalls, "unmatchedCalls");
    Objects.requireNonNull(newReviews, "newReviews");
    if (askHumanAnswer == null || askHumanAnswer.isBlank()) {
      throw new IllegalArgumentException("askHumanAnswer must say what a person would answer, was empty");
    }
  }
}
