package dev.agentloop.internal.trace.step;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A FINAL_ANSWER step: the model's answer to the run's question, or a person's edit of its fields; it ends the loop.
 *
 * @param reasoning what a reasoning model thought before it answered, or {@code ""}
 * @param stopReason why the model stopped writing, as its provider said it, or {@code ""} when unknown
 * @param data the answer's fields, a JSON object valid against the agent's answer schema; {@code null} for an
 *     agent without one. {@code text} is then what the model wrote (the object, perhaps within prose), or the
 *     fields as JSON where a person edited them
 */
public record FinalAnswer(String text, String reasoning, String stopReason, JsonNode data) implements StepContent {

  public FinalAnswer {
    text = StepContent.orEmpty(text);
    reasoning = StepContent.orEmpty(reasoning);
    stopReason = StepContent.orEmpty(stopReason);
    if (data != null && !data.isObject()) {
      throw new IllegalArgumentException("an answer's data is a JSON object, was " + data.getNodeType());
    }
    data = data == null ? null : data.deepCopy();
  }

  public FinalAnswer(String text, String reasoning, String stopReason) {
    this(text, reasoning, stopReason, null);
  }

  public FinalAnswer(String text, String reasoning) {
    this(text, reasoning, "");
  }

  public FinalAnswer(String text) {
    this(text, "");
  }

  /** Whether the answer has fields. */
  public boolean hasData() {
    return data != null;
  }

  @Override
  public StepKind kind() {
    return StepKind.FINAL_ANSWER;
  }
}
