package dev.agentloop.review;

import dev.agentloop.agent.loop.LoopStateReader;
import dev.agentloop.agent.loop.Turn;
import dev.agentloop.trace.Appended;
import dev.agentloop.trace.NewStep;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import dev.agentloop.trace.step.Action;
import java.util.List;

/** The tool calls of a run's current turn that wait for a person, and how their answer is written. */
class CallsForPeople {

  private final StepStore store;
  private final LoopStateReader reader;

  CallsForPeople(StepStore store, LoopStateReader reader) {
    this.store = store;
    this.reader = reader;
  }

  List<Action> of(String runId) {
    return reader.read(runId, Turn.WINDOW).turn().open();
  }

  Action single(String runId, String tool) {
    return of(runId).stream().filter(action -> action.tool().equals(tool)).findFirst()
        .orElseThrow(() -> new IllegalStateException("run " + runId + " has no pending call of " + tool));
  }

  Appended write(String runId, NewStep step) {
    return store.append(store.run(runId).head(), List.of(step), Usage.NONE);
  }
}
