package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.RuntimeService;

/**
 * Stops a run a person ends: its open calls answered as never run, the person's note appended, the run ended
 * through its diagram's {@code stopped} end event (or its instance deleted where there is none and nothing called
 * it). Apart from edits and regenerates because a stop ends the run instead of moving it in its loop. A call a
 * remote worker holds when the run stops counts as a tool call of the run: the tool received it, and its answer,
 * which comes after the task is gone, is refused by the engine. Thread-safe.
 */
final class RunStops {

  private final RuntimeService runtime;
  private final ExternalTaskService externalTasks;
  private final StepStore store;
  private final LoopJump jump;
  private final RunChanges changes;
  private final DecisionLog decisions;
  private final DecisionSpans spans;

  RunStops(RuntimeService runtime, ExternalTaskService externalTasks, StepStore store, LoopJump jump, RunChanges changes,
      DecisionLog decisions, DecisionSpans spans) {
    this.runtime = runtime;
    this.externalTasks = externalTasks;
    this.store = store;
    this.jump = jump;
    this.changes = changes;
    this.decisions = decisions;
    this.spans = spans;
  }

  /** {@link ResumeService#stop}; the reason and access were checked. */
  void stop(String runId, String reason, String author) {
    changes.apply(runId, () -> {
      RunState state = changes.unfinishedState(runId, "be stopped");
      RunRecord run = state.run();
      if (run.head().headStep() != null) {
        decisions.record(runId, run.head().headStep(), "stop", author, reason);
      }
      // while the run still has its trace context: it ends here
      spans.decided(runId, "stop", author, reason);
      String stopped = "stopped by " + author + ": " + reason;
      List<NewStep> steps = new ArrayList<>();
      Turn.newest(state.activePath()).open().forEach(call -> steps.add(Steps.observation(
          Observation.error(call, "no result: the run was " + stopped), Steps.AGENTLOOP)));
      steps.add(Steps.humanInput("Stopped: " + reason, author, "run stopped"));
      store.append(run.head(), steps, new Usage(0, remoteCallsUnderWay(runId), 0));
      runtime.setVariables(runId, ReactAgentProcess.STATUS_REASON.with(stopped));
      if (!jump.end(runId, ReactAgentProcess.STOPPED)) {
        requireNoCaller(runId);
        runtime.deleteProcessInstance(runId, stopped, false, true);
        store.markEnded(runId, RunStatus.STOPPED, stopped);
      }
      return null;
    });
  }

  /** The run's calls of remote tools that a worker has fetched and not yet answered. */
  private int remoteCallsUnderWay(String runId) {
    return (int) externalTasks.createExternalTaskQuery().processInstanceId(runId)
        .activityId(ReactAgentProcess.CALL_REMOTE_TOOL).locked().count();
  }

  private void requireNoCaller(String runId) {
    if (runtime.createProcessInstanceQuery().subProcessInstanceId(runId).count() > 0) {
      throw new ResumeConflictException("run " + runId + " was started by another process, and its diagram has no"
          + " end event '" + ReactAgentProcess.STOPPED + "' to end through: stopping it would delete the calling"
          + " process too. Add that end event to the agent's diagram, or stop the calling process");
    }
  }
}
