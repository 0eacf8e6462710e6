package dev.agentloop.internal.trace.step;


/** A HUMAN_INPUT step: a note, feedback or answer of a person, for the model to read. */
public record HumanInput(String text) implements StepContent {

  public HumanInput {
    text = StepContent.orEmpty(text);
  }

  @Override
  public StepKind kind() {
    return StepKind.HUMAN_INPUT;
  }
}
