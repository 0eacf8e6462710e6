package dev.agentloop.resume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.agent.Action;
import dev.agentloop.agent.AgentSettings;
import dev.agentloop.agent.Observation;
import dev.agentloop.agent.Steps;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.trace.NewStep;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the new content of an edited step against its kind, and the arguments of an edited
 * action against the tool's schema, and builds the step that replaces it. Everything wrong is an
 * {@link InvalidEditException} saying what to fix. Thread-safe.
 */
class EditedContent {

  private final ToolRegistry tools;

  EditedContent(ToolRegistry tools) {
    this.tools = tools;
  }

  NewStep replacement(Step original, JsonNode content, String author, String reason, AgentSettings settings) {
    NewStep step = switch (original.kind()) {
      case THOUGHT -> new NewStep(StepKind.THOUGHT, text(content, false), author, reason);
      case HUMAN_INPUT -> humanInput(original, content, author, reason);
      case PLAN -> Steps.plan(planSteps(content), author, reason);
      case ACTION -> action(Action.from(original), content, author, reason, settings);
      case OBSERVATION -> observation(Observation.from(original), content, author, reason);
      case FINAL_ANSWER -> throw new InvalidEditException("a final answer is not edited: regenerate it, or edit a"
          + " step before it so that the agent answers again");
    };
    int size = step.content().toString().length();
    if (size > settings.maxStepChars()) {
      throw new InvalidEditException("the new content has " + size + " characters, more than the "
          + settings.maxStepChars() + " a step may have");
    }
    return step;
  }

  private static NewStep humanInput(Step original, JsonNode content, String author, String reason) {
    if (original.content().has("approvals")) {
      throw new InvalidEditException("step " + original.stepNo() + " holds approval decisions; edit the action"
          + " instead, and it is approved again");
    }
    return new NewStep(StepKind.HUMAN_INPUT, text(content, true), author, reason);
  }

  private NewStep action(Action original, JsonNode content, String author, String reason, AgentSettings settings) {
    String tool = content.hasNonNull("tool") ? content.get("tool").asText() : original.tool();
    if (!tools.contains(tool) || !settings.allows(tool)) {
      throw new InvalidEditException("there is no tool named '" + tool + "' for this agent; available tools: "
          + String.join(", ", tools.names().stream().filter(settings::allows).toList()));
    }
    JsonNode arguments = content.get("arguments");
    if (arguments == null || !arguments.isObject()) {
      throw new InvalidEditException("an edited action needs \"arguments\": a JSON object for " + tool);
    }
    List<String> violations = tools.violations(tool, arguments);
    if (!violations.isEmpty()) {
      throw new InvalidEditException("the arguments of " + tool + " do not match its schema: "
          + String.join("; ", violations));
    }
    Action edited = new Action(original.callId(), tool, arguments, null);
    return new NewStep(StepKind.ACTION, edited.toContent(), author, reason);
  }

  private static NewStep observation(Observation original, JsonNode content, String author, String reason) {
    boolean result = content.has("result");
    if (result == content.has("error")) {
      throw new InvalidEditException("an edited observation has either \"result\" or \"error\"");
    }
    JsonNode value = content.get(result ? "result" : "error");
    String text = value.isTextual() ? value.asText() : value.toString();
    Observation edited = new Observation(original.callId(), original.tool(), result ? text : null,
        result ? null : text);
    return Steps.observation(edited, author).withReason(reason);
  }

  private static ObjectNode text(JsonNode content, boolean required) {
    JsonNode text = content.get("text");
    if (text == null || !text.isTextual() || (required && text.asText().isBlank())) {
      throw new InvalidEditException("the edited step needs \"text\": a " + (required ? "non-empty " : "")
          + "string");
    }
    return JsonNodeFactory.instance.objectNode().put("text", text.asText());
  }

  private static List<String> planSteps(JsonNode content) {
    JsonNode steps = content.get("steps");
    List<String> plan = new ArrayList<>();
    if (steps != null && steps.isArray()) {
      steps.forEach(step -> plan.add(step.isTextual() ? step.asText().strip() : ""));
    }
    if (plan.isEmpty() || plan.contains("")) {
      throw new InvalidEditException("an edited plan needs \"steps\": a list of non-empty strings");
    }
    return plan;
  }
}
