package dev.agentloop.internal.trace.step;


/**
 * A FINAL_ANSWER step: the model's answer to the run's question; it ends the loop.
 *
 * @param reasoning what a reasoning model thought before it answered, or {@code ""}
 * @param stopReason why the model stopped writing, as its provider said it, or {@code ""} when unknown
 */
public record FinalAnswer(String text, String reasoning, String stopReason) implements StepContent {

  public FinalAnswer {
    text = StepContent.orEmpty(text);
    reasoning = StepContent.orEmpty(reasoning);
    stopReason = StepContent.orEmpty(stopReason);
  }

  public FinalAnswer(String text, String reasoning) {
    this(text, reasoning, "");
  }

  public FinalAnswer(String text) {
    this(text, "");
  }

  @Override
  public StepKind kind() {
    return StepKind.FINAL_ANSWER;
  }
}
