package dev.agentloop.agent;

import dev.agentloop.llm.ChatMessage;
import dev.agentloop.llm.ChatMessage.AssistantMessage;
import dev.agentloop.llm.ChatMessage.SystemMessage;
import dev.agentloop.llm.ChatMessage.ToolResultMessage;
import dev.agentloop.llm.ChatMessage.UserMessage;
import dev.agentloop.llm.ToolCall;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a run's active path into the messages a model reads: instructions and plan, the question,
 * then the recent steps as the assistant/tool exchange the provider expects. Long observations are
 * cut here, never in the trace.
 */
final class PromptBuilder {

  private PromptBuilder() {}

  static List<ChatMessage> forPlanning(String question, AgentSettings settings) {
    return List.of(new SystemMessage(settings.plannerPrompt()), new UserMessage(question));
  }

  static List<ChatMessage> forThinking(LoopState state, AgentSettings settings, boolean finalTurn) {
    List<ChatMessage> messages = new ArrayList<>();
    messages.add(new SystemMessage(instructions(state, settings)));
    messages.add(new UserMessage(state.run().question()));
    List<Step> steps = fromTurnStart(state.recent());
    if (state.truncated()) {
      messages.add(new UserMessage("[Earlier steps of this run are left out; the most recent ones follow.]"));
    }
    appendSteps(messages, steps, settings.observationPromptChars());
    if (finalTurn) {
      messages.add(new UserMessage("You have used all " + settings.maxSteps()
          + " steps of this run. Give your final answer now, from what you have found so far, without calling tools."));
    }
    return messages;
  }

  private static String instructions(LoopState state, AgentSettings settings) {
    if (state.plan() == null) {
      return settings.systemPrompt();
    }
    StringBuilder text = new StringBuilder(settings.systemPrompt()).append("\n\nPlan:");
    int n = 1;
    for (var step : state.plan().content().path("steps")) {
      text.append('\n').append(n++).append(". ").append(step.asText());
    }
    return text.toString();
  }

  /**
   * A window must not begin inside a turn: a tool result without its call is invalid for providers.
   * Only a truncated window can begin inside one; the plan is skipped as it is in the instructions.
   */
  private static List<Step> fromTurnStart(List<Step> recent) {
    int start = 0;
    while (start < recent.size() && (recent.get(start).kind() == StepKind.ACTION
        || recent.get(start).kind() == StepKind.OBSERVATION || recent.get(start).kind() == StepKind.PLAN)) {
      start++;
    }
    return recent.subList(start, recent.size());
  }

  private static void appendSteps(List<ChatMessage> messages, List<Step> steps, int observationChars) {
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      switch (step.kind()) {
        case THOUGHT -> {
          List<ToolCall> calls = new ArrayList<>();
          while (i + 1 < steps.size() && steps.get(i + 1).kind() == StepKind.ACTION) {
            Action action = Action.from(steps.get(++i));
            calls.add(new ToolCall(action.callId(), action.tool(), action.argumentsText()));
          }
          if (!calls.isEmpty() || !step.text("text").isBlank()) {
            messages.add(new AssistantMessage(step.text("text"), calls));
          }
        }
        case OBSERVATION -> {
          Observation observation = Observation.from(step);
          String text = cut(observation.text(), observationChars);
          messages.add(observation.callId() == null
              ? new UserMessage("[AgentLoop] Your last reply could not be used: " + text)
              : new ToolResultMessage(observation.callId(), observation.tool(), text));
        }
        case HUMAN_INPUT -> messages.add(new UserMessage("[" + step.author() + "] " + step.text("text")));
        case FINAL_ANSWER -> messages.add(new AssistantMessage(step.text("text"), List.of()));
        case ACTION, PLAN -> { } // actions travel with their thought; the plan is in the instructions
      }
    }
  }

  private static String cut(String text, int limit) {
    return text.length() <= limit ? text
        : text.substring(0, limit) + "\n[cut for the prompt: " + (text.length() - limit) + " more characters are stored]";
  }
}
