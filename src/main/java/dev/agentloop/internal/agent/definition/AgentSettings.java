package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.resilience.EscapeLimits;
import dev.agentloop.internal.resilience.LoopDetector;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings of one agent: defaults from {@code agentloop.agent.*}, overridden by the extension
 * properties an analyst sets on the agent's tasks in the diagram. Immutable.
 *
 * @param allowedTools tool names the agent may call; {@code ["*"]} allows every registered tool
 * @param maxPlanRevisions how often a reviewer may send the plan back; then {@code whenPlanRevisionsRunOut}
 * @param askHumanTimeout how long the agent waits for a person's answer before it goes on without one
 * @param limits the budget (its steps included), the run time of the agent loop and loop-detection limits: where
 *     the run escapes
 * @param conversation whether a run takes follow-up questions after its accepted answer, and how long it waits
 * @param contextBudgetTokens estimated prompt tokens past which older turns go into a digest; 0: the window of
 *     {@code contextWindowSteps} alone, sliding step by step (see {@code ContextDigest})
 * @param answer the schema the final answer must match, if any, and how often a breach goes back to the model
 */
public record AgentSettings(
    String systemPrompt,
    String plannerPrompt,
    Set<String> allowedTools,
    int contextWindowSteps,
    int observationPromptChars,
    int maxStepChars,
    boolean autoAcceptPlan,
    boolean autoAcceptAnswer,
    int maxPlanRevisions,
    RevisionsRunOut whenPlanRevisionsRunOut,
    Duration askHumanTimeout,
    EscapeLimits limits,
    ConversationSettings conversation,
    int contextBudgetTokens,
    AnswerSettings answer) {

  public static final String SYSTEM_PROMPT = "systemPrompt";
  public static final String PLANNER_PROMPT = "plannerPrompt";
  public static final String ALLOWED_TOOLS = "allowedTools";
  public static final String MAX_STEPS = "maxSteps";
  public static final String CONTEXT_WINDOW_STEPS = "contextWindowSteps";
  public static final String CONTEXT_BUDGET_TOKENS = "contextBudgetTokens";
  public static final String AUTO_ACCEPT_PLAN = "autoAcceptPlan";
  public static final String AUTO_ACCEPT_ANSWER = "autoAcceptAnswer";
  public static final String MAX_PLAN_REVISIONS = "maxPlanRevisions";
  public static final String WHEN_PLAN_REVISIONS_RUN_OUT = "whenPlanRevisionsRunOut";
  /** Also the name of the variable that the ask-human task's boundary timer reads. */
  public static final String ASK_HUMAN_TIMEOUT = ReactAgentProcess.ASK_HUMAN_TIMEOUT.name();
  public static final String MAX_MODEL_CALLS = "maxModelCalls";
  public static final String MAX_TOOL_CALLS = "maxToolCalls";
  public static final String MAX_TOKENS = "maxTokens";
  /** Also the name of the variable that the agent loop's boundary timer reads. */
  public static final String MAX_RUN_TIME = ReactAgentProcess.MAX_RUN_TIME.name();
  public static final String LOOP_MAX_REPEATS = "loopMaxRepeats";
  public static final String LOOP_MAX_CYCLES = "loopMaxCycles";
  public static final String LOOP_MAX_SAME_FAILURES = "loopMaxSameFailures";
  /** {@code true}: the run waits for follow-up questions after its accepted answer; {@code false}: one-shot. */
  public static final String CONVERSATION = "conversation";
  /** Also the name of the variable that the idle timer of a waiting conversation reads. */
  public static final String CONVERSATION_IDLE = ReactAgentProcess.CONVERSATION_IDLE.name();
  /** The JSON Schema the final answer must match, see {@link AnswerSchema}; none: the answer is text. */
  public static final String ANSWER_SCHEMA = "answerSchema";
  /** How often an answer that breaks the schema goes back to the model before the run escapes. */
  public static final String MAX_ANSWER_REPAIRS = "maxAnswerRepairs";
  /** Every property name above: a diagram that sets any other on an agent task is refused at deployment. */
  public static final Set<String> NAMES = Set.of(SYSTEM_PROMPT, PLANNER_PROMPT, ALLOWED_TOOLS, MAX_STEPS,
      CONTEXT_WINDOW_STEPS, AUTO_ACCEPT_PLAN, AUTO_ACCEPT_ANSWER, MAX_PLAN_REVISIONS, WHEN_PLAN_REVISIONS_RUN_OUT,
      ASK_HUMAN_TIMEOUT, MAX_MODEL_CALLS, MAX_TOOL_CALLS, MAX_TOKENS, MAX_RUN_TIME, LOOP_MAX_REPEATS, LOOP_MAX_CYCLES,
      LOOP_MAX_SAME_FAILURES, CONVERSATION, CONVERSATION_IDLE, CONTEXT_BUDGET_TOKENS, ANSWER_SCHEMA,
      MAX_ANSWER_REPAIRS);
  static final String ALL_TOOLS = "*";
  /**
   * The value of {@code allowedTools} that takes the application's {@code agentloop.agent.allowed-tools}
   * instead of a list of the diagram's own.
   */
  public static final String FROM_APPLICATION = "${agentloop.agent.allowed-tools}";

  public AgentSettings {
    allowedTools = Set.copyOf(allowedTools);
    java.util.Objects.requireNonNull(limits, "limits");
    java.util.Objects.requireNonNull(conversation, "conversation");
    java.util.Objects.requireNonNull(answer, "answer");
    if (contextBudgetTokens < 0) {
      throw new IllegalArgumentException("contextBudgetTokens must be 0 (no digest) or more, was "
          + contextBudgetTokens);
    }
  }

  /** Settings whose answers are text, for code that builds them by hand. */
  public AgentSettings(String systemPrompt, String plannerPrompt, Set<String> allowedTools, int contextWindowSteps,
      int observationPromptChars, int maxStepChars, boolean autoAcceptPlan, boolean autoAcceptAnswer,
      int maxPlanRevisions, RevisionsRunOut whenPlanRevisionsRunOut, Duration askHumanTimeout, EscapeLimits limits,
      ConversationSettings conversation, int contextBudgetTokens) {
    this(systemPrompt, plannerPrompt, allowedTools, contextWindowSteps, observationPromptChars, maxStepChars,
        autoAcceptPlan, autoAcceptAnswer, maxPlanRevisions, whenPlanRevisionsRunOut, askHumanTimeout, limits,
        conversation, contextBudgetTokens, AnswerSettings.TEXT);
  }

  /**
   * Settings without a context budget (the window alone), for code that builds them by hand.
   *
   * @param maxSteps the steps of the budget, whatever {@code limits} say
   */
  public AgentSettings(String systemPrompt, String plannerPrompt, Set<String> allowedTools, int maxSteps,
      int contextWindowSteps, int observationPromptChars, int maxStepChars, boolean autoAcceptPlan,
      boolean autoAcceptAnswer, int maxPlanRevisions, RevisionsRunOut whenPlanRevisionsRunOut,
      Duration askHumanTimeout, EscapeLimits limits, ConversationSettings conversation) {
    this(systemPrompt, plannerPrompt, allowedTools, contextWindowSteps, observationPromptChars, maxStepChars,
        autoAcceptPlan, autoAcceptAnswer, maxPlanRevisions, whenPlanRevisionsRunOut, askHumanTimeout,
        limits.withMaxSteps(maxSteps), conversation, 0);
  }

  /** One-shot settings with these limits, for code that builds them by hand. */
  public AgentSettings(String systemPrompt, String plannerPrompt, Set<String> allowedTools, int maxSteps,
      int contextWindowSteps, int observationPromptChars, int maxStepChars, boolean autoAcceptPlan,
      boolean autoAcceptAnswer, int maxPlanRevisions, RevisionsRunOut whenPlanRevisionsRunOut,
      Duration askHumanTimeout, EscapeLimits limits) {
    this(systemPrompt, plannerPrompt, allowedTools, maxSteps, contextWindowSteps, observationPromptChars, maxStepChars,
        autoAcceptPlan, autoAcceptAnswer, maxPlanRevisions, whenPlanRevisionsRunOut, askHumanTimeout, limits,
        ConversationSettings.ONE_SHOT);
  }

  /** Settings without escape limits that could matter ({@link EscapeLimits#NONE}), for code that builds them by hand. */
  public AgentSettings(String systemPrompt, String plannerPrompt, Set<String> allowedTools, int maxSteps,
      int contextWindowSteps, int observationPromptChars, int maxStepChars, boolean autoAcceptPlan,
      boolean autoAcceptAnswer, int maxPlanRevisions, RevisionsRunOut whenPlanRevisionsRunOut,
      Duration askHumanTimeout) {
    this(systemPrompt, plannerPrompt, allowedTools, maxSteps, contextWindowSteps, observationPromptChars, maxStepChars,
        autoAcceptPlan, autoAcceptAnswer, maxPlanRevisions, whenPlanRevisionsRunOut, askHumanTimeout, EscapeLimits.NONE);
  }

  /**
   * @param properties extension properties of the agent's elements
   * @throws InvalidAgentSettingException naming the property when a value cannot be used
   */
  public static AgentSettings of(Map<String, String> properties, AgentDefaults defaults) {
    SettingValues values = new SettingValues(properties);
    return new AgentSettings(
        values.text(SYSTEM_PROMPT, defaults.systemPrompt()),
        values.text(PLANNER_PROMPT, defaults.plannerPrompt()),
        allowedTools(values.text(ALLOWED_TOOLS, ALL_TOOLS), defaults),
        values.count(CONTEXT_WINDOW_STEPS, defaults.contextWindowSteps(), 1),
        defaults.observationPromptChars(),
        defaults.maxStepChars(),
        values.flag(AUTO_ACCEPT_PLAN, defaults.autoAcceptPlan()),
        values.flag(AUTO_ACCEPT_ANSWER, defaults.autoAcceptAnswer()),
        values.count(MAX_PLAN_REVISIONS, defaults.maxPlanRevisions(), 0),
        values.choice(WHEN_PLAN_REVISIONS_RUN_OUT, defaults.whenPlanRevisionsRunOut()),
        values.duration(ASK_HUMAN_TIMEOUT, defaults.askHumanTimeout()),
        new EscapeLimits(
            new Budget(
                values.count(MAX_STEPS, defaults.maxSteps(), 1),
                values.count(MAX_MODEL_CALLS, defaults.maxModelCalls(), 1),
                values.count(MAX_TOOL_CALLS, defaults.maxToolCalls(), 1),
                values.amount(MAX_TOKENS, defaults.maxTokens())),
            values.duration(MAX_RUN_TIME, defaults.maxRunTime()),
            new LoopDetector.Limits(
                values.count(LOOP_MAX_REPEATS, defaults.loopMaxRepeats(), 1),
                values.count(LOOP_MAX_CYCLES, defaults.loopMaxCycles(), 1),
                values.count(LOOP_MAX_SAME_FAILURES, defaults.loopMaxSameFailures(), 1))),
        new ConversationSettings(values.flag(CONVERSATION, defaults.conversation()),
            values.duration(CONVERSATION_IDLE, defaults.conversationIdle())),
        values.count(CONTEXT_BUDGET_TOKENS, defaults.contextBudgetTokens(), 0),
        new AnswerSettings(values.answerSchema(ANSWER_SCHEMA),
            values.count(MAX_ANSWER_REPAIRS, defaults.maxAnswerRepairs(), 0)));
  }

  /** Settings like these with another context budget: 0 turns the digest off. */
  public AgentSettings withContextBudgetTokens(int tokens) {
    return new AgentSettings(systemPrompt, plannerPrompt, allowedTools, contextWindowSteps,
        observationPromptChars, maxStepChars, autoAcceptPlan, autoAcceptAnswer, maxPlanRevisions,
        whenPlanRevisionsRunOut, askHumanTimeout, limits, conversation, tokens, answer);
  }

  /** Settings like these with another answer schema ({@code null}: answers are text), e.g. the one a start gave. */
  public AgentSettings withAnswerSchema(AnswerSchema schema) {
    return new AgentSettings(systemPrompt, plannerPrompt, allowedTools, contextWindowSteps, observationPromptChars,
        maxStepChars, autoAcceptPlan, autoAcceptAnswer, maxPlanRevisions, whenPlanRevisionsRunOut, askHumanTimeout,
        limits, conversation, contextBudgetTokens, new AnswerSettings(schema, answer.maxRepairs()));
  }

  /**
   * The settings of one run: these, with the answer schema its start gave where it gave one.
   *
   * @param runAnswerSchema the schema's JSON as the run keeps it; {@code null}: the agent's own
   */
  public AgentSettings forRun(String runAnswerSchema) {
    return runAnswerSchema == null ? this : withAnswerSchema(AnswerSchema.parse(runAnswerSchema));
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

  /** The budget of a run of this agent, unless a person raised it or its caller had less left. */
  public Budget budget() {
    return limits.budget();
  }

  /** The model turns a run may take ({@code maxSteps}), unless a person raised them. */
  public int maxSteps() {
    return limits.budget().maxSteps();
  }

  public boolean allows(String tool) {
    return allowedTools.contains(ALL_TOOLS) || allowedTools.contains(tool);
  }

  private static Set<String> allowedTools(String value, AgentDefaults defaults) {
    return FROM_APPLICATION.equals(value.trim()) ? toolNames(String.join(",", defaults.allowedTools()))
        : toolNames(value);
  }

  private static Set<String> toolNames(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
  }
}
