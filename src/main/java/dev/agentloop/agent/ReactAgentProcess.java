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
  public static final String AGENT_LOOP = "agentLoop";
  public static final String LOOP_START = "loopStart";
  public static final String NEXT_STEP = "nextStep";
  public static final String THINK = "think";
  public static final String ACT = "act";
  public static final String LOOP_DONE = "loopDone";
  public static final String ANSWERED = "answered";

  // external-task topics, served by the embedded worker (or remote workers)
  public static final String TOPIC_PREFIX = "agentloop.";
  public static final String TOPIC_PLAN = "agentloop.plan";
  public static final String TOPIC_THINK = "agentloop.think";
  public static final String TOPIC_ACT = "agentloop.act";

  // variables
  /** The question the run answers; set when the run starts. */
  public static final ProcessVariable<String> QUESTION = ProcessVariable.string("question");
  /** Where the loop goes next, one of {@link Route#value()}; transient, see {@link Route#asVariable()}. */
  public static final ProcessVariable<String> ROUTE = ProcessVariable.string("route");
  /** The latest final answer, for Cockpit and Tasklist; the trace keeps all of them. */
  public static final ProcessVariable<String> FINAL_ANSWER = ProcessVariable.string("finalAnswer");

  private ReactAgentProcess() {}
}
