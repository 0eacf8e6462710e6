package dev.agentloop.internal.trace.step;


/**
 * A HUMAN_INPUT step that opens a new turn of a conversation: the next question, asked by the
 * person or client who is its author after the previous answer was accepted. The run's first
 * question is the run's own ({@link dev.agentloop.internal.trace.RunRecord#question()}); every later one is a step like this.
 */
public record FollowUp(String text) implements StepContent {

  public FollowUp {
    text = StepContent.orEmpty(text);
  }

  @Override
  public StepKind kind() {
    return StepKind.HUMAN_INPUT;
  }
}
