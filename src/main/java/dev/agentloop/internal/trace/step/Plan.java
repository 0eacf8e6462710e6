package dev.agentloop.internal.trace.step;

import java.util.List;

/**
 * A PLAN step: the steps the agent means to take, written by the planner or edited by a person.
 *
 * @param reasoning what a reasoning model thought before it planned, or {@code ""}
 * @param stopReason why the model stopped writing, as its provider said it, or {@code ""} when unknown
 *     or a person wrote the plan
 */
public record Plan(List<String> steps, String reasoning, String stopReason) implements StepContent {

  public Plan {
    steps = List.copyOf(steps);
    reasoning = StepContent.orEmpty(reasoning);
    stopReason = StepContent.orEmpty(stopReason);
  }

  public Plan(List<String> steps, String reasoning) {
    this(steps, reasoning, "");
  }

  public Plan(List<String> steps) {
    this(steps, "");
  }

  @Override
  public StepKind kind() {
    return StepKind.PLAN;
  }
}
