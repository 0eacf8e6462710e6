package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.List;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/** Reads a {@link LoopState} with a few indexed queries and no transaction, unless it was handed on. */
public class LoopStateReader {

  private final StepStore store;

  public LoopStateReader(StepStore store) {
    this.store = store;
  }

  /**
   * The state handed on by the previous step of the run, or else read from the step store: also when the run was
   * written past it since (in the same completion, a follow-up asked again after an accepted answer), where the
   * handed-on state would have the task write against a stale head, and its model call be made twice.
   */
  LoopState read(LockedExternalTask task, LoopState carried, int window) {
    if (carried != null && carried.run().runId().equals(task.getProcessInstanceId())
        && !store.movedPast(carried.run().head())) {
      return carried;
    }
    return read(task.getProcessInstanceId(), window);
  }

  public LoopState read(String runId, int window) {
    RunRecord run = store.run(runId);
    List<Step> recent = store.recentPath(runId, window);
    boolean truncated = !recent.isEmpty() && recent.get(0).parentNo() != null;
    Step followUp = recent.stream().filter(s -> s.content() instanceof FollowUp).reduce((a, b) -> b)
        .orElseGet(() -> truncated ? store.latestFollowUp(runId).orElse(null) : null);
    Step plan = recent.stream().filter(s -> s.kind() == StepKind.PLAN).reduce((a, b) -> b)
        .orElseGet(() -> recent.size() < window ? null : store.latestActive(runId, StepKind.PLAN).orElse(null));
    if (plan != null && followUp != null && plan.stepNo() < followUp.stepNo()) {
      plan = null; // an earlier turn's plan: the current turn has none yet
    }
    int attempt = run.head().headStep() == null ? 0
        : store.countChildren(runId, run.head().headStep(), StepKind.FINAL_ANSWER);
    return new LoopState(run, plan, recent, truncated, attempt, followUp);
  }
}
