package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.Map;

/**
 * Where the agent loop goes after a thought (gateway {@code nextStep}) or after {@code act} (gateway
 * {@code remoteCallsPending}, which also leads to {@code callAgent}): they compare the {@code route} variable with these values, e.g.
 * {@code ${route == 'done'}}. The variable is transient: set by the completion of {@code think} or
 * {@code act} and read by the gateway in the same transaction, it is never written to the database
 * (the trace is where the state lives).
 */
public enum Route {
  ACT(ReactAgentProcess.ACT),
  APPROVE_ACTION(ReactAgentProcess.APPROVE_ACTION),
  ASK_HUMAN(ReactAgentProcess.ASK_HUMAN),
  /** The loop is done: the model gave its final answer. */
  DONE("done"),
  /** After {@code act}: calls of remote tools wait for remote workers. */
  CALL_REMOTE_TOOL(ReactAgentProcess.CALL_REMOTE_TOOL),
  /** After {@code act}: calls of other agents wait for their child runs. */
  CALL_AGENT(ReactAgentProcess.CALL_AGENT),
  /** After {@code act}: every call of the turn has its observation; think again. */
  THINK(ReactAgentProcess.THINK);

  private final String value;

  Route(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** The transient {@code route} variable to complete a task with. */
  Map<String, Object> asVariable() {
    return ReactAgentProcess.ROUTE.transientWith(value);
  }
}
