package dev.agentloop.internal.review;

import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Approvals;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Steps of a run's path as the evidence of a form shows them: a tool call a person edited or rejected
 * at approval shows what ran (the edited arguments, or that it did not run), with the model's own
 * arguments beside them, so that no reviewer takes the model's arguments for those of the call.
 */
final class PathText {

  private PathText() {}

  /** Each step with its heading and whole text, oldest first, a blank line between. */
  static String whole(List<Step> steps) {
    Map<String, Approval> decided = decided(steps);
    return steps.stream().map(step -> StepText.heading(step) + "\n" + body(step, decided))
        .collect(Collectors.joining("\n\n"));
  }

  /** One line per step, oldest first. */
  static String lines(List<Step> steps) {
    Map<String, Approval> decided = decided(steps);
    return steps.stream().map(step -> step.content() instanceof Action && decided.containsKey(callId(step))
        ? StepText.oneLine(StepText.heading(step) + ": " + body(step, decided)) : StepText.line(step))
        .collect(Collectors.joining("\n"));
  }

  private static String body(Step step, Map<String, Approval> decided) {
    if (!(step.content() instanceof Action action) || !decided.containsKey(action.callId())) {
      return StepText.body(step);
    }
    Approval approval = decided.get(action.callId());
    String by = approval.decidedBy() == null ? "a person" : approval.decidedBy();
    if (approval.rejects()) {
      return StepText.body(step) + "\n(not run: rejected at approval by " + by
          + (approval.reason() == null || approval.reason().isBlank() ? "" : ": " + approval.reason()) + ")";
    }
    return action.tool() + " " + approval.arguments() + "\n(ran with these arguments, edited at approval by " + by
        + "; the model had asked for " + action.argumentsText() + ")";
  }

  /** The edits and rejections at approval among these steps, by call id. */
  private static Map<String, Approval> decided(List<Step> steps) {
    Map<String, Approval> decided = new HashMap<>();
    for (Step step : steps) {
      if (step.content() instanceof Approvals approvals) {
        approvals.approvals().stream().map(approval -> approval.by(step.author()))
            .filter(approval -> approval.rejects()
                || (approval.decision() == Approval.Decision.EDIT && approval.arguments() != null))
            .forEach(approval -> decided.put(approval.callId(), approval));
      }
    }
    return decided;
  }

  private static String callId(Step step) {
    return ((Action) step.content()).callId();
  }
}
