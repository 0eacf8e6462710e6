package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.Resource;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.identity.Authentication;

/**
 * Who may evaluate a candidate of an agent, read its evaluations, and promote one: evaluating (starting one, reading
 * one) is for {@code agent-operators} and for {@code agent-analysts} who may read the agent's runs; promoting changes
 * what the agent's runs run, so it follows the rule of who may change an agent key. Code without a user (an embedding
 * application, a test) may do all. Thread-safe.
 */
public class EvaluationAccess {

  private final ProcessEngine engine;
  private final AgentOwnership owners;
  private final DiagramSandbox sandbox;

  EvaluationAccess(ProcessEngine engine, AgentOwnership owners, DiagramSandbox sandbox) {
    this.engine = engine;
    this.owners = owners;
    this.sandbox = sandbox;
  }

  /** @throws AuthorizationException when the current user may not evaluate candidates of the agent, nor read them */
  public void requireEvaluate(String agentKey) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    if (user == null || isAdmin(user) || groups(user).contains(AgentLoopGroups.OPERATORS)
        || groups(user).contains(AgentLoopGroups.ANALYSTS) && mayReadRuns(user, agentKey)) {
      return;
    }
    throw new AuthorizationException("user " + user.getUserId() + " may not evaluate the agent '" + agentKey + "':"
        + " that is for " + AgentLoopGroups.ANALYSTS + " who may read its runs, and for " + AgentLoopGroups.OPERATORS);
  }

  /**
   * @throws AuthorizationException when the current user may not make a candidate the agent's version that new runs
   *     start on: the rule of who may change the agent key
   */
  public void requirePromote(String agentKey) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    refusalToChange(user, agentKey).ifPresent(why -> {
      throw new AuthorizationException("user " + user.getUserId() + " may not promote a candidate of the agent '"
          + agentKey + "': " + why);
    });
  }

  /**
   * What is wrong with a candidate diagram for the current user, all of it at once: what an analyst may not deploy
   * may not be evaluated by one either, and so never be promoted. Empty: nothing.
   */
  public List<String> candidateProblems(String agentKey, String fileName, byte[] xml) {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    // the candidate is deployed by AgentLoop, under a key of its own: the analysts' deployment check never sees it
    if (user == null || !DeployRights.isAnalystOnly(configuration(), user.getUserId(), groups(user))) {
      return List.of();
    }
    return sandbox.check(fileName, xml).stream().map(SandboxProblem::message).toList();
  }

  /** Why the user may not change the agent key (deploy it, promote to it), or empty. */
  private Optional<String> refusalToChange(Authentication user, String agentKey) {
    return user == null ? Optional.empty() : owners.refusal(user.getUserId(), groups(user), agentKey);
  }


  private boolean mayReadRuns(Authentication user, String agentKey) {
    return authorized(user, ProcessDefinitionPermissions.READ_HISTORY, Resources.PROCESS_DEFINITION, agentKey);
  }

  /** Asked of the authorizations as stored, which the asking user may not be allowed to read. */
  private boolean authorized(Authentication user, Permission permission, Resource resource, String resourceId) {
    if (!engine.getProcessEngineConfiguration().isAuthorizationEnabled()) {
      return true;
    }
    ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
    return configuration.getCommandExecutorTxRequired().execute(context -> context.runWithoutAuthorization(() ->
        resourceId == null
            ? engine.getAuthorizationService().isUserAuthorized(user.getUserId(), groups(user), permission, resource)
            : engine.getAuthorizationService().isUserAuthorized(user.getUserId(), groups(user), permission, resource,
                resourceId)));
  }

  private ProcessEngineConfigurationImpl configuration() {
    return (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
  }

  private boolean isAdmin(Authentication user) {
    if (!(engine.getProcessEngineConfiguration() instanceof ProcessEngineConfigurationImpl configuration)) {
      return false;
    }
    List<String> adminUsers = configuration.getAdminUsers() == null ? List.of() : configuration.getAdminUsers();
    List<String> adminGroups = configuration.getAdminGroups() == null ? List.of() : configuration.getAdminGroups();
    return adminUsers.contains(user.getUserId()) || groups(user).stream().anyMatch(adminGroups::contains);
  }

  private static List<String> groups(Authentication user) {
    return user.getGroupIds() == null ? List.of() : user.getGroupIds();
  }

  /** The current user's id, or {@code null} for code without one. */
  public String currentUser() {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    return user == null ? null : user.getUserId();
  }
}
