package dev.agentloop.internal.agent;

import java.util.List;

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
  public static final String RESUME_GATEWAY = "resumeAt";
  public static final String THINK = "think";
  public static final String NEXT_STEP = "nextStep";
  public static final String ASK_HUMAN = "askHuman";
  public static final String NO_ANSWER = "noAnswer";
  public static final String APPROVE_ACTION = "approveAction";
  public static final String ACT = "act";
  /** After {@link #ACT}: are calls of remote tools pending? */
  public static final String REMOTE_CALLS_PENDING = "remoteCallsPending";
  /** One pending call of a remote tool, served by a remote worker; then back to {@link #ACT}. */
  public static final String CALL_REMOTE_TOOL = "callRemoteTool";
  /** The call activity that asks another agent: one pending call of an agent as a tool, a child run. */
  public static final String CALL_AGENT = "callAgent";
  /** Extension property ({@code true}) that marks a call activity as the one that runs calls of agents as tools. */
  public static final String CALL_AGENT_PROPERTY = "agentloop.callAgent";
  public static final String LOOP_DONE = "loopDone";
  public static final String REVIEW_ANSWER = "reviewAnswer";
  public static final String ANSWERED = "answered";
  /** After an accepted answer: does the run wait for a follow-up question (a conversation) or end? */
  public static final String CONVERSATION_GOES_ON = "conversationGoesOn";
  /** The event-based gateway where a conversation waits for its next question, its close, or its idle timer. */
  public static final String AWAIT_FOLLOW_UP = "awaitFollowUp";
  /** The message catch event that takes the next question ({@link #FOLLOW_UP_MESSAGE}). */
  public static final String FOLLOW_UP_RECEIVED = "followUpReceived";
  /** The message catch event that closes a waiting conversation ({@link #CLOSE_MESSAGE}). */
  public static final String CLOSE_RECEIVED = "closeReceived";
  /** The timer that closes a conversation nobody asked anything for {@link #CONVERSATION_IDLE}. */
  public static final String CONVERSATION_IDLE_TIMER = "conversationIdle";
  /** The end event of a closed conversation (closed, or idle for too long); the run ends ANSWERED. */
  public static final String CONVERSATION_CLOSED = "conversationClosed";
  /** The boundary timer on the agent loop: its run-time budget ({@link #MAX_RUN_TIME}) ran out. */
  public static final String RUN_TIME_USED_UP = "runTimeUsedUp";
  /** The user task where a person decides how a run that left its loop goes on (guide, retry, stop). */
  public static final String AGENT_STUCK = "agentStuck";
  /** The end event of a run a person stopped in {@link #AGENT_STUCK}; the run ends STOPPED. */
  public static final String STOPPED = "stopped";

  // messages a waiting conversation takes, correlated to its process instance
  public static final String FOLLOW_UP_MESSAGE = "agentloop.followUp";
  public static final String CLOSE_MESSAGE = "agentloop.closeConversation";

  // external-task topics, served by the embedded worker (or remote workers)
  public static final String TOPIC_PREFIX = "agentloop.";
  public static final String TOPIC_PLAN = "agentloop.plan";
  public static final String TOPIC_THINK = "agentloop.think";
  public static final String TOPIC_ACT = "agentloop.act";
  /** Topics of remote tools: {@code agentloop.tool.<tool name>}, served only by remote workers. */
  public static final String TOPIC_REMOTE_TOOL_PREFIX = "agentloop.tool.";
  /** The topic expression of {@link #CALL_REMOTE_TOOL}: the tool of the call it serves. */
  public static final String TOPIC_REMOTE_TOOL = "agentloop.tool.${tool}";

  /** Extension property that marks a user task AgentLoop fills and reads, e.g. {@code plan}. */
  public static final String REVIEW_PROPERTY = "agentloop.review";
  /**
   * On the ask-human task: {@code true} lets the run's client (an A2A caller) answer the agent's questions, besides
   * the people the task is offered to. Default {@code false}.
   */
  public static final String CALLERS_MAY_ANSWER_PROPERTY = "agentloop.callersMayAnswer";

  // variables
  /**
   * The question of the run's current turn: set when the run starts, and to each follow-up question
   * of a conversation (the trace keeps them all).
   */
  public static final ProcessVariable<String> QUESTION = ProcessVariable.string("question");
  /** Where the loop goes next, one of {@link dev.agentloop.internal.agent.loop.Route#value()}; transient, see {@link dev.agentloop.internal.agent.loop.Route#asVariable()}. */
  public static final ProcessVariable<String> ROUTE = ProcessVariable.string("route");
  /** The latest final answer, for Cockpit and Tasklist; the trace keeps all of them. */
  public static final ProcessVariable<String> FINAL_ANSWER = ProcessVariable.string("finalAnswer");
  /**
   * The latest final answer's fields (Spin JSON), for an agent with an answer schema; each top-level field is also a
   * variable of its own, {@link #ANSWER_FIELD_PREFIX}{@code <name>}, that a gateway reads.
   */
  public static final String ANSWER_DATA = "answerData";
  /**
   * At a run's start: an answer schema (JSON text, or Spin JSON) that the run's answers must match instead of its
   * agent's own, e.g. passed in by a calling process; checked when the run starts and kept with the run.
   */
  public static final String ANSWER_SCHEMA = "answerSchema";
  /** What the variable of an answer's field is named by: {@code answer_category}. */
  public static final String ANSWER_FIELD_PREFIX = dev.agentloop.api.AnswerFieldsMapping.PREFIX;
  /** What the gateway after a review or a reviewable step takes; transient, like {@link #ROUTE}. */
  public static final ProcessVariable<String> DECISION = ProcessVariable.string("decision");
  /** How long {@code askHuman} waits (ISO-8601), read by its boundary timer; transient. */
  public static final ProcessVariable<String> ASK_HUMAN_TIMEOUT = ProcessVariable.string("askHumanTimeout");
  /**
   * Where the loop resumes after a person edited a step from a form: {@code act} or
   * {@code approveAction}, read by the gateway {@link #RESUME_GATEWAY} (absent: {@code think}); transient.
   */
  public static final ProcessVariable<String> RESUME_AT = ProcessVariable.string("resumeAt");
  /**
   * How the run ended ({@code ANSWERED}, {@code REJECTED}, {@code STOPPED}): set by every top-level end event, so
   * that a business process calling the agent (a call activity) can map it out and route on it.
   */
  public static final ProcessVariable<String> OUTCOME = ProcessVariable.string("outcome");
  /** Why the run ended as it did, in the person's words (rejected, stopped), set with {@link #OUTCOME}. */
  public static final ProcessVariable<String> OUTCOME_REASON = ProcessVariable.string("outcomeReason");
  /** The question for the child run of {@link #CALL_AGENT}, local to it, mapped into the child's {@link #QUESTION}. */
  public static final ProcessVariable<String> AGENT_QUESTION = ProcessVariable.string("agentQuestion");
  /** The id of the child run that answered a call of {@link #CALL_AGENT}, mapped out of the child's {@link #RUN_ID}. */
  public static final ProcessVariable<String> CHILD_RUN_ID = ProcessVariable.string("childRunId");
  /**
   * After {@link #ACT}, when it routes to {@link #CALL_AGENT}: the ids of the calls of agents that wait for child
   * runs, in the order the model made them; the collection of a parallel multi-instance {@link #CALL_AGENT} (element
   * variable {@link #CALL_ID}), which starts one child run per call at once. Transient, like {@link #ROUTE}.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static final ProcessVariable<List<String>> AGENT_CALLS =
      new ProcessVariable<>("agentCalls", (Class<List<String>>) (Class) List.class);
  /**
   * On a child run started again after a person edited a step of it: {@code <caller run>/<observation step>}, the
   * caller's observation of the call that its answer replaces when it ends.
   */
  public static final ProcessVariable<String> REANSWERS = ProcessVariable.string("reanswers");
  /** The run's id, set with {@link #OUTCOME} when it ends, for a caller to map out and link to the trace. */
  public static final ProcessVariable<String> RUN_ID = ProcessVariable.string("runId");
  /** Why the run ended as it did (rejected, stopped), read when it ends; transient. */
  public static final ProcessVariable<String> STATUS_REASON = ProcessVariable.string("statusReason");
  /**
   * The run time of the agent loop (ISO-8601), read by its boundary timer {@link #RUN_TIME_USED_UP}
   * each time the loop is entered; set from the agent's settings when the run starts.
   */
  public static final ProcessVariable<String> MAX_RUN_TIME = ProcessVariable.string("maxRunTime");
  /** Whether the run goes on as a conversation after an accepted answer; set from the settings at start. */
  public static final ProcessVariable<Boolean> CONVERSATION = new ProcessVariable<>("conversation", Boolean.class);
  /** How long a conversation waits for a follow-up (ISO-8601), read by its idle timer; set at start. */
  public static final ProcessVariable<String> CONVERSATION_IDLE = ProcessVariable.string("conversationIdle");
  /**
   * {@code asked} when whoever accepted an answer also asked the next question (answer review's
   * "accept and ask a follow-up", or a replayed turn): the conversation goes on at once; transient.
   */
  public static final ProcessVariable<String> FOLLOW_UP = ProcessVariable.string("followUp");
  /** The value of {@link #FOLLOW_UP} when the next question is already in the trace. */
  public static final String FOLLOW_UP_ASKED = "asked";
  /**
   * The questions of later turns to ask again after a turn was regenerated with replay, as a JSON
   * array of {@code {"question", "askedBy"}}, the next first; absent when there are none.
   */
  public static final ProcessVariable<String> REPLAY_QUESTIONS = ProcessVariable.string("replayQuestions");
  /**
   * Why the run last left its agent loop: the BPMN error code (the boundary events' errorCodeVariable),
   * or BUDGET_EXHAUSTED when the run-time timer fired.
   */
  public static final ProcessVariable<String> ESCAPE_CODE = ProcessVariable.string("escapeCode");
  /** What happened, in words: the BPMN error's message (errorMessageVariable) or the timer's. */
  public static final ProcessVariable<String> ESCAPE_REASON = ProcessVariable.string("escapeReason");
  /**
   * The calls of agents whose child runs had answered when {@link #CALL_AGENT} was cancelled (the run's time ran out,
   * its tree's budget was spent), one {@code <call id> <child run>} a line: their answers are kept as observations
   * when the open calls are closed in {@link #AGENT_STUCK}. Absent otherwise.
   */
  public static final ProcessVariable<String> ANSWERS_IN = ProcessVariable.string("agentAnswersIn");
  /**
   * Why AgentLoop stops the child runs this run waits for, in words, set just before it cancels them (its tree's
   * budget is spent, it failed): each child ends with it as its reason.
   */
  public static final ProcessVariable<String> CALLS_STOPPED = ProcessVariable.string("agentCallsStopped");

  /**
   * Local to every review task: the run's question cut to one line, so that Tasklist's list (the filter
   * "Agent reviews" shows it) and the form's heading tell one run from another.
   */
  public static final ProcessVariable<String> SUBJECT = ProcessVariable.string("subject");

  // variables of a remote tool call, local to the callRemoteTool task: what the remote worker fetches ...
  /** The id of the model's tool call. */
  public static final ProcessVariable<String> CALL_ID = ProcessVariable.string("callId");
  /** The tool's name; the task's topic is {@code agentloop.tool.<tool>}. */
  public static final ProcessVariable<String> TOOL = ProcessVariable.string("tool");
  /** The call's arguments as a JSON object in text, checked against the tool's schema. */
  public static final ProcessVariable<String> ARGUMENTS = ProcessVariable.string("arguments");
  // ... and what it completes the task with: one of them
  /** What the tool returned, for the model to read. */
  public static final String RESULT = "result";
  /** Why the tool could not do what was asked, for the model to read (a technical failure is handleFailure). */
  public static final String ERROR = "error";

  /**
   * Local to the multi-instance body of a parallel {@link #CALL_AGENT}: the child run that answered call
   * {@code callId}, kept until every child has ended, so that the calls are observed together in their order.
   */
  public static String childRunOf(String callId) {
    return "childRun." + callId;
  }

  private ReactAgentProcess() {}
}
