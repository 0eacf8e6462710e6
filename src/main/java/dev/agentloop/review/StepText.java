package dev.agentloop.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;

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
    String text = step.kind() == StepKind.PLAN
        ? String.join(" | ", JSON.convertValue(step.content().path("steps"), String[].class)) : body(step);
    String line = heading(step) + ": " + text.replace('\n', ' ');
    return line.length() > LINE_CHARS ? line.substring(0, LINE_CHARS) + "…" : line;
  }

  /** {@code #4 OBSERVATION (calculator)}: which step, of what kind, by whom. */
  static String heading(Step step) {
    return "#" + step.stepNo() + " " + step.kind() + " (" + step.author() + ")";
  }

  /** What the step says, whole: its line breaks (and so any markdown) kept; a plan one step per line. */
  static String body(Step step) {
    return switch (step.kind()) {
      case PLAN -> String.join("\n", JSON.convertValue(step.content().path("steps"), String[].class));
      case ACTION -> step.text("tool") + " " + step.content().path("arguments");
      case OBSERVATION -> step.content().has("error") ? "ERROR: " + step.text("error") : step.text("result");
      default -> step.text("text");
    };
  }

  /**
   * The text a person edits to change the step, as {@link #content} reads it back: a plan's steps one
   * per line, an action's arguments as indented JSON, an observation's result (or error), else the text.
   */
  static String editable(Step step) {
    return switch (step.kind()) {
      case PLAN -> body(step);
      case ACTION -> step.content().path("arguments").toPrettyString();
      case OBSERVATION -> step.content().has("error") ? step.text("error") : step.text("result");
      default -> step.text("text");
    };
  }

  /**
   * The content for an edit of {@code original} from what a person typed: the text of a thought or
   * note, a plan's steps one per line, an action's arguments as JSON (or {@code {"tool", "arguments"}}
   * to call another tool), an observation's result.
   */
  static JsonNode content(Step original, String typed) {
    ObjectNode content = JsonNodeFactory.instance.objectNode();
    switch (original.kind()) {
      case PLAN -> typed.lines().map(line -> line.replaceFirst("^\\s*(?:[-*•]|\\d+[.)])\\s*", "").strip())
          .filter(line -> !line.isEmpty()).forEach(content.putArray("steps")::add);
      case ACTION -> {
        JsonNode arguments = json(typed);
        return arguments.has("arguments") ? arguments : content.set("arguments", arguments);
      }
      case OBSERVATION -> content.put("result", typed);
      default -> content.put("text", typed);
    }
    return content;
  }

  private static JsonNode json(String typed) {
    try {
      JsonNode value = JSON.readTree(typed);
      if (value != null && value.isObject()) {
        return value;
      }
    } catch (Exception e) {
      // answered below
    }
    throw new ReviewException("the new arguments must be a JSON object, e.g. {\"expression\": \"2 * 3\"}");
  }
}
