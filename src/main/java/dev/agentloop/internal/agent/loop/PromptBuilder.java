package dev.agentloop.internal.agent.loop;

import static dev.agentloop.internal.agent.loop.StepMessages.appendSteps;
import static dev.agentloop.internal.agent.loop.StepMessages.turnTokens;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.spi.ChatMessage.AssistantMessage;
import dev.agentloop.spi.ChatMessage.SystemMessage;
import dev.agentloop.spi.ChatMessage.UserMessage;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Turns a run's active path into the messages a model reads: instructions and plan, the question,
 * then the recent steps as the assistant/tool exchange the provider expects. In a conversation the
 * path holds the earlier turns: each follow-up question is a user message, each answer an assistant
 * message, within the same window of recent steps ({@link StepMessages}, which cuts long observations
 * for the prompt, never in the trace). With a context budget, older turns are shown as a digest
 * ({@link ContextDigest}) and the prompt is laid out so that its beginning stays the same from turn
 * to turn ({@link #thinking}).
 */
public final class PromptBuilder {

  private PromptBuilder() {}

  /**
   * The question, and when a reviewer sent the plan back, the previous plan with their feedback. In a
   * later turn of a conversation, the earlier questions and answers within the window come first.
   */
  static List<ChatMessage> forPlanning(LoopState state, AgentSettings settings) {
    List<ChatMessage> messages = new ArrayList<>();
    messages.add(new SystemMessage(settings.prompt().plannerPrompt()));
    if (state.followUp() != null) {
      messages.add(new UserMessage(state.run().question()));
      // the window, also when a context budget has the whole path read: a plan needs no digest
      List<Step> window = state.latest(settings.prompt().contextWindowSteps());
      window.stream().filter(step -> step.stepNo() < state.followUp().stepNo()).forEach(step -> {
        if (step.content() instanceof FollowUp question) {
          messages.add(new UserMessage(question.text()));
        } else if (step.content() instanceof FinalAnswer answer) {
          messages.add(new AssistantMessage(answer.text(), List.of()));
        }
      });
    }
    messages.add(new UserMessage(state.question()));
    if (state.plan() != null) {
      ArrayNode previous = JsonNodeFactory.instance.arrayNode();
      plan(state).steps().forEach(previous::add);
      messages.add(new AssistantMessage(previous.toString(), List.of()));
      state.recent().stream().filter(step -> step.content() instanceof HumanInput && step.stepNo() > state.plan().stepNo())
          .forEach(feedback -> messages.add(new UserMessage("[" + feedback.author() + "] "
              + ((HumanInput) feedback.content()).text())));
      messages.add(new UserMessage("Revise the plan accordingly and reply with the new plan only."));
    }
    return messages;
  }

  static List<ChatMessage> forThinking(LoopState state, AgentSettings settings, boolean finalTurn) {
    return forThinking(state, settings, finalTurn ? "You have used all " + settings.maxSteps() + " steps of this run."
        : null, List.of());
  }

  /**
   * @param finalAnswerRequest why the model must answer now (a budget is nearly used up), or {@code null}
   * @param warnings AgentLoop's warnings for the model, such as a loop it seems to be in; after the steps
   */
  static List<ChatMessage> forThinking(LoopState state, AgentSettings settings, String finalAnswerRequest,
      List<String> warnings) {
    return thinking(state, settings, finalAnswerRequest, warnings, PromptBuilder::estimatedTokens).messages();
  }

  /**
   * The messages of a model turn and how many of them lead every turn's prompt unchanged. The stable
   * part comes first: instructions with the plan, the question, then the digest blocks (appended, never
   * rewritten, see {@link ContextDigest}); the steps after them and AgentLoop's warnings and requests
   * come last, where they change nothing before them.
   *
   * @param tokens the model's estimate of a text's tokens, which the context budget is counted in
   */
  public static Prompt thinking(LoopState state, AgentSettings settings, String finalAnswerRequest, List<String> warnings,
      ToIntFunction<String> tokens) {
    List<ChatMessage> messages = new ArrayList<>();
    messages.add(new SystemMessage(instructions(state, settings)));
    messages.add(new UserMessage(state.run().question()));
    List<Step> steps = fromTurnStart(state.recent());
    if (state.truncated()) {
      messages.add(new UserMessage("[Earlier steps of this run are left out; the most recent ones follow.]"));
      if (state.followUp() != null && !steps.contains(state.followUp())) {
        messages.add(new UserMessage(state.question()));
      }
    }
    int stable = messages.size();
    if (settings.prompt().compacts()) {
      ContextDigest.Layout layout = ContextDigest.of(steps, settings.prompt().contextBudgetTokens(),
          settings.prompt().contextWindowSteps(),
          turn -> turnTokens(turn, settings.prompt().observationPromptChars(), tokens), tokens);
      layout.blocks().forEach(block -> messages.add(new UserMessage(block)));
      stable = messages.size();
      if (state.followUp() != null && steps.contains(state.followUp())
          && !layout.rest().contains(state.followUp())) {
        // the current question went into a digest, where it may be cut: the model reads it whole, after
        // the blocks (not among them: a block appended later must not move it into the stable part)
        messages.add(new UserMessage(state.question()));
      }
      steps = layout.rest();
    }
    appendSteps(messages, steps, settings.prompt().observationPromptChars());
    warnings.forEach(warning -> messages.add(new UserMessage("[AgentLoop] Warning: " + warning)));
    if (finalAnswerRequest != null) {
      messages.add(new UserMessage(finalAnswerRequest
          + " Give your final answer now, from what you have found so far, without calling tools."));
    }
    return new Prompt(messages, stable);
  }

  /**
   * A model turn's prompt.
   *
   * @param stable how many of the messages lead the next turn's prompt unchanged, as long as the path
   *     only grows and no digest block is added: where a provider's cache breakpoint goes
   */
  public record Prompt(List<ChatMessage> messages, int stable) {

    public Prompt {
      messages = List.copyOf(messages);
    }
  }

  /** The estimate when no model gives its own: about four characters a token, as for English text. */
  static int estimatedTokens(String text) {
    return (text.length() + 3) / 4;
  }

  private static String instructions(LoopState state, AgentSettings settings) {
    String prompt = settings.answer().hasSchema()
        ? settings.prompt().systemPrompt() + "\n\n" + settings.answer().schema().format().instruction()
        : settings.prompt().systemPrompt();
    if (state.plan() == null) {
      return prompt;
    }
    StringBuilder text = new StringBuilder(prompt).append("\n\nPlan:");
    int n = 1;
    for (String step : plan(state).steps()) {
      text.append('\n').append(n++).append(". ").append(step);
    }
    return text.toString();
  }

  private static Plan plan(LoopState state) {
    return (Plan) state.plan().content();
  }

  /**
   * A window must not begin inside a turn: a tool result without its call is invalid for providers.
   * Only a truncated window can begin inside one; the plan is skipped as it is in the instructions.
   */
  private static List<Step> fromTurnStart(List<Step> recent) {
    int start = 0;
    while (start < recent.size() && (recent.get(start).content() instanceof Action
        || recent.get(start).content() instanceof Observation || recent.get(start).content() instanceof Plan)) {
      start++;
    }
    return recent.subList(start, recent.size());
  }
}
