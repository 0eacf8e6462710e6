package dev.agentloop.review;

import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.agent.Steps;
import dev.agentloop.resume.Continuation;
import dev.agentloop.resume.InvalidEditException;
import dev.agentloop.resume.ResumeConflictException;
import dev.agentloop.resume.ResumeService;
import dev.agentloop.resume.UnknownStepException;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;

/**
 * {@code reviewAnswer}: accept the final answer, regenerate it (a new attempt from the state before
 * it; the earlier answer stays stored, superseded), give feedback the agent continues with, or edit
 * a step of the path that led to it: the form lists the steps ({@code steps}), the reviewer names
 * one ({@code editStep}), types its new content ({@code editContent}) and why ({@code editReason}).
 * The edit is the same trace surgery as the resume API's; the diagram's gateway {@code resumeAt}
 * takes the run to {@code think}, {@code act} or {@code approveAction}.
 */
class AnswerReview implements Review {

  static final List<String> DECISIONS = List.of("accept", "regenerate", "feedback", "edit");

  private final StepStore store;
  private final Supplier<ResumeService> resume;

  AnswerReview(StepStore store, Supplier<ResumeService> resume) {
    this.store = store;
    this.resume = resume;
  }

  @Override
  public void prepare(ReviewTask task) {
    task.put("answer", latestAnswer(task).text("text"));
    task.put("decision", "accept");
    task.put("feedback", "");
    List<Step> path = store.activePath(task.runId());
    task.put("steps", path.subList(0, path.size() - 1).stream().map(StepText::line)
        .collect(Collectors.joining("\n")));
    task.put("editStep", null);
    task.put("editContent", "");
    task.put("editReason", "");
  }

  @Override
  public String decide(ReviewTask task) {
    String decision = task.decision(DECISIONS);
    RunRecord run = store.run(task.runId());
    switch (decision) {
      case "regenerate" -> store.rewind(run.head(), latestAnswer(task).parentNo());
      case "feedback" -> {
        if (task.text("feedback").isEmpty()) {
          throw new ReviewException("write the feedback the agent should continue with");
        }
        store.append(run.head(), List.of(Steps.humanInput(task.text("feedback"), task.actor(), "answer feedback")),
            Usage.NONE);
      }
      case "edit" -> edit(task);
      default -> { }
    }
    return decision;
  }

  private void edit(ReviewTask task) {
    Step step = store.findStep(task.runId(), stepNumber(task.text("editStep")))
        .orElseThrow(() -> new ReviewException("there is no step " + task.text("editStep") + " to edit"));
    String reason = task.text("editReason").isEmpty() ? "edited in answer review" : task.text("editReason");
    Continuation next;
    try {
      next = resume.get().editInFlow(task.runId(), step.stepNo(), StepText.content(step, task.text("editContent")), reason,
          task.actor());
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

  private Step latestAnswer(ReviewTask task) {
    return store.latestActive(task.runId(), StepKind.FINAL_ANSWER)
        .orElseThrow(() -> new IllegalStateException("run " + task.runId() + " has no answer to review"));
  }
}
