package dev.agentloop.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.trace.NewStep;
import dev.agentloop.trace.StepKind;
import java.util.List;

/**
 * Builds the steps the agent and the people reviewing it write, with their authors; the content
 * shapes are in {@link StepKind}.
 */
public final class Steps {

  public static final String MODEL = "model";
  /** Author of steps AgentLoop itself wrote, e.g. for an unknown tool or a question nobody answered. */
  public static final String AGENTLOOP = "agentloop";
  /** The content field of a model's step that holds its reasoning, apart from its text or plan. */
  public static final String REASONING = "reasoning";

  private Steps() {}

  public static NewStep plan(List<String> steps, String author) {
    return plan(steps, author, null);
  }

  public static NewStep plan(List<String> steps, String author, String reason) {
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    steps.forEach(list::add);
    ObjectNode content = JsonNodeFactory.instance.objectNode();
    content.set("steps", list);
    return new NewStep(StepKind.PLAN, content, author, reason);
  }

  /** The model's plan, with the reasoning it gave before it (kept apart from the steps). */
  static NewStep modelPlan(List<String> steps, String reasoning) {
    NewStep plan = plan(steps, MODEL);
    withReasoning((ObjectNode) plan.content(), reasoning);
    return plan;
  }

  /** A person's note for the model: feedback on a plan or an answer, or guidance. */
  public static NewStep humanInput(String text, String author, String reason) {
    return new NewStep(StepKind.HUMAN_INPUT, text(text), author, reason);
  }

  /** People's decisions on the current turn's tool calls, with a line for the model to read. */
  public static NewStep approvals(List<Approval> approvals, String summary, String author) {
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    approvals.forEach(approval -> list.add(approval.toJson()));
    ObjectNode content = text(summary);
    content.set("approvals", list);
    return new NewStep(StepKind.HUMAN_INPUT, content, author, null);
  }

  /**
   * A person's request to run tool calls again: their note, then the calls as a turn of theirs, with
   * new call ids, so that the model sees who made them and every call gets an observation of its own.
   *
   * @param idPrefix makes the new call ids unique in the run, e.g. the number of the head step
   */
  public static List<NewStep> retry(List<Action> calls, String note, String author, String reason, String idPrefix) {
    List<NewStep> steps = new java.util.ArrayList<>();
    steps.add(humanInput(note, author, reason));
    steps.add(new NewStep(StepKind.THOUGHT, text(""), author));
    for (int i = 0; i < calls.size(); i++) {
      Action call = calls.get(i);
      Action copy = new Action(idPrefix + "_" + (i + 1), call.tool(), call.arguments(), call.rawArguments());
      steps.add(new NewStep(StepKind.ACTION, copy.toContent(), author));
    }
    return steps;
  }

  static NewStep thought(String text) {
    return thought(text, "");
  }

  /** @param reasoning what a reasoning model thought before it replied; never sent back to it */
  static NewStep thought(String text, String reasoning) {
    return new NewStep(StepKind.THOUGHT, withReasoning(text(text), reasoning), MODEL);
  }

  static NewStep finalAnswer(String text) {
    return finalAnswer(text, "");
  }

  static NewStep finalAnswer(String text, String reasoning) {
    return new NewStep(StepKind.FINAL_ANSWER, withReasoning(text(text), reasoning), MODEL);
  }

  static NewStep action(Action action) {
    return new NewStep(StepKind.ACTION, action.toContent(), MODEL);
  }

  public static NewStep observation(Observation observation, String author) {
    return new NewStep(StepKind.OBSERVATION, observation.toContent(), author);
  }

  private static ObjectNode withReasoning(ObjectNode content, String reasoning) {
    return reasoning == null || reasoning.isEmpty() ? content : content.put(REASONING, reasoning);
  }

  private static ObjectNode text(String text) {
    return JsonNodeFactory.instance.objectNode().put("text", text);
  }
}
