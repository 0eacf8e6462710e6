package dev.agentloop.internal.events;

import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.StepKind;
import java.io.IOException;

/**
 * A follower's cursor in its run, and the events that bring it from there to how the run stands now: "resumed" when
 * the run left a wait, the steps written after the cursor's step (with a final answer's text), then the run's state
 * when it differs from the cursor's. The cursor moves past each event as it is sent. Not thread-safe: its follower
 * calls it under its own lock.
 */
final class RunChanges {

  /** Where the events go, one at a time, in order. */
  @FunctionalInterface
  interface Sender {
    void send(RunEvent event) throws IOException;
  }

  private final String runId;
  private final StepStore store;
  private final RunService runs;
  private EventCursor cursor;

  RunChanges(String runId, EventCursor from, StepStore store, RunService runs) {
    this.runId = runId;
    this.cursor = from;
    this.store = store;
    this.runs = runs;
  }

  /** Sends what is new in {@code moment} since the cursor, moving the cursor past it. */
  void sendSince(RunMoment moment, Sender out) throws IOException {
    String state = moment.state();
    // a run that left its wait wrote the steps read now after it went on: "resumed" comes before them
    if (!state.equals(cursor.state()) && leftWait(state)) {
      cursor = cursor.inState(RunMoment.RUNNING);
      out.send(new RunEvent.Resumed(cursor, runId));
    }
    if (moment.stepCount() > cursor.step()) {
      for (Step step : store.stepsAfter(runId, cursor.step())) {
        sendStep(step, out);
      }
    }
    if (!state.equals(cursor.state())) {
      changeState(moment, state, out);
    }
  }

  private void sendStep(Step step, Sender out) throws IOException {
    cursor = cursor.afterStep(step.stepNo());
    out.send(RunEvent.StepAppended.of(step, cursor));
    if (step.kind() == StepKind.FINAL_ANSWER && step.isActive()
        && step.content() instanceof FinalAnswer answer) {
      out.send(new RunEvent.Answer(cursor, runId, step.stepNo(), step.turn(), answer.text()));
    }
  }

  /** Whether the run was waiting for a person or an operator, and now is not (nor has it ended). */
  private boolean leftWait(String state) {
    char before = cursor.state().charAt(0);
    return (before == 'W' || before == 'F') && state.charAt(0) != 'E';
  }

  private void changeState(RunMoment moment, String state, Sender out) throws IOException {
    char now = state.charAt(0);
    cursor = cursor.inState(state);
    if (now == 'W') {
      out.send(new RunEvent.Waiting(cursor, runId, moment.waitingFor(), moment.tasks()));
    } else if (now == 'F') {
      out.send(new RunEvent.Failed(cursor, runId, moment.incident()));
    } else if (now == 'E') {
      RunView view = runs.view(runId);
      out.send(new RunEvent.Ended(cursor, runId, view.status(), view.statusReason(), view.endedBy(),
          view.finalAnswer()));
    }
  }
}
