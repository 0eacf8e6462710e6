package dev.agentloop.agent;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;

/**
 * Defaults for every agent ({@code agentloop.agent.*}, bound and validated by package {@code config});
 * a diagram overrides them with extension properties, see {@link AgentSettings}. Immutable.
 */
public record AgentDefaults(
    @NotBlank String systemPrompt,
    @NotBlank String plannerPrompt,
    @Positive int maxSteps,
    @Positive int contextWindowSteps,
    @Positive int observationPromptChars,
    @Positive int maxStepChars,
    boolean autoAcceptPlan,
    boolean autoAcceptAnswer,
    @PositiveOrZero int maxPlanRevisions,
    @NotNull RevisionsRunOut whenPlanRevisionsRunOut,
    @NotNull Duration askHumanTimeout,
    @Positive int maxModelCalls,
    @Positive int maxToolCalls,
    /* 0: no token budget (providers that report no tokens count none) */
    @PositiveOrZero long maxTokens,
    @NotNull Duration maxRunTime,
    @Positive int loopMaxRepeats,
    @Positive int loopMaxCycles,
    @Positive int loopMaxSameFailures,
    /* how deep agents may call agents as tools: a run this many calls below a top-level run calls none */
    @Positive int maxAgentDepth,
    /* true: a run takes follow-up questions after its accepted answer, until closed or idle */
    boolean conversation,
    @NotNull Duration conversationIdle) {}
