package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.ReplayQueue;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.RuntimeService;

/**
 * Edits of a step: its replacement written as a new branch, and the run moved to where the edited step lets it go
 * on (from the API), or told where (from a review form). Apart from regenerating and stopping because only an edit
 * takes new content, checks it against the step it replaces and asks the later turns of a conversation again.
 * Thread-safe.
 */
final class StepEdits {

  private final RuntimeService runtime;
  private final TraceSurgery surgery;
  private final EditedContent contents;
  private final LoopJump jump;
  private final RunChanges changes;
  private final DecisionSpans spans;

  StepEdits(RuntimeService runtime, TraceSurgery surgery, EditedContent contents, LoopJump jump,
      RunChanges changes, DecisionSpans spans) {
    this.runtime = runtime;
    this.surgery = surgery;
    this.contents = contents;
    this.jump = jump;
    this.changes = changes;
    this.spans = spans;
  }

  /**
   * {@link ResumeService#edit} of a run that has not ended, its state read once and locked; empty, with nothing
   * changed, when the run has ended (a finished child run is started again for its caller instead). Access was checked.
   */
  Optional<ResumeResult> edit(StepEdit edit) {
    Optional<ResumeResult> edited = changes.apply(edit.runId(), () -> {
      RunState state = changes.lockedState(edit.runId());
      if (state.run().status().isFinished()) {
        return Optional.empty();
      }
      RunRecord run = state.run();
      Step original = activeStep(state, edit.stepNo());
      if (run.head().version() != edit.baseVersion()) {
        throw new ResumeConflictException("run " + run.runId() + " moved on since version " + edit.baseVersion()
            + " (it is at version " + run.head().version() + " now): read its trace again and edit on that");
      }
      AgentSettings settings = changes.settings(run.runId());
      TraceSurgery.Outcome outcome = surgery.replace(state,
          original, contents.replacement(original, edit.content(), edit.author(), edit.reason(), settings), settings);
      jump.to(run.runId(), outcome.continuation(), LoopJump.variablesFor(outcome.continuation(), settings));
      List<ReplayQueue.Question> later = TurnRegeneration.laterQuestions(state, original, outcome.superseded());
      if (!later.isEmpty()) {
        TurnRegeneration.queue(runtime, run.runId(), edit.replayLaterTurns() ? later : List.of());
      }
      return Optional.of(outcome.result(run.runId(), original.stepNo()));
    });
    edited.ifPresent(result -> spans.decided(edit.runId(), "edit", edit.author(), edit.reason()));
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

  private static Step activeStep(RunState state, int stepNo) {
    return requireActive(state.step(stepNo)
        .orElseThrow(() -> new UnknownStepException("run " + state.runId() + " has no step " + stepNo)));
  }

  private static Step requireActive(Step step) {
    if (!step.isActive()) {
      throw new ResumeConflictException("step " + step.stepNo() + " of run " + step.runId() + " is on a superseded"
          + " branch; edit a step of the active path (GET /api/runs/" + step.runId() + "/trace)");
    }
    return step;
  }
}
