package dev.agentloop.agent;

/**
 * Everything Java needs to know about {@code processes/react-agent.bpmn}: element ids, topics,
 * BPMN error codes and variables. Other agents built from the same element templates share the
 * topics, variables and extension property names.
 */
public final class ReactAgentProcess {

  public static final String KEY = "react-agent";

  // elements
  public static final String START = "questionAsked";
  public static final String PLAN = "plan";
  public static final String REVIEW_PLAN = "reviewPlan";
  public static final String REJECTED = "rejected";
  public static final String AGENT_LOOP = "agentLoop";
  public static final String LOOP_START = "loopStart";
  public static final String THINK = "think";
  public static final String NEXT_STEP = "nextStep";
  public static final String ASK_HUMAN = "askHuman";
  public static final String NO_ANSWER = "noAnswer";
  public static final String APPROVE_ACTION = "approveAction";
  public static final String ACT = "act";
  public static final String LOOP_DONE = "loopDone";
  public static final String REVIEW_ANSWER = "reviewAnswer";
  public static final String ANSWERED = "answered";
  /** The boundary timer on the agent loop: its run-time budget ({@link #MAX_RUN_TIME}) ran out. */
  public static final String RUN_TIME_USED_UP = "runTimeUsedUp";
  /** The user task where a person decides how a run that left its loop goes on (guide, retry, stop). */
  public static final String AGENT_STUCK = "agentStuck";
  /** The end event of a run a person stopped in {@link #AGENT_STUCK}; the run ends STOPPED. */
  public static final String STOPPED = "stopped";

  // external-task topics, served by the embedded worker (or remote workers)
  public static final String TOPIC_PREFIX = "agentloop.";
  public static final String TOPIC_PLAN = "agentloop.plan";
  public static final String TOPIC_THINK = "agentloop.think";
  public static final String TOPIC_ACT = "agentloop.act";

  /** Extension property that marks a user task AgentLoop fills and reads, e.g. {@code plan}. */
  public static final String REVIEW_PROPERTY = "agentloop.review";

  // variables
  /** The question the run answers; set when the run starts. */
  public static final ProcessVariable<String> QUESTION = ProcessVariable.string("question");
  /** Where the loop goes next, one of {@link Route#value()}; transient, see {@link Route#asVariable()}. */
  public static final ProcessVariable<String> ROUTE = ProcessVariable.string("route");
  /** The latest final answer, for Cockpit and Tasklist; the trace keeps all of them. */
  public static final ProcessVariable<String> FINAL_ANSWER = ProcessVariable.string("finalAnswer");
  /** What the gateway after a review or a reviewable step takes; transient, like {@link #ROUTE}. */
  public static final ProcessVariable<String> DECISION = ProcessVariable.string("decision");
  /** How long {@code askHuman} waits (ISO-8601), read by its boundary timer; transient. */
  public static final ProcessVariable<String> ASK_HUMAN_TIMEOUT = ProcessVariable.string("askHumanTimeout");
  /** Why the run ended as it did (rejected, stopped), read when it ends; transient. */
  public static final ProcessVariable<String> STATUS_REASON = ProcessVariable.string("statusReason");
  /**
   * The run time of the agent loop (ISO-8601), read by its boundary timer {@link #RUN_TIME_USED_UP}
   * each time the loop is entered; set from the agent's settings when the run starts.
   */
  public static final ProcessVariable<String> MAX_RUN_TIME = ProcessVariable.string("maxRunTime");
  /**
   * Why the run last left its agent loop: the BPMN error code (the boundary events' errorCodeVariable),
   * or BUDGET_EXHAUSTED when the run-time timer fired.
   */
  public static final ProcessVariable<String> ESCAPE_CODE = ProcessVariable.string("escapeCode");
  /** What happened, in words: the BPMN error's message (errorMessageVariable) or the timer's. */
  public static final ProcessVariable<String> ESCAPE_REASON = ProcessVariable.string("escapeReason");

  private ReactAgentProcess() {}
}
