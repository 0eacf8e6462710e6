package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.resume.Continuation;
import dev.agentloop.internal.resume.InvalidEditException;
import dev.agentloop.internal.resume.ResumeConflictException;
import dev.agentloop.internal.resume.InFlowChanges;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Approvals;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;

/**
 * The decision <i>edit a step</i> of a review form (answer review, agent stuck). In Tasklist the
 * newest {@value #SLOTS} steps a person may edit each come as their own field, pre-filled with what
 * the step holds ({@code editContent1}…, labelled by {@code editLabel1}…): the person changes the one
 * to edit and says why ({@code editReason}). API clients may instead name a step by its number
 * ({@code editStep}) and send its whole new content ({@code editContent}); both are read by
 * {@link StepText}. The trace surgery is the resume API's; the jump back is modelled: the transient
 * variable {@code resumeAt} leads the gateway at the start of the loop to {@code act} or
 * {@code approveAction}, else the loop starts at {@code think}.
 */
class FormStepEdit {

  /** How many steps the forms offer as their own fields. */
  static final int SLOTS = 8;
  private static final String LABEL = "editLabel";
  private static final String CONTENT = "editContent";

  private final Supplier<InFlowChanges> changes;

  /** @param changes supplied late: reviews exist before the engine, the resume service needs it */
  FormStepEdit(Supplier<InFlowChanges> changes) {
    this.changes = changes;
  }

  void prepare(ReviewTask task, RunState run) {
    task.put("editStep", null);
    task.put(CONTENT, "");
    task.put("editReason", "");
    List<Step> offered = offered(run);
    for (int slot = 1; slot <= SLOTS; slot++) {
      Step step = slot <= offered.size() ? offered.get(slot - 1) : null;
      task.put(LABEL + slot, step == null ? null : StepText.heading(step));
      task.put(CONTENT + slot, step == null ? null : StepText.editable(step));
    }
  }

  /**
   * The steps offered as pre-filled fields: the newest {@value #SLOTS} of the active path that can be
   * edited and fit a form field whole (a field cut short would save the cut as the step's content).
   */
  private static List<Step> offered(RunState run) {
    List<Step> editable = run.activePath().stream()
        .filter(step -> step.kind() != StepKind.FINAL_ANSWER && !(step.content() instanceof Approvals))
        .filter(step -> StepText.editable(step).length() <= ReviewTask.SHOWN_CHARS).toList();
    return editable.subList(Math.max(0, editable.size() - SLOTS), editable.size());
  }

  /** @throws ReviewException when the edit cannot be applied; nothing is changed */
  void apply(ReviewTask task, RunState run, String defaultReason) {
    // the run as the review read it: the slots are compared with it, and the edited step is handed on from it
    Edit edit = task.text("editStep").isEmpty() ? editedSlot(task, run)
        : new Edit(task.text("editStep"), task.text(CONTENT));
    Step step = run.step(stepNumber(edit.step()))
        .orElseThrow(() -> new ReviewException("there is no step " + edit.step() + " to edit"));
    String reason = task.text("editReason").isEmpty() ? defaultReason : task.text("editReason");
    Continuation next;
    try {
      next = changes.get().edit(run, step, StepText.content(step, edit.content()), reason,
          task.actor());
    } catch (InvalidEditException | ResumeConflictException e) {
      throw new ReviewException(e.getMessage());
    }
    if (next == Continuation.ASK_HUMAN || (next != Continuation.THINK && !hasResumeGateway(task))) {
      throw new ReviewException("after this edit the run would continue at " + next.elementId() + ", which this"
          + " form cannot lead to; ask an operator to edit the step in Cockpit");
    }
    task.delegate().getExecution().setVariables(ReactAgentProcess.RESUME_AT.transientWith(next.elementId()));
  }

  /** The one pre-filled field the person changed. */
  private Edit editedSlot(ReviewTask task, RunState run) {
    List<Edit> changed = new ArrayList<>();
    for (int slot = 1; slot <= SLOTS; slot++) {
      String label = task.text(LABEL + slot);
      if (label.isEmpty()) {
        continue;
      }
      Edit edit = new Edit(label.substring(0, label.indexOf(' ')), task.text(CONTENT + slot));
      // a slot whose step left the path since the form was filled is compared all the same: editing it is refused
      // below with the reason, not taken for an unchanged field
      Step step = run.step(stepNumber(edit.step())).orElse(null);
      if (step != null && !StepText.editable(step).strip().equals(edit.content())) {
        changed.add(edit);
      }
    }
    if (changed.size() != 1) {
      throw new ReviewException(changed.isEmpty()
          ? "change the content of the step you want to edit; the others stay as they are"
          : "you changed steps " + changed.stream().map(Edit::step).collect(Collectors.joining(" and "))
              + "; edit one step at a time and leave the others as they were");
    }
    return changed.get(0);
  }

  private record Edit(String step, String content) {}

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
