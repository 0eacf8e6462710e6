package dev.agentloop.security;

import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.ProcessEngine;

/**
 * Whether the current user may see a run. The step store is AgentLoop's own table, which Camunda's
 * authorization does not cover, so reading a trace asks the engine the question Cockpit asks for
 * an instance's history: can this user see the run's historic process instance?
 */
public class RunAccess {

  private final ProcessEngine engine;

  public RunAccess(ProcessEngine engine) {
    this.engine = engine;
  }

  /** @throws AuthorizationException when the current user may not read the run */
  public void requireRead(String runId) {
    if (engine.getIdentityService().getCurrentAuthentication() == null
        || engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(runId).count() > 0) {
      return;
    }
    throw new AuthorizationException("user " + engine.getIdentityService().getCurrentAuthentication().getUserId()
        + " may not read run " + runId + ": it needs READ_HISTORY on the run's process definition"
        + " (the group agent-reviewers has it)");
  }
}
