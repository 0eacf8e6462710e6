package dev.agentloop.trace;

/**
 * A THOUGHT step: what the model said with its tool calls (may be empty); it starts a turn.
 *
 * @param reasoning what a reasoning model thought before it replied, or {@code ""}
 */
public record Thought(String text, String reasoning) implements StepContent {

  public Thought {
    text = StepContent.orEmpty(text);
    reasoning = StepContent.orEmpty(reasoning);
  }

  public Thought(String text) {
    this(text, "");
  }

  @Override
  public StepKind kind() {
    return StepKind.THOUGHT;
  }
}
