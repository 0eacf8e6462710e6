package dev.agentloop.agent;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.util.List;

/**
 * Defaults for every agent ({@code agentloop.agent.*}, bound and validated by package {@code config});
 * a diagram overrides them with extension properties, see {@link AgentSettings}. Immutable.
 *
 * @param allowedTools the tools of an agent whose diagram's {@code allowedTools} is
 *     {@value AgentSettings#FROM_APPLICATION} (the default agent's is): how an application gives the default
 *     agent its own tools without copying the diagram
 */
public record AgentDefaults(
    @NotBlank String systemPrompt,
    @NotBlank String plannerPrompt,
    @NotNull List<@NotBlank String> allowedTools,
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
    @Positive int loopMaxSameFailures) {

  public AgentDefaults {
    allowedTools = allowedTools == null ? null : List.copyOf(allowedTools);
  }
}
