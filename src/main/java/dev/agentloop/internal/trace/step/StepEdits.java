package dev.agentloop.internal.trace.step;

import static dev.agentloop.internal.trace.step.StepJson.ARGUMENTS;
import static dev.agentloop.internal.trace.step.StepJson.CHILD_RUN;
import static dev.agentloop.internal.trace.step.StepJson.ERROR;
import static dev.agentloop.internal.trace.step.StepJson.RAW_ARGUMENTS;
import static dev.agentloop.internal.trace.step.StepJson.RESULT;
import static dev.agentloop.internal.trace.step.StepJson.STEPS;
import static dev.agentloop.internal.trace.step.StepJson.TEXT;
import static dev.agentloop.internal.trace.step.StepJson.TOOL;
import static dev.agentloop.internal.trace.step.StepJson.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A person's edit of a step, read from the JSON form {@link StepJson} writes: apart from that mapping because
 * it is checked strictly and says what to fix, where reading stored steps is lenient (steps written by
 * older versions must still be read). Field names are {@link StepJson}'s.
 */
final class StepEdits {

  private StepEdits() {}

  /**
   * New content for {@code original} from its JSON form as a person sent it, checked strictly: a
   * thought's {@code "text"} (may be empty), a note's non-empty {@code "text"}, a plan's non-empty
   * {@code "steps"}, an action's {@code "arguments"} (and {@code "tool"} to call another one; the
   * tool's schema is the caller's to check), an observation's {@code "result"} or {@code "error"}.
   *
   * @throws IllegalArgumentException saying what to fix
   */
  static StepContent edited(StepContent original, int stepNo, JsonNode json) {
    return switch (original.kind()) {
      case THOUGHT -> new Thought(editedText(json, false));
      case HUMAN_INPUT -> {
        if (original instanceof Approvals) {
          throw new IllegalArgumentException("step " + stepNo + " holds approval decisions; edit the"
              + " action instead, and it is approved again");
        }
        // an edited follow-up stays the question that opens its turn
        yield original instanceof FollowUp ? new FollowUp(editedText(json, true))
            : new HumanInput(editedText(json, true));
      }
      case PLAN -> new Plan(editedPlan(json));
      case ACTION -> {
        Action action = (Action) original;
        // arguments that are no JSON object come back as written, so that the refusal can quote them
        JsonNode arguments = json.has(ARGUMENTS) || !json.has(RAW_ARGUMENTS) ? json.get(ARGUMENTS)
            : TextNode.valueOf(text(json, RAW_ARGUMENTS));
        yield new Action(action.callId(), json.hasNonNull(TOOL) ? json.get(TOOL).asText() : action.tool(), arguments,
            null);
      }
      case OBSERVATION -> {
        Observation observation = (Observation) original;
        boolean result = json.has(RESULT);
        if (result == json.has(ERROR)) {
          throw new IllegalArgumentException("an edited observation has either \"result\" or \"error\"");
        }
        JsonNode value = json.get(result ? RESULT : ERROR);
        String text = value.isTextual() ? value.asText() : value.toString();
        // the child run that answered a call of an agent: kept, or the one named (a child run started again)
        String childRun = json.hasNonNull(CHILD_RUN) ? json.get(CHILD_RUN).asText() : observation.childRun();
        yield new Observation(observation.callId(), observation.tool(), result ? text : null, result ? null : text,
            null, null, childRun);
      }
      case FINAL_ANSWER -> throw new IllegalArgumentException("a final answer is not edited: regenerate it, or"
          + " edit a step before it so that the agent answers again");
    };
  }

  private static String editedText(JsonNode json, boolean required) {
    JsonNode text = json.get(TEXT);
    if (text == null || !text.isTextual() || (required && text.asText().isBlank())) {
      throw new IllegalArgumentException("the edited step needs \"text\": a " + (required ? "non-empty " : "")
          + "string");
    }
    return text.asText();
  }

  private static List<String> editedPlan(JsonNode json) {
    JsonNode steps = json.get(STEPS);
    List<String> plan = new ArrayList<>();
    if (steps != null && steps.isArray()) {
      steps.forEach(step -> plan.add(step.isTextual() ? step.asText().strip() : ""));
    }
    if (plan.isEmpty() || plan.contains("")) {
      throw new IllegalArgumentException("an edited plan needs \"steps\": a list of non-empty strings");
    }
    return plan;
  }
}
