package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.resilience.EscapeLimits;
import dev.agentloop.internal.resilience.LoopDetector;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings of one agent: defaults from {@code agentloop.agent.*}, overridden by the extension
 * properties an analyst sets on the agent's tasks in the diagram (their names are the constants here). Immutable.
 *
 * @param prompt the prompts and how much of the run the model sees
 * @param allowedTools tool names the agent may call; {@code ["*"]} allows every registered tool
 * @param review where people come in: plan and answer reviews, plan revisions, the ask-human time-out
 * @param limits the budget (its steps included), the run time of the agent loop and loop-detection limits: where
 *     the run escapes
 * @param conversation whether a run takes follow-up questions after its accepted answer, and how long it waits
 * @param answer the schema the final answer must match, if any, and how often a breach goes back to the model
 */
public record AgentSettings(
    PromptSettings prompt,
    Set<String> allowedTools,
    ReviewSettings review,
    EscapeLimits limits,
    ConversationSettings conversation,
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
    Objects.requireNonNull(prompt, "prompt");
    allowedTools = Set.copyOf(allowedTools);
    Objects.requireNonNull(review, "review");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(conversation, "conversation");
    Objects.requireNonNull(answer, "answer");
  }

  /**
   * @param properties extension properties of the agent's elements
   * @throws InvalidAgentSettingException naming the property when a value cannot be used
   */
  public static AgentSettings of(Map<String, String> properties, AgentDefaults defaults) {
    SettingValues values = new SettingValues(properties);
    return new AgentSettings(
        PromptSettings.of(values, defaults),
        allowedTools(values.text(ALLOWED_TOOLS, ALL_TOOLS), defaults),
        ReviewSettings.of(values, defaults),
        limits(values, defaults),
        new ConversationSettings(values.flag(CONVERSATION, defaults.conversation()),
            values.duration(CONVERSATION_IDLE, defaults.conversationIdle())),
        new AnswerSettings(values.answerSchema(ANSWER_SCHEMA),
            values.count(MAX_ANSWER_REPAIRS, defaults.maxAnswerRepairs(), 0)));
  }

  /** Settings like these with another answer schema ({@code null}: answers are text), e.g. the one a start gave. */
  public AgentSettings withAnswerSchema(AnswerSchema schema) {
    return new AgentSettings(prompt, allowedTools, review, limits, conversation,
        new AnswerSettings(schema, answer.maxRepairs()));
  }

  /**
   * The settings of one run: these, with the answer schema its start gave where it gave one.
   *
   * @param runAnswerSchema the schema's JSON as the run keeps it; {@code null}: the agent's own
   */
  public AgentSettings forRun(String runAnswerSchema) {
    return runAnswerSchema == null ? this : withAnswerSchema(AnswerSchema.parse(runAnswerSchema));
  }

  /** How many steps of the active path a handler reads, see {@link PromptSettings#pathStepsToRead()}. */
  public int pathStepsToRead() {
    return prompt.pathStepsToRead();
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

  private static EscapeLimits limits(SettingValues values, AgentDefaults defaults) {
    return new EscapeLimits(
        new Budget(
            values.count(MAX_STEPS, defaults.maxSteps(), 1),
            values.count(MAX_MODEL_CALLS, defaults.maxModelCalls(), 1),
            values.count(MAX_TOOL_CALLS, defaults.maxToolCalls(), 1),
            values.amount(MAX_TOKENS, defaults.maxTokens())),
        values.duration(MAX_RUN_TIME, defaults.maxRunTime()),
        new LoopDetector.Limits(
            values.count(LOOP_MAX_REPEATS, defaults.loopMaxRepeats(), 1),
            values.count(LOOP_MAX_CYCLES, defaults.loopMaxCycles(), 1),
            values.count(LOOP_MAX_SAME_FAILURES, defaults.loopMaxSameFailures(), 1)));
  }

  private static Set<String> allowedTools(String value, AgentDefaults defaults) {
    return FROM_APPLICATION.equals(value.trim()) ? toolNames(String.join(",", defaults.allowedTools()))
        : toolNames(value);
  }

  private static Set<String> toolNames(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
  }
}
