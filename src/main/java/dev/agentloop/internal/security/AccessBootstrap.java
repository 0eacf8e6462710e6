package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import static dev.agentloop.api.AgentLoopGroups.ANALYSTS;
import static dev.agentloop.api.AgentLoopGroups.OPERATORS;
import static dev.agentloop.api.AgentLoopGroups.REVIEWERS;
import static dev.agentloop.api.AgentLoopGroups.WORKERS;
import static dev.agentloop.internal.security.AgentGrants.grant;
import static org.camunda.bpm.engine.authorization.Authorization.ANY;
import static org.camunda.bpm.engine.authorization.Permissions.ACCESS;
import static org.camunda.bpm.engine.authorization.Permissions.CREATE;
import static org.camunda.bpm.engine.authorization.Permissions.READ;
import static org.camunda.bpm.engine.authorization.Resources.APPLICATION;
import static org.camunda.bpm.engine.authorization.Resources.DEPLOYMENT;
import static org.camunda.bpm.engine.authorization.Resources.FILTER;
import static org.camunda.bpm.engine.authorization.Resources.PROCESS_DEFINITION;
import static org.camunda.bpm.engine.authorization.Resources.PROCESS_INSTANCE;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.identity.Group;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandInterceptor;
import org.camunda.bpm.engine.impl.persistence.deploy.Deployer;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fits the engine's identity and authorization to AgentLoop at every start: the three groups, what
 * each may do, and the Tasklist filter "Agent reviews" with the tasks offered to the user's groups.
 * It only adds what is missing, so rights an administrator has changed in Camunda Admin stay as
 * they are. Nodes of a cluster starting at once are fine: a lost race for a group or an
 * authorization is re-checked, not fatal (the filter: {@link ReviewFilter}).
 *
 * <p>Rights on process definitions are granted per agent ({@link AgentGrants}), never on every
 * definition: reviewers may read every run of an agent (its instance, tasks and history) and start
 * runs; they complete exactly the tasks offered to their group, through the engine's default task
 * permissions. Operators may do anything with agents, their runs and tasks, read deployments, and use
 * Cockpit. Workers get what fetch-and-lock needs on agents; {@link EngineRestGate} keeps them to
 * serving tool tasks. Analysts may deploy (agents only, {@link AnalystDeployments}; never deleting other people's
 * runs with a deployment, {@link AnalystDeletions}), start and read runs of agents, open Cockpit to read them and
 * Tasklist to start them.
 */
class AccessBootstrap extends AbstractProcessEnginePlugin {

  /** The Tasklist filter's name ({@link ReviewFilter}). */
  static final String REVIEW_FILTER = ReviewFilter.NAME;

  private static final Logger LOG = LoggerFactory.getLogger(AccessBootstrap.class);

  /** Camunda's default for group ids when no pattern is configured. */
  private static final String CAMUNDA_DEFAULT_IDS = "[a-zA-Z0-9]+|camunda-admin";

  private final boolean grantWorkers;
  private final Set<String> forms;
  private final AgentOwnership owners;
  private final java.util.function.Predicate<String> beans;

  /**
   * @param grantWorkers whether {@code agent-workers} get rights on agents, see {@link AgentGrants#ensure}
   * @param forms the ids of AgentLoop's forms, the only ones an analyst's tasks may show
   * @param beans whether a name is a bean of the application, which an expression would reach by that name
   */
  AccessBootstrap(boolean grantWorkers, Set<String> forms, AgentOwnership owners,
      java.util.function.Predicate<String> beans) {
    this.grantWorkers = grantWorkers;
    this.forms = Set.copyOf(forms);
    this.owners = owners;
    this.beans = beans;
  }

