package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.identity.Authentication;

/**
 * Whether the current user may see a run. The step store is AgentLoop's own table, which Camunda's
 * authorization does not cover, so reading a trace asks the engine the question Cockpit asks for
 * an instance's history: can this user see the run's historic process instance?
 *
 * <p>Changing a run's course (edit a step, regenerate, stop) is for {@code agent-operators}, and
 * for the reviewers a waiting run's open task is offered to; restarting a finished run is for
 * operators, and so is deleting a finished run's trace; moving an agent's runs to another of its versions is for
 * operators, the engine's admins and the analysts of the group that owns the agent's key ({@link #mayMigrate}). Code
 * without an authenticated user (an embedding application, a test) may do all.
 */
public class RunAccess {

  private final ProcessEngine engine;
  private final AgentOwnership owners;

  public RunAccess(ProcessEngine engine, AgentOwnership owners) {
    this.engine = engine;
    this.owners = owners;
  }

  /** Whether the current user may read the run. */
  public boolean mayRead(String runId) {
    return engine.getIdentityService().getCurrentAuthentication() == null
        || engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(runId).count() > 0;
  }

  /**
   * The runs of an agent the current user may read: empty where they may read every run of it (code
   * without a user, engine admins, READ_HISTORY on the agent's process definition), else the ids of the
   * runs the engine lets them read one by one (none for a user without rights), so that a search counts
   * only those.
   */
  public Optional<Set<String>> readableRuns(String agentKey) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    if (user == null || !engine.getProcessEngineConfiguration().isAuthorizationEnabled() || isAdmin(user)
        || engine.getAuthorizationService().isUserAuthorized(user.getUserId(), user.getGroupIds(),
            ProcessDefinitionPermissions.READ_HISTORY, Resources.PROCESS_DEFINITION, agentKey)) {
      return Optional.empty();
    }
    return Optional.of(engine.getHistoryService().createHistoricProcessInstanceQuery().processDefinitionKey(agentKey)
        .list().stream().map(HistoricProcessInstance::getId).collect(Collectors.toUnmodifiableSet()));
  }

  private boolean isAdmin(Authentication user) {
    if (!(engine.getProcessEngineConfiguration() instanceof ProcessEngineConfigurationImpl configuration)) {
      return false;
    }
    List<String> adminUsers = configuration.getAdminUsers() == null ? List.of() : configuration.getAdminUsers();
    List<String> adminGroups = configuration.getAdminGroups() == null ? List.of() : configuration.getAdminGroups();
    return adminUsers.contains(user.getUserId())
        || (user.getGroupIds() != null && user.getGroupIds().stream().anyMatch(adminGroups::contains));
  }

  /**
   * Whether the current user may start runs of an agent: what the engine asks when one starts (create a process
   * instance, and create an instance of the agent's definition). Code without a user, engine admins and engines
   * without authorization may start every agent.
   */
  public boolean mayStart(String agentKey) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    if (user == null || !engine.getProcessEngineConfiguration().isAuthorizationEnabled() || isAdmin(user)) {
      return true;
    }
    AuthorizationService authorizations = engine.getAuthorizationService();
    return authorizations.isUserAuthorized(user.getUserId(), user.getGroupIds(), Permissions.CREATE,
        Resources.PROCESS_INSTANCE)
        && authorizations.isUserAuthorized(user.getUserId(), user.getGroupIds(),
            ProcessDefinitionPermissions.CREATE_INSTANCE, Resources.PROCESS_DEFINITION, agentKey);
  }

  /** Whether the current user started the run (its process instance's start user). */
  public boolean startedRun(String runId) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    if (user == null) {
      return false;
    }
    HistoricProcessInstance instance = engine.getHistoryService().createHistoricProcessInstanceQuery()
        .processInstanceId(runId).singleResult();
    return instance != null && user.getUserId().equals(instance.getStartUserId());
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

  /**
   * Whether the current user may move the runs of an agent to another version of it: operators, engine admins, and
   * code without a user. Analysts may not (yet): the rule that lets an analyst move the runs of the agent keys they
   * own belongs here and nowhere else, so every way to migrate (API, Cockpit, batch) asks this one method.
   */
  public boolean mayMigrate(String agentKey) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    return user == null || isOperator(user) || isAdmin(user) || user.getGroupIds() != null
        && user.getGroupIds().contains(AgentLoopGroups.ANALYSTS)
        && owners.mayChange(user.getUserId(), user.getGroupIds(), agentKey);
  }

  /** @throws AuthorizationException when the current user may not move the runs of this agent between versions */
  public void requireMigrate(String agentKey) {
    if (!mayMigrate(agentKey)) {
      throw new AuthorizationException("user " + currentUser() + " may not move the runs of agent " + agentKey
          + " to another of its versions: that is for " + AgentLoopGroups.OPERATORS + ", the engine's admins and the "
          + AgentLoopGroups.ANALYSTS + " of the group that owns the agent");
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
