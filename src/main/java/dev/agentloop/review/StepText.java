package dev.agentloop.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentloop.trace.Action;
import dev.agentloop.trace.Approvals;
import dev.agentloop.trace.FinalAnswer;
import dev.agentloop.trace.HumanInput;
import dev.agentloop.trace.Observation;
import dev.agentloop.trace.Plan;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepContent;
import dev.agentloop.trace.Thought;

/**
 * Steps as plain text for a form: one line per step of the active path to choose from, and what a
 * person types as a step's new content, read according to the step's kind.
 */
final class StepText {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int LINE_CHARS = 300;

  private StepText() {}

  /** {@code #4 OBSERVATION (calculator): 391}, shortened to one line. */
  static String line(Step step) {
    String line = "#" + step.stepNo() + " " + step.kind() + " (" + step.author() + "): "
        + text(step.content()).replace('\n', ' ');
    return line.length() > LINE_CHARS ? line.substring(0, LINE_CHARS) + "…" : line;
  }

  /** What a step says, as a person reads it. */
  static String text(StepContent content) {
    if (content instanceof Plan plan) {
      return String.join(" | ", plan.steps());
    }
    if (content instanceof Action action) {
      return action.tool() + " " + (action.hasValidArguments() ? action.arguments() : "");
    }
    if (content instanceof Observation observation) {
      return observation.isError() ? "ERROR: " + observation.error() : observation.result();
    }
    if (content instanceof Thought thought) {
      return thought.text();
    }
    if (content instanceof FinalAnswer answer) {
      return answer.text();
    }
    if (content instanceof HumanInput input) {
      return input.text();
    }
    return ((Approvals) content).text();
  }

  /**
   * The content for an edit of {@code original} from what a person typed: the text of a thought or
   * note, a plan's steps one per line, an action's arguments as JSON (or the action's whole JSON form,
   * with {@code "tool"}, to call another tool), an observation's result. Content that does not fit is
   * refused by the edit, which says why.
   */
  static JsonNode content(Step original, String typed) {
    if (original.content() instanceof Action action) {
      JsonNode json = json(typed);
      boolean wholeAction = ((Action) StepContent.fromJson(action.kind(), json)).arguments() != null;
      return wholeAction ? json : action.withArguments(json).toJson();
    }
    StepContent content;
    if (original.content() instanceof Plan) {
      content = new Plan(typed.lines().map(line -> line.replaceFirst("^\\s*(?:[-*•]|\\d+[.)])\\s*", "").strip())
          .filter(line -> !line.isEmpty()).toList());
    } else if (original.content() instanceof Observation observation) {
      content = new Observation(observation.callId(), observation.tool(), typed, null);
    } else if (original.content() instanceof Thought) {
      content = new Thought(typed);
    } else {
      content = new HumanInput(typed);
    }
    return content.toJson();
  }

  /** What was typed as JSON; anything else as a JSON string, which the edit refuses with the tool's message. */
  private static JsonNode json(String typed) {
    try {
      JsonNode value = JSON.readTree(typed);
      if (value != null) {
        return value;
      }
    } catch (Exception e) {
      // passed on as text below
    }
    return TextNode.valueOf(typed);
  }
}
