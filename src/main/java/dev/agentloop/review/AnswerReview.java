package dev.agentloop.review;

import dev.agentloop.agent.Steps;
import dev.agentloop.trace.FinalAnswer;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code reviewAnswer}: accept the final answer, regenerate it (a new attempt from the state before
 * it; the earlier answer stays stored, superseded), give feedback the agent continues with, or edit
 * a step of the path that led to it ({@link FormStepEdit}). The form shows the steps that led to the
 * answer whole ({@code steps}), which attempt this answer is ({@code attempt}) and the earlier ones
 * ({@code earlierAnswers}).
 * The edit is the same trace surgery as the resume API's; the diagram's gateway {@code resumeAt}
 * takes the run to {@code think}, {@code act} or {@code approveAction}.
 */
class AnswerReview implements Review {

  /** What the reviewer decided; the gateway after the review takes it. */
  enum Decision { ACCEPT, REGENERATE, FEEDBACK, EDIT }

  private final StepStore store;
  private final FormStepEdit stepEdit;

  AnswerReview(StepStore store, FormStepEdit stepEdit) {
    this.store = store;
    this.stepEdit = stepEdit;
  }

  @Override
  public void prepare(ReviewTask task) {
    Step answer = latestAnswer(task);
    task.putShown("answer", text(answer), false);
    task.put("decision", ReviewTask.value(Decision.ACCEPT));
    task.put("feedback", "");
    List<Step> path = store.activePath(task.runId());
    task.putShown("steps", path.subList(0, path.size() - 1).stream()
        .map(step -> StepText.heading(step) + "\n" + StepText.body(step)).collect(Collectors.joining("\n\n")), true);
    List<Step> earlier = store.allSteps(task.runId()).stream()
        .filter(step -> step.kind() == StepKind.FINAL_ANSWER && step.stepNo() != answer.stepNo()).toList();
    task.put("attempt", earlier.size() + 1);
    task.putShown("earlierAnswers", earlier.stream()
        .map(step -> "Answer " + (earlier.indexOf(step) + 1) + " (#" + step.stepNo() + "):\n" + text(step))
        .collect(Collectors.joining("\n\n")), true);
    stepEdit.prepare(task);
  }

  @Override
  public Decided decide(ReviewTask task) {
    Decision decision = task.decision(Decision.class);
    RunRecord run = store.run(task.runId());
    Step answer = latestAnswer(task);
    switch (decision) {
      case REGENERATE -> store.rewind(run.head(), answer.parentNo());
      case FEEDBACK -> {
        if (task.text("feedback").isEmpty()) {
          throw new ReviewException("write the feedback the agent should continue with");
        }
        store.append(run.head(), List.of(Steps.humanInput(task.text("feedback"), task.actor(), "answer feedback")),
            Usage.NONE);
      }
      case EDIT -> stepEdit.apply(task, "edited in answer review");
      case ACCEPT -> { }
    }
    return new Decided(decision, answer.stepNo(),
        decision == Decision.EDIT ? task.text("editReason") : task.text("feedback"));
  }

  private static String text(Step answer) {
    return ((FinalAnswer) answer.content()).text();
  }

  private Step latestAnswer(ReviewTask task) {
    return store.latestActive(task.runId(), StepKind.FINAL_ANSWER)
        .orElseThrow(() -> new IllegalStateException("run " + task.runId() + " has no answer to review"));
  }
}
