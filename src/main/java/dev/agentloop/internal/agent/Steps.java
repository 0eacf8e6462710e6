package dev.agentloop.internal.agent;

import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Approvals;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.Plan;
import dev.agentloop.internal.trace.step.Thought;
import java.util.ArrayList;
import java.util.List;

/** The authors of steps, and the steps people write that are more than one record. */
public final class Steps {

  public static final String MODEL = "model";
  /** Author of steps AgentLoop itself wrote, e.g. for an unknown tool or a question nobody answered. */
  public static final String AGENTLOOP = "agentloop";

  private Steps() {}

  public static NewStep plan(List<String> steps, String author) {
    return plan(steps, author, null);
  }

  public static NewStep plan(List<String> steps, String author, String reason) {
    return new NewStep(new Plan(steps), author, reason);
  }

  /** A person's note for the model: feedback on a plan or an answer, or guidance. */
  public static NewStep humanInput(String text, String author, String reason) {
    return new NewStep(new HumanInput(text), author, reason);
  }

  /** The next question of a conversation, which opens a new turn; {@code author} is who asked it. */
  public static NewStep followUp(String question, String author, String reason) {
    return new NewStep(new FollowUp(question), author, reason);
  }

  /** People's decisions on the current turn's tool calls, with a line for the model to read. */
  public static NewStep approvals(List<Approval> approvals, String summary, String author) {
    return new NewStep(new Approvals(summary, approvals), author);
  }

  public static NewStep observation(Observation observation, String author) {
    return new NewStep(observation, author);
  }

  /** The model's plan, with the reasoning it gave before it (kept apart from the steps). */
  public static NewStep modelPlan(List<String> steps, String reasoning, String stopReason) {
    return new NewStep(new Plan(steps, reasoning, stopReason), MODEL);
  }

  public static NewStep thought(String text) {
    return thought(text, "");
  }

  /** @param reasoning what a reasoning model thought before it replied; never sent back to it */
  public static NewStep thought(String text, String reasoning) {
    return thought(text, reasoning, "");
  }

  /** @param stopReason why the model stopped writing, as its provider said it; {@code ""}: unknown */
  public static NewStep thought(String text, String reasoning, String stopReason) {
    return new NewStep(new Thought(text, reasoning, stopReason), MODEL);
  }

  public static NewStep finalAnswer(String text) {
    return finalAnswer(text, "");
  }

  public static NewStep finalAnswer(String text, String reasoning) {
    return finalAnswer(text, reasoning, "");
  }

  public static NewStep finalAnswer(String text, String reasoning, String stopReason) {
    return new NewStep(new FinalAnswer(text, reasoning, stopReason), MODEL);
  }

  /** A final answer of the model with its fields, checked against the agent's answer schema. */
  public static NewStep finalAnswer(FinalAnswer answer) {
    return new NewStep(answer, MODEL);
  }

  public static NewStep action(Action action) {
    return new NewStep(action, MODEL);
  }

  /**
   * A person's request to run tool calls again: their note, then the calls as a turn of theirs, with
   * new call ids, so that the model sees who made them and every call gets an observation of its own.
   *
   * @param idPrefix makes the new call ids unique in the run, e.g. the number of the head step
   */
  public static List<NewStep> retry(List<Action> calls, String note, String author, String reason, String idPrefix) {
    List<NewStep> steps = new ArrayList<>();
    steps.add(humanInput(note, author, reason));
    steps.add(new NewStep(new Thought(""), author));
    for (int i = 0; i < calls.size(); i++) {
      Action call = calls.get(i);
      steps.add(new NewStep(new Action(idPrefix + "_" + (i + 1), call.tool(), call.arguments(), call.rawArguments()),
          author));
    }
    return steps;
  }
}
