package dev.agentloop.internal.agent.loop;

import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepReads;
import dev.agentloop.internal.trace.step.Action;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds tool calls that would repeat a side effect of an abandoned branch: once a person edited a
 * run, a call of a side-effecting tool that already ran on a superseded branch (an e-mail sent,
 * a ticket opened) is marked, so that it waits for approval whatever the tool's normal setting.
 * Costs a query only for turns that call side-effecting tools. Thread-safe.
 */
public class RepeatedSideEffects {

  private final StepReads store;
  private final ToolRegistry tools;

  public RepeatedSideEffects(StepReads store, ToolRegistry tools) {
    this.store = store;
    this.tools = tools;
  }

  /** The calls, each marked when its tool already ran on a superseded branch of the run. */
  public List<Action> mark(String runId, List<Action> actions, Collection<Step> alsoAbandoned) {
    Set<String> sideEffecting = actions.stream().map(Action::tool).filter(this::hasSideEffects)
        .collect(Collectors.toSet());
    if (sideEffecting.isEmpty()) {
      return actions;
    }
    Map<String, Integer> lastRun = new HashMap<>();
    store.supersededRunsOf(runId, sideEffecting).forEach(step -> lastRun.put(step.author(), step.stepNo()));
    alsoAbandoned.stream().filter(step -> sideEffecting.contains(step.author()))
        .forEach(step -> lastRun.merge(step.author(), step.stepNo(), Math::max));
    return actions.stream()
        .map(action -> lastRun.containsKey(action.tool()) ? action.repeating(lastRun.get(action.tool())) : action)
        .toList();
  }

  /** Whether a step is the observation of a side-effecting tool that ran (its author is the tool). */
  public boolean isSideEffect(Step step) {
    return step.kind() == StepKind.OBSERVATION && hasSideEffects(step.author());
  }

  ModelTurn mark(String runId, ModelTurn turn) {
    return turn.actions().isEmpty() ? turn : turn.withActions(mark(runId, turn.actions(), List.of()));
  }

  private boolean hasSideEffects(String tool) {
    return tools.find(tool).map(AgentTool::sideEffects).orElse(false);
  }
}
