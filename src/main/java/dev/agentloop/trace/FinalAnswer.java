package dev.agentloop.trace;

/**
 * A FINAL_ANSWER step: the model's answer to the run's question; it ends the loop.
 *
 * @param reasoning what a reasoning model thought before it answered, or {@code ""}
 */
public record FinalAnswer(String text, String reasoning) implements StepContent {

  public FinalAnswer {
    text = StepContent.orEmpty(text);
    reasoning = StepContent.orEmpty(reasoning);
  }

  public FinalAnswer(String text) {
    this(text, "");
  }

  @Override
  public StepKind kind() {
    return StepKind.FINAL_ANSWER;
  }
}
