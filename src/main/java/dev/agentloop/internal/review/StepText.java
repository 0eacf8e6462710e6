package dev.agentloop.internal.review;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approvals;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.Plan;
import dev.agentloop.internal.trace.step.StepContent;
import dev.agentloop.internal.trace.step.Thought;

/**
 * Steps as plain text for a form: one line per step of the active path to choose from, each step
 * whole, and what a person types as a step's new content, read according to the step's kind.
 */
final class StepText {

  /** Reads what was typed whole: "17 * 24" is not the number 17 followed by something else. */
  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final int LINE_CHARS = 300;

  private StepText() {}

  /** {@code #4 OBSERVATION (calculator): 391}, shortened to one line. */
  static String line(Step step) {
    String text = step.content() instanceof Plan plan ? String.join(" | ", plan.steps()) : body(step);
    return oneLine(heading(step) + ": " + text);
  }

  /** A text on one line, shortened to what a line of a form's list shows. */
  static String oneLine(String text) {
    String line = text.replace('\n', ' ');
    return line.length() > LINE_CHARS ? line.substring(0, LINE_CHARS) + "…" : line;
  }

  /** {@code #4 OBSERVATION (calculator)}: which step, of what kind, by whom. */
  static String heading(Step step) {
    return "#" + step.stepNo() + " " + step.kind() + " (" + step.author() + ")";
  }

  /** What the step says, whole: its line breaks (and so any markdown) kept; a plan one step per line. */
  static String body(Step step) {
    StepContent content = step.content();
    if (content instanceof Plan plan) {
      return String.join("\n", plan.steps());
    }
    if (content instanceof Action action) {
      return action.tool() + " " + action.argumentsText();
    }
    if (content instanceof Observation observation) {
      return observation.isError() ? "ERROR: " + observation.error() : observation.result();
    }
    return text(content);
  }

  /**
   * The text a person edits to change the step, as {@link #content} reads it back: a plan's steps one
   * per line, an action's arguments as indented JSON, an observation's result (or error), else the text.
   */
  static String editable(Step step) {
    StepContent content = step.content();
    if (content instanceof Action action) {
      return action.hasValidArguments() ? action.arguments().toPrettyString() : action.argumentsText();
    }
    if (content instanceof Observation observation) {
      return observation.isError() ? observation.error() : observation.result();
    }
    return body(step);
  }

  private static String text(StepContent content) {
    if (content instanceof Thought thought) {
      return thought.text();
    }
    if (content instanceof FinalAnswer answer) {
      return answer.text();
    }
    if (content instanceof HumanInput input) {
      return input.text();
    }
    if (content instanceof FollowUp question) {
      return question.text();
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
