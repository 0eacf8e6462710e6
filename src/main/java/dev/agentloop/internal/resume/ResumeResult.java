package dev.agentloop.internal.resume;

import java.util.List;

/**
 * What an edit or a regenerate did.
 *
 * @param editedStep the step that was replaced (the answer, for a regenerate)
 * @param newStep the step that replaced it, or {@code null} when the run continues from the step before
 * @param version the version of the run's head afterwards, the base of a next edit
 * @param continuesAt the BPMN element the run continues at: {@code think}, {@code act},
 *     {@code approveAction} or {@code askHuman}
 * @param superseded the steps now on an abandoned branch
 * @param sideEffects side-effecting tool calls that had run on the abandoned branch
 */
public record ResumeResult(String runId, int editedStep, Integer newStep, int version, String continuesAt,
    List<Integer> superseded, List<SideEffect> sideEffects) {

  public ResumeResult {
    superseded = List.copyOf(superseded);
    sideEffects = List.copyOf(sideEffects);
  }
}
