package dev.agentloop.internal.agent.definition;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Defaults for every agent ({@code agentloop.agent.*}, bound and validated by package {@code config});
 * a diagram overrides them with extension properties, see {@link AgentSettings}. Immutable.
 *
 * @param allowedTools the tools of an agent whose diagram's `allowedTools` is
 *     `${agentloop.agent.allowed-tools}` (the default agent's is): how an application gives the default
 *     agent its own tools without copying the diagram
 * @param systemPrompt the system prompt of an agent whose think task sets none
 * @param plannerPrompt what the model is told when it writes the plan of a run (task plan)
 * @param maxSteps model turns per run; at the limit the model is asked for its final answer
 * @param contextWindowSteps how many of the latest steps of the active path are sent to the model
 * @param contextBudgetTokens the estimated prompt tokens of the digest and the steps after it past which
 *     older turns are replaced by a digest of their calls and results, in whole blocks (the trace keeps them whole); 0: no digest, the window of
 *     `context-window-steps` slides step by step as before
 * @param observationPromptChars longer observations are cut in the prompt (the trace keeps them whole)
 * @param maxStepChars a model reply or tool result larger than this is refused
 * @param autoAcceptPlan whether plans are accepted without a person's review (task reviewPlan)
 * @param autoAcceptAnswer whether final answers are accepted without a person's review (task reviewAnswer)
 * @param maxPlanRevisions how often a reviewer may send the plan back
 * @param whenPlanRevisionsRunOut what happens to the plan then: accept it as it is, or reject the run
 * @param askHumanTimeout how long the agent waits for a person's answer to ask_human before it goes on without one
 * @param maxModelCalls model calls per run, over all its turns and the runs it calls; past the budget the run escapes
 *     (BUDGET_EXHAUSTED)
 * @param maxToolCalls tool calls per run, over all its turns and the runs it calls; past the budget the run escapes
 *     (BUDGET_EXHAUSTED)
 * @param maxTokens tokens per run as the provider reports them, over all its turns and the runs it calls; 0: no token
 *     budget
 * @param maxRunTime time a run may spend in its agent loop (the loop's boundary timer); longer than askHumanTimeout
 * @param loopMaxRepeats how often the same call (tool and normalised arguments) may repeat on the active path
 * @param loopMaxCycles how often a cycle of different calls (A, B, A, B) may repeat in a row
 * @param loopMaxSameFailures how often the same error of the same tool may repeat
 * @param maxAgentDepth how deep agents may call agents as tools: a run this many calls below a top-level run
 *     calls none
 * @param conversation whether a run takes follow-up questions after its accepted answer, until closed or idle
 *     (a run that another process called always answers once)
 * @param conversationIdle how long a conversation waits for its next question before it closes
 * @param maxAnswerRepairs how often a final answer that breaks the agent's answer schema goes back to the model with
 *     the validator's message (each a model call of the run's budget) before the run escapes to agentStuck
 */
public record AgentDefaults(
    @DefaultValue("You are a careful assistant that solves the user's question step by step. Use the tools when they help; never guess what a tool can compute or look up. When you know the answer, reply with the final answer as plain text and no tool call.") @NotBlank String systemPrompt,
    @DefaultValue("Write a short plan for answering the user's question: a JSON array of 1 to 7 strings, one per step, and nothing else.") @NotBlank String plannerPrompt,
    @DefaultValue({"calculator", "current_time", "http_get", "read_document", "ask_human"}) @NotNull List<@NotBlank String> allowedTools,
    @DefaultValue("30") @Positive int maxSteps,
    @DefaultValue("60") @Positive int contextWindowSteps,
    @DefaultValue("6000") @PositiveOrZero int contextBudgetTokens,
    @DefaultValue("4000") @Positive int observationPromptChars,
    @DefaultValue("200000") @Positive int maxStepChars,
    @DefaultValue("false") boolean autoAcceptPlan,
    @DefaultValue("false") boolean autoAcceptAnswer,
    @DefaultValue("2") @PositiveOrZero int maxPlanRevisions,
    @DefaultValue("accept") @NotNull RevisionsRunOut whenPlanRevisionsRunOut,
    @DefaultValue("PT24H") @NotNull Duration askHumanTimeout,
    @DefaultValue("40") @Positive int maxModelCalls,
    @DefaultValue("60") @Positive int maxToolCalls,
    /* 0: no token budget (providers that report no tokens count none) */
    @DefaultValue("500000") @PositiveOrZero long maxTokens,
    @DefaultValue("PT48H") @NotNull Duration maxRunTime,
    @DefaultValue("3") @Positive int loopMaxRepeats,
    @DefaultValue("2") @Positive int loopMaxCycles,
    @DefaultValue("3") @Positive int loopMaxSameFailures,
    @DefaultValue("3") @Positive int maxAgentDepth,
    @DefaultValue("false") boolean conversation,
    @DefaultValue("PT24H") @NotNull Duration conversationIdle,
    @DefaultValue("2") @PositiveOrZero int maxAnswerRepairs) {

  public AgentDefaults {
    allowedTools = allowedTools == null ? null : List.copyOf(allowedTools);
  }
}
