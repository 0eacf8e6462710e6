package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.security.AgentOwner.Kind;
import dev.agentloop.internal.security.DeployRights.Deployer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one answer to "may this user change agent key K": deploy a new version of it, and whatever else changes what a
 * key's runs run (promoting a candidate version, moving runs to another version). Every feature that changes a key asks
 * {@link #mayChange} or {@link #refusal} (the latter for the engine's current user, too), and refuses in the words of
 * the refusal; the bean is always there (AgentLoop's security configuration), with or without AgentLoop's groups.
 *
 * <p>The rule, by who asks ({@link DeployRights}):
 * <ul>
 *   <li>code without a user, an engine administrator, or a user that a group other than {@code agent-analysts} lets
 *       deploy: yes, for every key; they are the application;
 *   <li>an analyst (a member of {@code agent-analysts} with no other right to deploy): yes for a key nobody has
 *       deployed (its first deployment makes it the analyst's group's, {@link #claim}) and for a key of one of its
 *       groups; no for AgentLoop's own keys (the default agent), for a key of another group, and for a key the
 *       application deployed (a deployed key with no group: the application's, whoever deployed it);
 *   <li>anyone else: no, they may not deploy.
 * </ul>
 * Owners are kept in {@code agentloop_agent_owner}, one row per key a group owns ({@code AgentOwnerRows}). An
 * administrator hands a key to a group ({@link #handTo}) or back to the application ({@link #handBack}), through
 * {@code PUT}/{@code DELETE /api/agents/{key}/owner}. An analyst's group is the first of its
 * groups, by id, that is not one of AgentLoop's four; an analyst in none of those deploys for {@code agent-analysts},
 * which every analyst shares. Inside an engine command (a deployment) it reads and writes in the command's
 * transaction. Thread-safe.
 */
public class AgentOwnership {

  private static final Logger LOG = LoggerFactory.getLogger(AgentOwnership.class);

  private final AgentOwnerRows rows;
  private final ObjectProvider<ProcessEngine> engine;
  private final Set<String> reserved;

  /** @param reserved AgentLoop's own keys: its default agent's */
  public AgentOwnership(JdbcTemplate jdbc, ObjectProvider<ProcessEngine> engine, Set<String> reserved) {
    this.rows = new AgentOwnerRows(jdbc);
    this.engine = engine;
    this.reserved = Set.copyOf(reserved);
  }

  /** Who owns the key now. */
  public AgentOwner owner(String key) {
    Objects.requireNonNull(key, "key");
    if (reserved.contains(key)) {
      return new AgentOwner(key, Kind.AGENTLOOP, null, null, null);
    }
    return rows.find(key)
        .orElseGet(() -> new AgentOwner(key, isDeployed(key) ? Kind.APPLICATION : Kind.NOBODY, null, null, null));
  }

  /**
   * Whether the user may change the agent key: deploy a new version of it, or change what its runs run.
   *
   * @param groups the user's groups ({@code null}: none)
   */
  public boolean mayChange(String userId, List<String> groups, String key) {
    return refusal(userId, groups, key).isEmpty();
  }

  /** Why the user may not change the key, in words that say what to do instead; empty where it may. */
  public Optional<String> refusal(String userId, List<String> groups, String key) {
    Deployer deployer = DeployRights.of(configuration(), userId, groups);
    if (deployer == Deployer.APPLICATION) {
      return Optional.empty();
    }
    if (deployer == Deployer.NOBODY) {
      return Optional.of("user " + userId + " may not deploy, so not change the agent '" + key + "' either");
    }
    AgentOwner owner = owner(key);
    String ownCopy = "give your copy a process id of its own (Modeler: the process's ID)";
    return switch (owner.owner()) {
      case NOBODY -> Optional.empty();
      case GROUP -> groups != null && groups.contains(owner.group()) ? Optional.empty() : Optional.of("the agent '" + key
          + "' belongs to the group " + owner.group() + ", which deployed it first; " + ownCopy + ", or ask an"
          + " administrator to hand the key to your group");
      case APPLICATION -> Optional.of("the agent '" + key + "' is the application's (deployed by it or by an"
          + " administrator); " + ownCopy + ", or ask an administrator to hand the key to your group");
      case AGENTLOOP -> Optional.of("the agent '" + key + "' is AgentLoop's default agent, which only the application"
          + " deploys; " + ownCopy);
    };
  }

  /**
   * Why the user the engine acts for now (Camunda's current authentication: the REST API's, Cockpit's, or one a caller
   * set) may not change the key; empty where it may. Code without a user may.
   */
  public Optional<String> refusal(String key) {
    Authentication user = configuration().getIdentityService().getCurrentAuthentication();
    return user == null ? Optional.empty() : refusal(user.getUserId(), user.getGroupIds(), key);
  }

  /** An analyst deployed a key nobody owned: from now on it is the analyst's group's. */
  void claim(String key, String userId, List<String> groups) {
    rows.insert(key, groupOf(groups), userId);
  }

  /**
   * Hands the key to a group: its analysts deploy it from now on. For engine administrators (and code without a user).
   *
   * @throws AuthorizationException where the current user is no administrator
   * @throws IllegalArgumentException naming what is wrong: AgentLoop's own key, a group that does not exist
   */
  public AgentOwner handTo(String key, String group) {
    String by = requireAdministrator(key);
    if (reserved.contains(key)) {
      throw new IllegalArgumentException("the agent '" + key + "' is AgentLoop's default agent: it stays the"
          + " application's and is no group's");
    }
    ProcessEngineConfigurationImpl configuration = configuration();
    if (configuration.getIdentityService().createGroupQuery().groupId(group).count() == 0) {
      throw new IllegalArgumentException("there is no group '" + group + "' (Camunda Admin, Groups)");
    }
    rows.upsert(key, group, by);
    LOG.info("AGENTLOOP-104 {} handed the agent '{}' to the group {}", by, key, group);
    return owner(key);
  }

  /**
   * Hands the key back to the application: no analyst deploys it any more. For engine administrators.
   *
   * @throws AuthorizationException where the current user is no administrator
   */
  public AgentOwner handBack(String key) {
    String by = requireAdministrator(key);
    if (rows.delete(key)) {
      LOG.info("AGENTLOOP-104 {} handed the agent '{}' back to the application", by, key);
    }
    return owner(key);
  }

  /** The administrator who asks, by id ({@code "the application"} for code without a user). */
  private String requireAdministrator(String key) {
    ProcessEngineConfigurationImpl configuration = configuration();
    Authentication user = configuration.getIdentityService().getCurrentAuthentication();
    if (user == null) {
      return "the application";
    }
    if (!DeployRights.isAdmin(configuration, user.getUserId(), user.getGroupIds())) {
      throw new AuthorizationException("user " + user.getUserId() + " may not hand the agent '" + key + "' to a"
          + " group: that is for engine administrators (" + String.join(", ", adminGroups(configuration)) + ")");
    }
    return user.getUserId();
  }

  private static List<String> adminGroups(ProcessEngineConfigurationImpl configuration) {
    return configuration.getAdminGroups() == null ? List.of() : configuration.getAdminGroups();
  }

  /** The group an analyst deploys for: its first group, by id, that is not AgentLoop's, else {@code agent-analysts}. */
  static String groupOf(List<String> groups) {
    Set<String> agentLoops = Set.of(AgentLoopGroups.ANALYSTS, AgentLoopGroups.REVIEWERS, AgentLoopGroups.OPERATORS,
        AgentLoopGroups.WORKERS);
    return new TreeSet<>(groups == null ? List.of() : groups).stream().filter(group -> !agentLoops.contains(group))
        .findFirst().orElse(AgentLoopGroups.ANALYSTS);
  }

  private boolean isDeployed(String key) {
    ProcessEngineConfigurationImpl configuration = configuration();
    return DeployRights.withoutAuthorization(configuration, () ->
        configuration.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count() > 0);
  }

  /** Inside a command (a deployment, also while the engine starts) its configuration; else the engine's. */
  private ProcessEngineConfigurationImpl configuration() {
    if (Context.getCommandContext() != null) {
      return Context.getProcessEngineConfiguration();
    }
    return (ProcessEngineConfigurationImpl) engine.getObject().getProcessEngineConfiguration();
  }
}
