package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.StepContent;

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
    StepContent edited;
    try {
      edited = StepContent.edited(original.content(), original.stepNo(), content);
    } catch (IllegalArgumentException e) {
      throw new InvalidEditException(e.getMessage());
    }
    if (edited instanceof Action call) {
      tools.refusal(call.tool(), call.arguments(), settings::allows).ifPresent(refusal -> {
        throw new InvalidEditException(refusal.message());
      });
    }
    int size = edited.toJson().toString().length();
    if (size > settings.prompt().maxStepChars()) {
      throw new InvalidEditException("the new content has " + size + " characters, more than the "
          + settings.prompt().maxStepChars() + " a step may have");
    }
    return new NewStep(edited, author, reason);
  }
}
