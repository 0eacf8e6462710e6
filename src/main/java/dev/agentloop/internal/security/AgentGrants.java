package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import static dev.agentloop.api.AgentLoopGroups.ANALYSTS;
import static dev.agentloop.api.AgentLoopGroups.OPERATORS;
import static dev.agentloop.api.AgentLoopGroups.REVIEWERS;
import static dev.agentloop.api.AgentLoopGroups.WORKERS;
import static org.camunda.bpm.engine.authorization.Permissions.ALL;
import static org.camunda.bpm.engine.authorization.Permissions.READ;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.CREATE_INSTANCE;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.READ_HISTORY;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.READ_INSTANCE;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.READ_TASK;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.UPDATE_INSTANCE;
import static org.camunda.bpm.engine.authorization.Resources.PROCESS_DEFINITION;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.function.BooleanSupplier;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.Resource;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;

/**
 * The rights of the AgentLoop groups on one agent, granted per process-definition key, so that
 * processes of the host that are no agents get nothing: reviewers read the agent's runs, tasks and
 * history and start runs; operators may do everything with it; analysts read its runs and start runs;
 * workers get READ_INSTANCE and UPDATE_INSTANCE, which fetch-and-lock needs, but only where
 * {@link EngineRestGate} fences what they may call: those rights alone would let them modify a run past its reviews through {@code /engine-rest}.
 *
 * <p>A right is added only where the group has no authorization of its own on that key: what an
 * administrator set (a grant, a revoke, other permissions) stays as it is. Thread-safe.
 */
public final class AgentGrants {

  private AgentGrants() {}

  /**
   * Grants what is missing on the agent with this process-definition key.
   *
   * @param workers whether to grant {@code agent-workers} too: only where AgentLoop secures and fences
   *     {@code /engine-rest} ({@code agentloop.security.secure-engine-rest})
   */
  public static void ensure(AuthorizationService authorizations, String processDefinitionKey, boolean workers) {
    if (EvaluationKeys.isCandidate(processDefinitionKey)) {
      return; // an evaluation's candidate is its evaluation's: nobody starts it, reads it or serves its tasks
    }
    grant(authorizations, REVIEWERS, PROCESS_DEFINITION, processDefinitionKey,
        READ, READ_TASK, READ_INSTANCE, READ_HISTORY, CREATE_INSTANCE);
    grant(authorizations, OPERATORS, PROCESS_DEFINITION, processDefinitionKey, ALL);
    grant(authorizations, ANALYSTS, PROCESS_DEFINITION, processDefinitionKey,
        READ, READ_INSTANCE, READ_HISTORY, CREATE_INSTANCE);
    if (workers) {
      grant(authorizations, WORKERS, PROCESS_DEFINITION, processDefinitionKey, READ_INSTANCE, UPDATE_INSTANCE);
    }
  }

  /** An agent has a service task on an {@code agentloop.*} topic, as the deployment parse decides it. */
  static boolean isAgent(BpmnModelInstance model) {
    return model.getModelElementsByType(ServiceTask.class).stream()
        .anyMatch(task -> task.getCamundaTopic() != null
            && task.getCamundaTopic().startsWith(ReactAgentProcess.TOPIC_PREFIX));
  }

  static void grant(AuthorizationService authorizations, String group, Resource resource, String resourceId,
      Permission... permissions) {
    insertUnlessPresent(() -> authorizations.createAuthorizationQuery().groupIdIn(group)
        .resourceType(resource).resourceId(resourceId).count() > 0, () -> {
          Authorization grant = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
          grant.setGroupId(group);
          grant.setResource(resource);
          grant.setResourceId(resourceId);
          for (Permission permission : permissions) {
            grant.addPermission(permission);
          }
          authorizations.saveAuthorization(grant);
        });
  }

  /** Another node may insert the same row between the check and the insert; then it is there, which is all we want. */
  static void insertUnlessPresent(BooleanSupplier present, Runnable insert) {
    if (present.getAsBoolean()) {
      return;
    }
    try {
      insert.run();
    } catch (ProcessEngineException e) {
      if (!present.getAsBoolean()) {
        throw e;
      }
    }
  }
}
