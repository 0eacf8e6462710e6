package dev.agentloop.review;

import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.resume.Continuation;
import dev.agentloop.resume.InvalidEditException;
import dev.agentloop.resume.ResumeConflictException;
import dev.agentloop.resume.ResumeService;
import dev.agentloop.resume.UnknownStepException;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepStore;
import java.math.BigDecimal;
import java.util.function.Supplier;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;

/**
 * The decision <i>edit a step</i> of a review form (answer review, agent stuck): the person names a
 * step by its number ({@code editStep}), types its new content ({@code editContent}, read by
 * {@link StepText}) and why ({@code editReason}). The trace surgery is the resume API's; the jump
 * back is modelled: the transient variable {@code resumeAt} leads the gateway at the start of the
 * loop to {@code act} or {@code approveAction}, else the loop starts at {@code think}.
 */
class FormStepEdit {

  private final StepStore store;
  private final Supplier<ResumeService> resume;

  /** @param resume supplied late: reviews exist before the engine, the resume service needs it */
  FormStepEdit(StepStore store, Supplier<ResumeService> resume) {
    this.store = store;
    this.resume = resume;
  }

  void prepare(ReviewTask task) {
    task.put("editStep", null);
    task.put("editContent", "");
    task.put("editReason", "");
  }

  /** @throws ReviewException when the edit cannot be applied; nothing is changed */
  void apply(ReviewTask task, String defaultReason) {
    Step step = store.findStep(task.runId(), stepNumber(task.text("editStep")))
        .orElseThrow(() -> new ReviewException("there is no step " + task.text("editStep") + " to edit"));
    String reason = task.text("editReason").isEmpty() ? defaultReason : task.text("editReason");
    Continuation next;
    try {
      next = resume.get().editInFlow(task.runId(), step.stepNo(), StepText.content(step, task.text("editContent")),
          reason, task.actor());
    } catch (InvalidEditException | UnknownStepException | ResumeConflictException e) {
      throw new ReviewException(e.getMessage());
    }
    if (next == Continuation.ASK_HUMAN || (next != Continuation.THINK && !hasResumeGateway(task))) {
      throw new ReviewException("after this edit the run would continue at " + next.elementId() + ", which this"
          + " form cannot lead to; ask an operator to edit the step in Cockpit");
    }
    task.delegate().getExecution().setVariables(ReactAgentProcess.RESUME_AT.transientWith(next.elementId()));
  }

  private static boolean hasResumeGateway(ReviewTask task) {
    return ((ExecutionEntity) task.delegate().getExecution()).getProcessDefinition()
        .findActivity(ReactAgentProcess.RESUME_GATEWAY) != null;
  }

  private static int stepNumber(String text) {
    try {
      return new BigDecimal(text.replace("#", "").strip()).intValueExact();
    } catch (ArithmeticException | NumberFormatException e) {
      throw new ReviewException("name the step to edit by its number (the # in the list), not '" + text + "'");
    }
  }
}
