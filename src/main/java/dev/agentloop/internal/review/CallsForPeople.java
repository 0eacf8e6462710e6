package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.resume.InFlowChanges;
import dev.agentloop.internal.trace.step.Action;
import java.util.List;
import java.util.function.Supplier;

/** The tool calls of a run's current turn that wait for a person, and how their answer is written. */
class CallsForPeople {

  private final Supplier<InFlowChanges> changes;

  CallsForPeople(Supplier<InFlowChanges> changes) {
    this.changes = changes;
  }

  List<Action> of(RunState run) {
    return Turn.newest(run.activePath()).open();
  }

  Action single(RunState run, String tool) {
    return of(run).stream().filter(action -> action.tool().equals(tool)).findFirst()
        .orElseThrow(() -> new IllegalStateException("run " + run.runId() + " has no pending call of " + tool));
  }

  RunState write(RunState run, NewStep step) {
    return changes.get().append(run, List.of(step));
  }
}
