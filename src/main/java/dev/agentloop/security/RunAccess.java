package dev.agentloop.security;

import java.util.List;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.identity.Authentication;

/**
 * Whether the current user may see a run. The step store is AgentLoop's own table, which Camunda's
 * authorization does not cover, so reading a trace asks the engine the question Cockpit asks for
 * an instance's history: can this user see the run's historic process instance?
 *
 * <p>Changing a run's course (edit a step, regenerate, stop) is for {@code agent-operators}, and
 * for the reviewers a waiting run's open task is offered to; restarting a finished run is for
 * operators, and so is deleting a finished run's trace. Code without an authenticated user (an embedding application, a test) may do all.
 */
public class RunAccess {

  private final ProcessEngine engine;

  public RunAccess(ProcessEngine engine) {
    this.engine = engine;
  }

  /** Whether the current user may read the run. */
  public boolean mayRead(String runId) {
    return engine.getIdentityService().getCurrentAuthentication() == null
        || engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(runId).count() > 0;
  }

  /** @throws AuthorizationException when the current user may not read the run */
  public void requireRead(String runId) {
    if (mayRead(runId)) {
      return;
    }
    throw new AuthorizationException("user " + engine.getIdentityService().getCurrentAuthentication().getUserId()
        + " may not read run " + runId + ": it needs READ_HISTORY on the run's process definition"
        + " (the group agent-reviewers has it)");
  }

  /** Whether the current user may edit, regenerate or stop the run. */
  public boolean mayChange(String runId) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    if (user == null || isOperator(user)) {
      return true;
    }
    List<String> groups = user.getGroupIds() == null ? List.of() : user.getGroupIds();
    return engine.getTaskService().createTaskQuery().processInstanceId(runId)
        .or().taskAssignee(user.getUserId()).taskCandidateGroupIn(groups.isEmpty() ? List.of("") : groups).endOr()
        .count() > 0;
  }

  /** @throws AuthorizationException when the current user may not edit, regenerate or stop the run */
  public void requireChange(String runId) {
    if (!mayChange(runId)) {
      throw new AuthorizationException("user " + currentUser() + " may not change the course of run " + runId
          + ": that is for " + AgentLoopGroups.OPERATORS + ", and for reviewers while the run waits on a task"
          + " offered to them");
    }
  }

  /** Whether the current user may restart finished runs. */
  public boolean mayRestart() {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    return user == null || isOperator(user);
  }

  /** @throws AuthorizationException when the current user may not restart runs */
  public void requireRestart() {
    if (!mayRestart()) {
      throw new AuthorizationException("user " + currentUser() + " may not restart runs: that is for "
          + AgentLoopGroups.OPERATORS);
    }
  }

  /** Whether the current user may delete a finished run's trace: operators, and code without a user. */
  public boolean mayDeleteTrace() {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    return user == null || isOperator(user);
  }

  /** @throws AuthorizationException when the current user may not delete traces */
  public void requireDeleteTrace() {
    if (!mayDeleteTrace()) {
      throw new AuthorizationException("user " + currentUser() + " may not delete a run's trace: that is for "
          + AgentLoopGroups.OPERATORS);
    }
  }

  /** The authenticated user's id, the author of the steps a person writes through the API. */
  public String currentUser() {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    return user == null ? "unknown user" : user.getUserId();
  }

  private static boolean isOperator(Authentication user) {
    return user.getGroupIds() != null && user.getGroupIds().contains(AgentLoopGroups.OPERATORS);
  }

}
