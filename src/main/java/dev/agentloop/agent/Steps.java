package dev.agentloop.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.trace.NewStep;
import dev.agentloop.trace.StepKind;
import java.util.List;

/** Builds the steps the agent writes, with their authors; the content shapes are in {@link StepKind}. */
final class Steps {

  static final String MODEL = "model";
  /** Author of observations AgentLoop itself wrote, e.g. an unknown tool or unusable arguments. */
  static final String AGENTLOOP = "agentloop";

  private Steps() {}

  static NewStep plan(List<String> steps, String author) {
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    steps.forEach(list::add);
    ObjectNode content = JsonNodeFactory.instance.objectNode();
    content.set("steps", list);
    return new NewStep(StepKind.PLAN, content, author);
  }

  static NewStep thought(String text) {
    return new NewStep(StepKind.THOUGHT, text(text), MODEL);
  }

  static NewStep finalAnswer(String text) {
    return new NewStep(StepKind.FINAL_ANSWER, text(text), MODEL);
  }

  static NewStep action(Action action) {
    return new NewStep(StepKind.ACTION, action.toContent(), MODEL);
  }

  static NewStep observation(Observation observation, String author) {
    return new NewStep(StepKind.OBSERVATION, observation.toContent(), author);
  }

  private static ObjectNode text(String text) {
    return JsonNodeFactory.instance.objectNode().put("text", text);
  }
}
