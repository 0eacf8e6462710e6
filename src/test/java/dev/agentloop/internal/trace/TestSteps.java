package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.step.StepKind;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.trace.step.StepContent;

/** Steps for the store's tests, of any kind, that carry a text to find again after a round trip. */
final class TestSteps {

  private TestSteps() {}

  /** A step of this kind whose text is {@code text}: each kind reads its own fields of the JSON form. */
  static NewStep step(StepKind kind, String text, String author) {
    ObjectNode json = JsonNodeFactory.instance.objectNode().put("text", text).put("callId", "call_1").put("tool", "echo")
        .put("result", text);
    json.putArray("steps").add(text);
    json.putObject("arguments").put("text", text);
    return new NewStep(StepContent.fromJson(kind, json), author);
  }
}
