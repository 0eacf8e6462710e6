package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What one model reply adds to the trace and where the loop goes next.
 *
 * @param finalAnswer the answer text when the model answered, else {@code null}
 * @param leave why the run leaves its loop after this turn, in words for the person who takes it over, else
 *     {@code null}: the reply was cut at its output limit or withheld by the provider (such a turn has neither an
 *     answer nor actions), or its answer broke the answer schema once more than the repairs allow
 */
public record ModelTurn(List<NewStep> steps, List<Action> actions, String finalAnswer, String leave) {

  ModelTurn(List<NewStep> steps, List<Action> actions, String finalAnswer) {
    this(steps, actions, finalAnswer, null);
  }

  /** The same turn with its calls replaced one for one, e.g. marked as repeating a side effect. */
  ModelTurn withActions(List<Action> replaced) {
    if (replaced.size() != actions.size()) {
      throw new IllegalArgumentException("a turn's calls are replaced one for one");
    }
    Iterator<Action> next = replaced.iterator();
    List<NewStep> newSteps = new ArrayList<>(steps.size());
    for (NewStep step : steps) {
      newSteps.add(step.content() instanceof Action ? Steps.action(next.next()) : step);
    }
    return new ModelTurn(newSteps, replaced, finalAnswer, leave);
  }

  /**
   * The same turn with every call refused by an observation, so that none of them runs: the model
   * was offered no tools this turn and called one anyway.
   *
   * @param why what the model is told, after "not run: "
   */
  ModelTurn refusingCalls(String why) {
    if (actions.isEmpty()) {
      return this;
    }
    List<NewStep> all = new ArrayList<>(steps);
    actions.forEach(action -> all.add(Steps.observation(
        Observation.error(action, "not run: " + why, Observation.NOT_OFFERED), Steps.AGENTLOOP)));
    return new ModelTurn(all, List.of(), finalAnswer, leave);
  }
}
