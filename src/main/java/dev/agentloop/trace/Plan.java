package dev.agentloop.trace;

import java.util.List;

/**
 * A PLAN step: the steps the agent means to take, written by the planner or edited by a person.
 *
 * @param reasoning what a reasoning model thought before it planned, or {@code ""}
 */
public record Plan(List<String> steps, String reasoning) implements StepContent {

  public Plan {
    steps = List.copyOf(steps);
    reasoning = StepContent.orEmpty(reasoning);
  }

  public Plan(List<String> steps) {
    this(steps, "");
  }

  @Override
  public StepKind kind() {
    return StepKind.PLAN;
  }
}
