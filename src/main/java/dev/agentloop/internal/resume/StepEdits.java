package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.ReplayQueue;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import java.util.List;
import org.camunda.bpm.engine.RuntimeService;

/**
 * Edits of a step: its replacement written as a new branch, and the run moved to where the edited step lets it go
 * on (from the API), or told where (from a review form). Apart from regenerating and stopping because only an edit
 * takes new content, checks it against the step it replaces and asks the later turns of a conversation again.
 * Thread-safe.
 */
final class StepEdits {

  private final RuntimeService runtime;
  private final StepStore store;
  private final TraceSurgery surgery;
  private final EditedContent contents;
  private final LoopJump jump;
  private final RunChanges changes;
  private final DecisionSpans spans;

  StepEdits(RuntimeService runtime, StepStore store, TraceSurgery surgery, EditedContent contents, LoopJump jump,
      RunChanges changes, DecisionSpans spans) {
    this.runtime = runtime;
    this.store = store;
    this.surgery = surgery;
    this.contents = contents;
    this.jump = jump;
    this.changes = changes;
    this.spans = spans;
  }

  /** {@link ResumeService#edit} of a run that is not a finished child run; access was checked. */
  ResumeResult edit(StepEdit edit) {
    ResumeResult edited = changes.apply(edit.runId(), () -> {
      RunRecord run = changes.unfinished(edit.runId(), "be edited");
      Step original = activeStep(run.runId(), edit.stepNo());
      if (run.head().version() != edit.baseVersion()) {
        throw new ResumeConflictException("run " + run.runId() + " moved on since version " + edit.baseVersion()
            + " (it is at version " + run.head().version() + " now): read its trace again and edit on that");
      }
      AgentSettings settings = changes.settings(run.runId());
      TraceSurgery.Outcome outcome = surgery.replace(run,
          original, contents.replacement(original, edit.content(), edit.author(), edit.reason(), settings), settings);
      jump.to(run.runId(), outcome.continuation(), LoopJump.variablesFor(outcome.continuation(), settings));
      List<ReplayQueue.Question> later = TurnRegeneration.laterQuestions(store, run.runId(), original,
          outcome.superseded());
      if (!later.isEmpty()) {
        TurnRegeneration.queue(runtime, run.runId(), edit.replayLaterTurns() ? later : List.of());
      }
      return outcome.result(run.runId(), original.stepNo());
    });
    spans.decided(edit.runId(), "edit", edit.author(), edit.reason());
    return edited;
  }

  Continuation editInFlow(RunState read, Step original, JsonNode content, String reason, String author) {
    String runId = read.runId();
    RunRecord run = changes.unfinished(runId, "be edited");
    if (run.head().version() != read.head().version()) {
      throw new ResumeConflictException("run " + runId + " changed while the form was submitted (it is at version "
          + run.head().version() + " now, the form read version " + read.head().version() + "): nothing was edited;"
          + " open the task again");
    }
    requireActive(original);
    AgentSettings settings = changes.settings(runId);
    return surgery.replace(read, original, contents.replacement(original, content, author, reason, settings), settings)
        .continuation();
  }

  private Step activeStep(String runId, int stepNo) {
    return requireActive(store.findStep(runId, stepNo)
        .orElseThrow(() -> new UnknownStepException("run " + runId + " has no step " + stepNo)));
  }

  private static Step requireActive(Step step) {
    if (!step.isActive()) {
      throw new ResumeConflictException("step " + step.stepNo() + " of run " + step.runId() + " is on a superseded"
          + " branch; edit a step of the active path (GET /api/runs/" + step.runId() + "/trace)");
    }
    return step;
  }
}
