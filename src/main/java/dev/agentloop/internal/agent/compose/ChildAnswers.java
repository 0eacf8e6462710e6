package dev.agentloop.internal.agent.compose;

import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepReads;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.Observation;
import java.util.List;

/**
 * What a child run came to, as its caller's observation of the call: the child's final answer, or why there is none,
 * in words — a person rejected its plan, it was stopped (by a person, or by AgentLoop because it failed or ran out of
 * time, with that reason), it ended without saying which run answered. Thread-safe.
 */
final class ChildAnswers {

  private final StepReads store;

  ChildAnswers(StepReads store) {
    this.store = store;
  }

  /** The observation of a call that this child run answers, for a child started again after an edit. */
  Observation observationOf(Observation call, String childRun, AgentSettings settings) {
    Action action = new Action(call.callId(), call.tool(), null, null, null);
    return observation(action, childRun, settings).ofChildRun(childRun);
  }

  /** @param childRun {@code null}: a child that ended without saying which run it was */
  Observation observation(Action call, String childRun, AgentSettings settings) {
    if (childRun == null) {
      return Observation.error(call, "the agent '" + call.tool() + "' ended without saying which run answered: its"
          + " diagram's end events must be AgentLoop's (answered, rejected, stopped)");
    }
    RunRecord run = store.run(childRun);
    String reason = run.statusReason() == null || run.statusReason().isBlank() ? "" : ": " + run.statusReason();
    if (run.status() == RunStatus.REJECTED) {
      return Observation.error(call, "the agent '" + call.tool() + "' did not answer: a person rejected its plan"
          + reason, "rejected");
    }
    if (run.status() == RunStatus.STOPPED || run.status() == RunStatus.CANCELLED) {
      return Observation.error(call, "the agent '" + call.tool() + "' did not answer: its run was stopped" + reason,
          "stopped");
    }
    String answer = finalAnswer(childRun);
    int limit = settings.prompt().maxStepChars();
    return Observation.result(call, answer.length() <= limit ? answer
        : answer.substring(0, limit) + "\n[cut: " + (answer.length() - limit) + " more characters]");
  }

  private String finalAnswer(String runId) {
    List<Step> path = store.activePath(runId);
    for (int i = path.size() - 1; i >= 0; i--) {
      if (path.get(i).kind() == StepKind.FINAL_ANSWER) {
        return ((FinalAnswer) path.get(i).content()).text();
      }
    }
    return "";
  }
}
