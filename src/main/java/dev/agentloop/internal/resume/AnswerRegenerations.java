package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.VariableScope;

/**
 * New attempts at an answer: the newest one, or an earlier turn's with the later turns' questions asked again or
 * dropped, from the API or from a review form. Apart from edits because a regenerate writes no step of its own: it
 * moves the head back before the answer, records the decision and heads the run with the question answered again.
 * Thread-safe.
 */
final class AnswerRegenerations {

  private final RuntimeService runtime;
  private final TraceSurgery surgery;
  private final LoopJump jump;
  private final RunChanges changes;
  private final DecisionLog decisions;
  private final DecisionSpans spans;

  AnswerRegenerations(RuntimeService runtime, TraceSurgery surgery, LoopJump jump, RunChanges changes,
      DecisionLog decisions, DecisionSpans spans) {
    this.runtime = runtime;
    this.surgery = surgery;
    this.jump = jump;
    this.changes = changes;
    this.decisions = decisions;
    this.spans = spans;
  }

  /** {@link ResumeService#regenerate(String, Integer, boolean, String, String)}; access was checked. */
  ResumeResult regenerate(String runId, int turn, boolean replayLaterTurns, String author, String reason) {
    ResumeResult regenerated = changes.apply(runId, () -> {
      RunState run = changes.unfinishedState(runId, "regenerate an answer");
      TurnRegeneration.Target target = TurnRegeneration.target(run, turn);
      TraceSurgery.Outcome outcome = surgery.regenerate(run, target.answer());
      decisions.record(runId, target.answer().stepNo(), "regenerate", author, reason);
      // the new answer's review is headed by the question it answers, not by the newest turn's
      jump.to(runId, outcome.continuation(), ReactAgentProcess.QUESTION.with(target.question()));
      TurnRegeneration.queue(runtime, runId, replayLaterTurns ? target.later() : List.of());
      return outcome.result(runId, target.answer().stepNo());
    });
    spans.decided(runId, "regenerate", author, reason);
    return regenerated;
  }

  Step regenerateInFlow(RunState run, int turn, boolean replayLaterTurns, VariableScope execution) {
    TurnRegeneration.Target target = TurnRegeneration.target(run, turn);
    surgery.regenerate(run, target.answer());
    TurnRegeneration.queue(execution, replayLaterTurns ? target.later() : List.of());
    ReactAgentProcess.QUESTION.set(execution, target.question());
    return target.answer();
  }

  /** The newest answer again, the one the run waits with; access was checked. */
  ResumeResult regenerateNewest(String runId, String author, String reason) {
    ResumeResult regenerated = changes.apply(runId, () -> {
      RunState run = changes.unfinishedState(runId, "regenerate its answer");
      Step head = run.headStep().orElse(null);
      if (head == null || head.kind() != StepKind.FINAL_ANSWER || head.parentNo() == null) {
        throw new ResumeConflictException("run " + runId + " has no final answer to regenerate yet; its newest step"
            + " is " + (head == null ? "none" : head.stepNo() + " (" + head.kind() + ")"));
      }
      TraceSurgery.Outcome outcome = surgery.regenerate(run, head);
      decisions.record(runId, head.stepNo(), "regenerate", author, reason);
      jump.to(runId, outcome.continuation(), Map.of());
      return outcome.result(runId, head.stepNo());
    });
    spans.decided(runId, "regenerate", author, reason);
    return regenerated;
  }
}
