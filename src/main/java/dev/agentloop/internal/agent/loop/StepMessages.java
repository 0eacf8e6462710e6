package dev.agentloop.internal.agent.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Approvals;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.Thought;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatMessage.AssistantMessage;
import dev.agentloop.spi.ChatMessage.ToolResultMessage;
import dev.agentloop.spi.ChatMessage.UserMessage;
import dev.agentloop.spi.ToolCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Steps of a run's path as the messages a model reads: a thought with its calls as an assistant message, each
 * result as a tool message, a person's words and a follow-up question as user messages, an answer as an assistant
 * message. Calls show the arguments a person edited when approving them; long observations are cut here, never in the
 * trace. {@link PromptBuilder} lays out the prompt around them, and counts a turn's tokens as they are shown here
 * when it weighs a context budget.
 */
final class StepMessages {

  private StepMessages() {}

  /** Appends the steps' messages; a window of steps must begin at a turn (see {@link PromptBuilder}). */
  static void appendSteps(List<ChatMessage> messages, List<Step> steps, int observationChars) {
    Map<String, JsonNode> editedArguments = editedArguments(steps);
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      // actions travel with their thought; the plan is in the instructions; approvals sit between a
      // call and its result, where providers accept nothing else: edited arguments are shown in the
      // call, rejections in its observation
      if (step.content() instanceof Thought thought) {
        List<ToolCall> calls = new ArrayList<>();
        while (i + 1 < steps.size() && steps.get(i + 1).content() instanceof Action action) {
          i++;
          JsonNode edited = editedArguments.get(action.callId());
          calls.add(new ToolCall(action.callId(), action.tool(),
              edited != null ? edited.toString() : action.argumentsText()));
        }
        if (!calls.isEmpty() || !thought.text().isBlank()) {
          messages.add(new AssistantMessage(thought.text(), calls));
        }
      } else if (step.content() instanceof Observation observation) {
        String text = cut(observation.text(), observationChars);
        messages.add(observation.ofCall() ? new ToolResultMessage(observation.callId(), observation.tool(), text)
            : new UserMessage("[AgentLoop] Your last reply could not be used: " + text));
      } else if (step.content() instanceof HumanInput input) {
        messages.add(new UserMessage("[" + step.author() + "] " + input.text()));
      } else if (step.content() instanceof FollowUp question) {
        // the next question of the conversation, as the run's first one: the user's own words
        messages.add(new UserMessage(question.text()));
      } else if (step.content() instanceof FinalAnswer answer) {
        messages.add(new AssistantMessage(answer.text(), List.of()));
      }
    }
  }

  /** One turn's tokens as the prompt shows it, results cut as they are cut there. */
  static int turnTokens(List<Step> turn, int observationChars, ToIntFunction<String> tokens) {
    List<ChatMessage> messages = new ArrayList<>();
    appendSteps(messages, turn, observationChars);
    int sum = 0;
    for (ChatMessage message : messages) {
      if (message instanceof AssistantMessage assistant) {
        sum += tokens.applyAsInt(assistant.text()) + assistant.toolCalls().stream()
            .mapToInt(call -> tokens.applyAsInt(call.name() + call.arguments())).sum();
      } else if (message instanceof ToolResultMessage result) {
        sum += tokens.applyAsInt(result.text());
      } else if (message instanceof UserMessage user) {
        sum += tokens.applyAsInt(user.text());
      }
    }
    return sum;
  }

  /** The arguments people edited when they approved calls, by call id: what actually ran. */
  private static Map<String, JsonNode> editedArguments(List<Step> steps) {
    Map<String, JsonNode> edited = new HashMap<>();
    steps.stream().filter(step -> step.content() instanceof Approvals)
        .flatMap(step -> ((Approvals) step.content()).approvals().stream())
        .filter(approval -> approval.decision() == Approval.Decision.EDIT)
        .forEach(approval -> edited.put(approval.callId(), approval.arguments()));
    return edited;
  }

  private static String cut(String text, int limit) {
    return text.length() <= limit ? text
        : text.substring(0, limit) + "\n[cut for the prompt: " + (text.length() - limit) + " more characters are stored]";
  }
}
