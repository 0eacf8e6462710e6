package dev.agentloop.internal.trace.step;


/**
 * A THOUGHT step: what the model said with its tool calls (may be empty); it starts a turn.
 *
 * @param reasoning what a reasoning model thought before it replied, or {@code ""}
 * @param stopReason why the model stopped writing, as its provider said it ({@code "length"} and
 *     {@code "max_tokens"}: cut at the output limit), or {@code ""} when unknown or a person wrote the step
 */
public record Thought(String text, String reasoning, String stopReason) implements StepContent {

  public Thought {
    text = StepContent.orEmpty(text);
    reasoning = StepContent.orEmpty(reasoning);
    stopReason = StepContent.orEmpty(stopReason);
  }

  public Thought(String text, String reasoning) {
    this(text, reasoning, "");
  }

  public Thought(String text) {
    this(text, "");
  }

  @Override
  public StepKind kind() {
    return StepKind.THOUGHT;
  }
}