  /** Camunda accepts only alphanumeric group ids by default; ours have a hyphen, as users expect them. */
  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    String groups = Objects.requireNonNullElse(configuration.getGroupResourceWhitelistPattern(),
        Objects.requireNonNullElse(configuration.getGeneralResourceWhitelistPattern(), CAMUNDA_DEFAULT_IDS));
    configuration.setGroupResourceWhitelistPattern(
        groups + "|" + REVIEWERS + "|" + OPERATORS + "|" + WORKERS + "|" + ANALYSTS);
    List<Deployer> deployers = new ArrayList<>(Objects.requireNonNullElse(configuration.getCustomPreDeployers(), List.of()));
    deployers.add(new AnalystDeployments(forms, owners, beans));
    configuration.setCustomPreDeployers(deployers);
    // one interceptor per chain: an interceptor knows the next of its chain, and two chains would share it
    configuration.setCustomPreCommandInterceptorsTxRequired(
        with(configuration.getCustomPreCommandInterceptorsTxRequired(), new AnalystDeletions(configuration)));
    configuration.setCustomPreCommandInterceptorsTxRequiresNew(
        with(configuration.getCustomPreCommandInterceptorsTxRequiresNew(), new AnalystDeletions(configuration)));
  }

  @Override
  public void postProcessEngineBuild(ProcessEngine engine) {
    IdentityService identity = engine.getIdentityService();
    if (!identity.isReadOnly()) {
      ensureGroup(identity, REVIEWERS, "Agent reviewers");
      ensureGroup(identity, OPERATORS, "Agent operators");
      ensureGroup(identity, WORKERS, "Agent tool workers");
      ensureGroup(identity, ANALYSTS, "Agent analysts");
    }
    // the filter lists what a reviewer has to do, with or without authorization
    String filter = ReviewFilter.ensure(engine);
    if (!engine.getProcessEngineConfiguration().isAuthorizationEnabled()) {
      LOG.warn("AGENTLOOP-020 Camunda authorization is disabled: every authenticated user may read and start every"
          + " run and complete its tasks; changing a run's course (edit, regenerate, stop) stays with {} and with"
          + " reviewers while the run waits on a task offered to them, restarting runs and deleting traces with {}"
          + " only. Set camunda.bpm.authorization.enabled=true to give each group its own rights",
          AgentLoopGroups.OPERATORS, AgentLoopGroups.OPERATORS);
      return;
    }
    AuthorizationService authorizations = engine.getAuthorizationService();
    grant(authorizations, REVIEWERS, APPLICATION, "tasklist", ACCESS);
    grant(authorizations, REVIEWERS, PROCESS_INSTANCE, ANY, CREATE);
    grant(authorizations, REVIEWERS, FILTER, filter, READ);
    grant(authorizations, OPERATORS, APPLICATION, "tasklist", ACCESS);
    grant(authorizations, OPERATORS, APPLICATION, "cockpit", ACCESS);
    grant(authorizations, OPERATORS, PROCESS_INSTANCE, ANY, CREATE);
    grant(authorizations, OPERATORS, DEPLOYMENT, ANY, READ);
    grant(authorizations, OPERATORS, FILTER, filter, READ);
    // Modeler deploys with CREATE alone; Camunda gives the deployer the rights on the deployment it made
    grant(authorizations, ANALYSTS, DEPLOYMENT, ANY, CREATE);
    grant(authorizations, ANALYSTS, PROCESS_INSTANCE, ANY, CREATE);
    grant(authorizations, ANALYSTS, APPLICATION, "cockpit", ACCESS);
    // to start the agents they deploy from Tasklist and try them
    grant(authorizations, ANALYSTS, APPLICATION, "tasklist", ACCESS);
    grantOnDeployedAgents(engine);
    warnOfGrantsOnEveryDefinition(authorizations);
  }

  /**
   * Agents deployed before this version of AgentLoop get their rights here (their deployments are not
   * parsed again); agents deployed from now on get them while their deployment is parsed (see
   * {@code AgentParseListener}). Definitions the reviewers have rights on already are not read again.
   */
  private void grantOnDeployedAgents(ProcessEngine engine) {
    var repository = engine.getRepositoryService();
    Set<String> granted = engine.getAuthorizationService().createAuthorizationQuery().groupIdIn(REVIEWERS)
        .resourceType(PROCESS_DEFINITION).list().stream().map(Authorization::getResourceId).collect(Collectors.toSet());
    for (ProcessDefinition definition : repository.createProcessDefinitionQuery().latestVersion().list()) {
      if (!granted.contains(definition.getKey()) && AgentGrants.isAgent(repository.getBpmnModelInstance(definition.getId()))) {
        AgentGrants.ensure(engine.getAuthorizationService(), definition.getKey(), grantWorkers);
      }
    }
  }

  /**
   * Earlier versions granted the groups rights on every process definition; an administrator may
   * have come to rely on them, so they are not removed here, only named.
   */
  private static void warnOfGrantsOnEveryDefinition(AuthorizationService authorizations) {
    for (String group : List.of(REVIEWERS, OPERATORS, WORKERS, ANALYSTS)) {
      if (authorizations.createAuthorizationQuery().groupIdIn(group).resourceType(PROCESS_DEFINITION).resourceId(ANY)
          .authorizationType(Authorization.AUTH_TYPE_GRANT).count() > 0) {
        LOG.warn("AGENTLOOP-021 group {} holds a grant on every process definition ('*'), which earlier AgentLoop"
            + " versions added; AgentLoop now grants per agent. Delete it in Camunda Admin (Authorizations, Process"
            + " Definition) so that the group's rights cover agents only", group);
      }
    }
  }

  private static void ensureGroup(IdentityService identity, String id, String name) {
    AgentGrants.insertUnlessPresent(() -> identity.createGroupQuery().groupId(id).count() > 0, () -> {
      Group group = identity.newGroup(id);
      group.setName(name);
      group.setType("WORKFLOW");
      identity.saveGroup(group);
    });
  }

  private static List<CommandInterceptor> with(List<CommandInterceptor> interceptors, CommandInterceptor added) {
    List<CommandInterceptor> all = new ArrayList<>(Objects.requireNonNullElse(interceptors, List.of()));
    all.add(added);
    return all;
  }
}
