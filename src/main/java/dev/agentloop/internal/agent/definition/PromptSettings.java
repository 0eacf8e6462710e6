package dev.agentloop.internal.agent.definition;

/**
 * What an agent gives the model and how much of its run it keeps in view: the prompts, the window of steps, the
 * context budget past which older turns go into a digest, and how long observations and steps may be. Immutable.
 *
 * @param systemPrompt the prompt every model call of the agent starts with
 * @param plannerPrompt the prompt of the planning call
 * @param contextWindowSteps how many of the latest steps the prompt shows when nothing goes into a digest
 * @param observationPromptChars how many characters of an observation go into the prompt
 * @param maxStepChars how many characters a step keeps of what the model or a tool gave it
 * @param contextBudgetTokens estimated prompt tokens past which older turns go into a digest; 0: the window of
 *     {@code contextWindowSteps} alone, sliding step by step (see {@code ContextDigest})
 */
public record PromptSettings(
    String systemPrompt,
    String plannerPrompt,
    int contextWindowSteps,
    int observationPromptChars,
    int maxStepChars,
    int contextBudgetTokens) {

  public PromptSettings {
    if (contextBudgetTokens < 0) {
      throw new IllegalArgumentException("contextBudgetTokens must be 0 (no digest) or more, was "
          + contextBudgetTokens);
    }
  }

  /**
   * @param values the extension properties of the agent's elements
   * @throws InvalidAgentSettingException naming the property when a value cannot be used
   */
  static PromptSettings of(SettingValues values, AgentDefaults defaults) {
    return new PromptSettings(
        values.text(AgentSettings.SYSTEM_PROMPT, defaults.systemPrompt()),
        values.text(AgentSettings.PLANNER_PROMPT, defaults.plannerPrompt()),
        values.count(AgentSettings.CONTEXT_WINDOW_STEPS, defaults.contextWindowSteps(), 1),
        defaults.observationPromptChars(),
        defaults.maxStepChars(),
        values.count(AgentSettings.CONTEXT_BUDGET_TOKENS, defaults.contextBudgetTokens(), 0));
  }

  /** Settings like these with another context budget: 0 turns the digest off. */
  public PromptSettings withContextBudgetTokens(int tokens) {
    return new PromptSettings(systemPrompt, plannerPrompt, contextWindowSteps, observationPromptChars, maxStepChars,
        tokens);
  }

  /** Whether older turns go into a digest when the prompt passes the context budget. */
  public boolean compacts() {
    return contextBudgetTokens > 0;
  }

  /**
   * How many steps of the active path a handler reads: the window; or, when older turns go into a
   * digest, the whole path, since the digest is derived from it (see {@code ContextDigest}).
   */
  public int pathStepsToRead() {
    return compacts() ? Integer.MAX_VALUE : contextWindowSteps;
  }
}
