package dev.agentloop.internal.agent;

import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.identity.Group;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Whether a person may start an agent, asked for someone who is not the current user: the person a run acts for, when
 * the run calls another agent. The engine decides a start by the starter's rights ({@code CREATE_INSTANCE} on the
 * agent's process-definition key and {@code CREATE} on process instances, what {@code POST /api/runs} needs); a call
 * activity starts its process as the engine, with no rights asked, so AgentLoop asks them before a child run starts.
 * Engine administrators may start every agent; so may code without a user, and everyone where authorization is off.
 *
 * <p>A run acts for the person who started the tree it belongs to: the starter of its root process instance (a
 * business process that asks an agent counts as the root). A root started by code without a user, or whose history
 * is not kept, acts for nobody in particular and is not held back. Thread-safe.
 */
public class AgentStartRights {

  private final ObjectProvider<ProcessEngine> engine;

  public AgentStartRights(ObjectProvider<ProcessEngine> engine) {
    this.engine = engine;
  }

  /** The user the run acts for: the starter of its root; empty for code without a user. */
  public Optional<String> actingFor(String runId) {
    var history = engine.getObject().getHistoryService();
    HistoricProcessInstance run = history.createHistoricProcessInstanceQuery().processInstanceId(runId).singleResult();
    if (run == null) {
      return Optional.empty();
    }
    HistoricProcessInstance root = run.getRootProcessInstanceId() == null || run.getRootProcessInstanceId().equals(runId)
        ? run : history.createHistoricProcessInstanceQuery().processInstanceId(run.getRootProcessInstanceId())
            .singleResult();
    return Optional.ofNullable(root == null ? null : root.getStartUserId());
  }

  /**
   * Why the user may not start the agent, in words ("not run: rita may not start the agent 'x' …"); empty where it may.
   */
  public Optional<String> refusal(String userId, String agentKey) {
    return mayStart(userId, agentKey) ? Optional.empty() : Optional.of("not run: " + userId + " may not start the"
        + " agent '" + agentKey + "' (no right CREATE_INSTANCE on it), and this run acts for " + userId
        + "; answer with the other tools");
  }

  /** Whether the user may start the agent with this key. */
  public boolean mayStart(String userId, String agentKey) {
    ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getObject()
        .getProcessEngineConfiguration();
    if (userId == null || !configuration.isAuthorizationEnabled()) {
      return true;
    }
    List<String> groups = configuration.getIdentityService().createGroupQuery().groupMember(userId).list().stream()
        .map(Group::getId).toList();
    List<String> adminGroups = configuration.getAdminGroups() == null ? List.of() : configuration.getAdminGroups();
    if (configuration.getAdminUsers() != null && configuration.getAdminUsers().contains(userId)
        || groups.stream().anyMatch(adminGroups::contains)) {
      return true;
    }
    var authorizations = configuration.getAuthorizationService();
    return authorizations.isUserAuthorized(userId, groups, ProcessDefinitionPermissions.CREATE_INSTANCE,
        Resources.PROCESS_DEFINITION, agentKey)
        && authorizations.isUserAuthorized(userId, groups, Permissions.CREATE, Resources.PROCESS_INSTANCE);
  }
}
