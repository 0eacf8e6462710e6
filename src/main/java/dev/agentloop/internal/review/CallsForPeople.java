package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.internal.trace.Appended;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import java.util.List;

/** The tool calls of a run's current turn that wait for a person, and how their answer is written. */
class CallsForPeople {

  private final StepStore store;

  CallsForPeople(StepStore store) {
    this.store = store;
  }

  List<Action> of(RunState run) {
    return Turn.newest(run.activePath()).open();
  }

  Action single(RunState run, String tool) {
    return of(run).stream().filter(action -> action.tool().equals(tool)).findFirst()
        .orElseThrow(() -> new IllegalStateException("run " + run.runId() + " has no pending call of " + tool));
  }

  Appended write(RunState run, NewStep step) {
    return store.append(run.head(), List.of(step), Usage.NONE);
  }
}
