package dev.agentloop.internal.review;

import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The earlier answers to the question of the turn under review, read from all of a run's steps: those
 * of the turn's own question, and, where the turn was asked again after an earlier turn was redone, those
 * its question had on the branch that redo left (labelled so). Another turn's answers are not among them,
 * whatever their step numbers. Takes the steps as the review read them.
 */
final class TurnAnswers {

  /** The label of an answer given on the branch that a redo of an earlier turn left. */
  static final String BEFORE_REDO = "before an earlier turn was redone";

  /** An earlier answer, and whether it was given on the branch a redo of an earlier turn left. */
  record Earlier(Step answer, boolean beforeRedo) {}

  private TurnAnswers() {}

  /**
   * @param all every step of the run, on any branch, by step number
   * @param answer the answer under review
   * @param turnStart the follow-up that opened the turn under review; {@code null} in the first turn
   */
  static List<Earlier> earlier(List<Step> all, Step answer, Step turnStart) {
    Map<Integer, Step> byNumber = new HashMap<>();
    all.forEach(step -> byNumber.put(step.stepNo(), step));
    int opened = turnStart == null ? 0 : turnStart.stepNo();
    String question = turnStart == null ? null : ((FollowUp) turnStart.content()).text();
    return all.stream()
        .filter(step -> step.kind() == StepKind.FINAL_ANSWER && step.stepNo() != answer.stepNo())
        .map(step -> {
          int opener = opener(step, byNumber);
          if (opener == opened) {
            return new Earlier(step, false);
          }
          Step asked = byNumber.get(opener);
          // the same question on a branch off the path: the turn as it was before it was asked again
          boolean before = question != null && asked != null && !asked.isActive()
              && ((FollowUp) asked.content()).text().equals(question);
          return before ? new Earlier(step, true) : null;
        })
        .filter(Objects::nonNull)
        .toList();
  }

  /** The step number of the follow-up that opened the answer's turn on its branch; 0 for the run's question. */
  private static int opener(Step answer, Map<Integer, Step> byNumber) {
    for (Integer parent = answer.parentNo(); parent != null; ) {
      Step step = byNumber.get(parent);
      if (step == null) {
        return 0;
      }
      if (step.content() instanceof FollowUp) {
        return step.stepNo();
      }
      parent = step.parentNo();
    }
    return 0;
  }
}
