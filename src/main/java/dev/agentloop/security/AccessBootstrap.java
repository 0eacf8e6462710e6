package dev.agentloop.security;

import static dev.agentloop.security.AgentLoopGroups.OPERATORS;
import static dev.agentloop.security.AgentLoopGroups.REVIEWERS;
import static dev.agentloop.security.AgentLoopGroups.WORKERS;
import static org.camunda.bpm.engine.authorization.Authorization.ANY;
import static org.camunda.bpm.engine.authorization.Permissions.ACCESS;
import static org.camunda.bpm.engine.authorization.Permissions.ALL;
import static org.camunda.bpm.engine.authorization.Permissions.CREATE;
import static org.camunda.bpm.engine.authorization.Permissions.READ;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.CREATE_INSTANCE;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.READ_HISTORY;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.READ_INSTANCE;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.READ_TASK;
import static org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions.UPDATE_INSTANCE;
import static org.camunda.bpm.engine.authorization.Resources.APPLICATION;
import static org.camunda.bpm.engine.authorization.Resources.DECISION_DEFINITION;
import static org.camunda.bpm.engine.authorization.Resources.DEPLOYMENT;
import static org.camunda.bpm.engine.authorization.Resources.FILTER;
import static org.camunda.bpm.engine.authorization.Resources.PROCESS_DEFINITION;
import static org.camunda.bpm.engine.authorization.Resources.PROCESS_INSTANCE;
import static org.camunda.bpm.engine.authorization.Resources.TASK;

import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.Resource;
import org.camunda.bpm.engine.filter.Filter;
import org.camunda.bpm.engine.identity.Group;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.task.TaskQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fits the engine's identity and authorization to AgentLoop at every start: the three groups, what
 * each may do, and the Tasklist filter "Agent reviews" with the tasks offered to the user's groups.
 * It only adds what is missing, so rights an administrator has changed in Camunda Admin stay as
 * they are. Nodes of a cluster starting at once are fine: a lost race for a group or an
 * authorization is re-checked, not fatal (filters have no unique name, so two nodes starting on an
 * empty database in the same instant may both add the filter; Admin deletes one).
 *
 * <p>Reviewers may read every run (its instance, tasks and history) and start runs; they complete
 * exactly the tasks offered to their group, through the engine's default task permissions.
 * Operators may do anything with process definitions, instances and tasks, and use Cockpit.
 * Workers may read and update the instances of every process definition, which is what fetching,
 * locking, completing and failing external tasks needs, and nothing more; Camunda has no right per
 * topic, so a worker's credentials can take any external task.
 */
class AccessBootstrap extends AbstractProcessEnginePlugin {

  static final String REVIEW_FILTER = "Agent reviews";

  private static final Logger LOG = LoggerFactory.getLogger(AccessBootstrap.class);

  /** Camunda's default for group ids when no pattern is configured. */
  private static final String CAMUNDA_DEFAULT_IDS = "[a-zA-Z0-9]+|camunda-admin";

  /** Camunda accepts only alphanumeric group ids by default; ours have a hyphen, as users expect them. */
  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    String groups = Objects.requireNonNullElse(configuration.getGroupResourceWhitelistPattern(),
        Objects.requireNonNullElse(configuration.getGeneralResourceWhitelistPattern(), CAMUNDA_DEFAULT_IDS));
    configuration.setGroupResourceWhitelistPattern(groups + "|" + REVIEWERS + "|" + OPERATORS + "|" + WORKERS);
  }

  @Override
  public void postProcessEngineBuild(ProcessEngine engine) {
    IdentityService identity = engine.getIdentityService();
    if (!identity.isReadOnly()) {
      ensureGroup(identity, REVIEWERS, "Agent reviewers");
      ensureGroup(identity, OPERATORS, "Agent operators");
      ensureGroup(identity, WORKERS, "Agent tool workers");
    }
    if (!engine.getProcessEngineConfiguration().isAuthorizationEnabled()) {
      LOG.warn("Camunda authorization is disabled: every authenticated user may do anything with every run");
      return;
    }
    String filter = ensureReviewFilter(engine);
    AuthorizationService authorizations = engine.getAuthorizationService();
    grant(authorizations, REVIEWERS, APPLICATION, "tasklist", ACCESS);
    grant(authorizations, REVIEWERS, PROCESS_DEFINITION, ANY, READ, READ_TASK, READ_INSTANCE, READ_HISTORY, CREATE_INSTANCE);
    grant(authorizations, REVIEWERS, PROCESS_INSTANCE, ANY, CREATE);
    grant(authorizations, REVIEWERS, FILTER, filter, READ);
    grant(authorizations, OPERATORS, APPLICATION, "tasklist", ACCESS);
    grant(authorizations, OPERATORS, APPLICATION, "cockpit", ACCESS);
    grant(authorizations, OPERATORS, PROCESS_DEFINITION, ANY, ALL);
    grant(authorizations, OPERATORS, PROCESS_INSTANCE, ANY, ALL);
    grant(authorizations, OPERATORS, TASK, ANY, ALL);
    grant(authorizations, OPERATORS, DEPLOYMENT, ANY, READ);
    grant(authorizations, OPERATORS, DECISION_DEFINITION, ANY, READ);
    grant(authorizations, OPERATORS, FILTER, filter, READ);
    grant(authorizations, WORKERS, PROCESS_DEFINITION, ANY, READ_INSTANCE, UPDATE_INSTANCE);
  }

  private static void ensureGroup(IdentityService identity, String id, String name) {
    insertUnlessPresent(() -> identity.createGroupQuery().groupId(id).count() > 0, () -> {
      Group group = identity.newGroup(id);
      group.setName(name);
      group.setType("WORKFLOW");
      identity.saveGroup(group);
    });
  }

  private static String ensureReviewFilter(ProcessEngine engine) {
    var filters = engine.getFilterService();
    insertUnlessPresent(() -> filters.createFilterQuery().filterName(REVIEW_FILTER).count() > 0, () -> {
      TaskQuery offeredToMyGroups = engine.getTaskService().createTaskQuery()
          .taskCandidateGroupInExpression("${currentUserGroups()}").includeAssignedTasks();
      Filter filter = filters.newTaskFilter(REVIEW_FILTER).setQuery(offeredToMyGroups)
          .setProperties(Map.of("description", "Plans, questions, actions and answers of agents, offered to your groups",
              "priority", -10, "refresh", true));
      filters.saveFilter(filter);
    });
    return filters.createFilterQuery().filterName(REVIEW_FILTER).list().get(0).getId();
  }

  private static void grant(AuthorizationService authorizations, String group, Resource resource, String resourceId,
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
  private static void insertUnlessPresent(BooleanSupplier present, Runnable insert) {
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
