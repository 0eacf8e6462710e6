package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;
import java.util.List;
import java.util.concurrent.Callable;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;

/**
 * Who deploys as an analyst: a member of {@code agent-analysts} whose only right to deploy comes from that group. An
 * engine administrator, or a member of another group that Camunda lets deploy ({@code CREATE} on deployments), deploys
 * as the application does, and so does code without a user (the application's own deployment at start). Thread-safe.
 */
final class DeployRights {

  private DeployRights() {}

  /** As whom a user deploys. */
  enum Deployer {
    /** Code without a user, an engine administrator, or a user a group other than the analysts lets deploy. */
    APPLICATION,
    /** A member of {@code agent-analysts} with no other right to deploy: held to agents, and to keys of its group. */
    ANALYST,
    /** Anyone else: may not deploy. */
    NOBODY
  }

  /** @param groups the user's groups; {@code null} or empty for none */
  static Deployer of(ProcessEngineConfigurationImpl engine, String userId, List<String> groups) {
    List<String> known = groups == null ? List.of() : groups;
    if (userId == null || isAdmin(engine, userId, known) || mayDeployThroughOtherGroups(engine, userId, known)) {
      return Deployer.APPLICATION;
    }
    return known.contains(AgentLoopGroups.ANALYSTS) ? Deployer.ANALYST : Deployer.NOBODY;
  }

  /** Whether the user is held to what an analyst may deploy and change. */
  static boolean isAnalystOnly(ProcessEngineConfigurationImpl engine, String userId, List<String> groups) {
    return userId != null && groups != null && groups.contains(AgentLoopGroups.ANALYSTS)
        && of(engine, userId, groups) == Deployer.ANALYST;
  }

  /** Engine administrators: the configured admin users and the members of the admin groups ({@code camunda-admin}). */
  static boolean isAdmin(ProcessEngineConfigurationImpl engine, String userId, List<String> groups) {
    List<String> adminUsers = engine.getAdminUsers() == null ? List.of() : engine.getAdminUsers();
    List<String> adminGroups = engine.getAdminGroups() == null ? List.of() : engine.getAdminGroups();
    return userId != null && adminUsers.contains(userId)
        || groups != null && groups.stream().anyMatch(adminGroups::contains);
  }

  private static boolean mayDeployThroughOtherGroups(ProcessEngineConfigurationImpl engine, String userId,
      List<String> groups) {
    List<String> others = groups.stream().filter(group -> !group.equals(AgentLoopGroups.ANALYSTS)).toList();
    // asked of the authorizations as stored: the asking user may not read them
    return withoutAuthorization(engine, () ->
        engine.getAuthorizationService().isUserAuthorized(userId, others, Permissions.CREATE, Resources.DEPLOYMENT));
  }

  /**
   * Asks the engine without the current user's authorization checks: in the command under way where there is one
   * (a deployment), so that its own state is left as it was, else in a command of its own.
   */
  static <T> T withoutAuthorization(ProcessEngineConfigurationImpl engine, Callable<T> query) {
    CommandContext command = Context.getCommandContext();
    return command != null ? command.runWithoutAuthorization(query)
        : engine.getCommandExecutorTxRequired().execute(context -> context.runWithoutAuthorization(query));
  }
}
