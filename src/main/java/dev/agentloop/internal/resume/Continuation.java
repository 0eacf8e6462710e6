package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.loop.Route;

/**
 * Where a run continues after its trace was changed, as a BPMN element of the agent loop: with
 * calls of the head's turn still unobserved, where the router sends them; otherwise {@code think}.
 */
public enum Continuation {
  THINK(ReactAgentProcess.THINK),
  ACT(ReactAgentProcess.ACT),
  APPROVE_ACTION(ReactAgentProcess.APPROVE_ACTION),
  ASK_HUMAN(ReactAgentProcess.ASK_HUMAN);

  private final String elementId;

  Continuation(String elementId) {
    this.elementId = elementId;
  }

  public String elementId() {
    return elementId;
  }

  static Continuation after(Route route) {
    return switch (route) {
      // act hands calls of remote tools on to their workers, calls of agents to their child runs
      case ACT, CALL_REMOTE_TOOL, CALL_AGENT -> ACT;
      case APPROVE_ACTION -> APPROVE_ACTION;
      case ASK_HUMAN -> ASK_HUMAN;
      case DONE, THINK -> THINK;
    };
  }
}
