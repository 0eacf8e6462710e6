package dev.agentloop.internal.trace.step;

import java.util.List;

/**
 * A HUMAN_INPUT step that holds people's decisions on the current turn's tool calls, with a line
 * for the model to read.
 */
public record Approvals(String text, List<Approval> approvals) implements StepContent {

  public Approvals {
    text = StepContent.orEmpty(text);
    approvals = List.copyOf(approvals);
  }

  @Override
  public StepKind kind() {
    return StepKind.HUMAN_INPUT;
  }
}
