package dev.agentloop.internal.trace.step;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a step holds, one record per kind of step. {@link StepJson} is the one mapping to and from
 * the JSON that the store keeps and the API shows, and owns its field names; {@link StepEdits} reads a
 * person's edit by them. Nothing else reads or writes step content by its field names.
 *
 * <p>A model's {@link Plan}, {@link Thought} or {@link FinalAnswer} may hold its reasoning: what a
 * reasoning model thought before it replied ({@code <think>} blocks, {@code reasoning_content}). It
 * is shown to people, never sent back to the model, and never part of the text, the plan's steps or
 * the answer.
 */
public sealed interface StepContent permits Plan, Thought, Action, Observation, HumanInput, Approvals, FollowUp,
    FinalAnswer {

  StepKind kind();

  /** The content as stored and shown by the API. */
  default JsonNode toJson() {
    return StepJson.write(this);
  }

  /**
   * The content of a stored step.
   *
   * @throws IllegalArgumentException when the JSON is not content of that kind
   */
  static StepContent fromJson(StepKind kind, JsonNode json) {
    return StepJson.read(kind, json);
  }

  /**
   * New content for a step from its JSON form as a person sent it (e.g. {@code {"text": "..."}} for a
   * thought, {@code {"arguments": {...}}} for an action), checked against the step's kind; the
   * arguments of an action are the caller's to check against the tool's schema.
   *
   * @throws IllegalArgumentException saying what to fix
   */
  static StepContent edited(StepContent original, int stepNo, JsonNode json) {
    return StepEdits.edited(original, stepNo, json);
  }

  /** {@code ""} for {@code null}: absent text is empty text in every kind of step. */
  static String orEmpty(String text) {
    return text == null ? "" : text;
  }
}
