package dev.agentloop.demo;

import static dev.agentloop.api.AgentLoopGroups.ANALYSTS;
import static dev.agentloop.api.AgentLoopGroups.OPERATORS;
import static dev.agentloop.api.AgentLoopGroups.REVIEWERS;
import static dev.agentloop.api.AgentLoopGroups.WORKERS;

import java.util.List;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.identity.User;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;

/**
 * The demo users of the demo app ({@code demo.users.enabled=true}): {@code reviewer},
 * {@code operator}, {@code analyst} (deploys agents) and {@code worker} (for remote tool workers), each with its
 * user id as password, and the Camunda admin user in both
 * AgentLoop groups so it sees the agents' tasks in Tasklist. Reviewers may also start the demo's business process
 * {@code support-ticket} and work its tasks (AgentLoop grants rights on agents only). Known passwords: never in
 * production.
 */
class DemoUsers implements ApplicationRunner {

  /** The demo's business process that asks an agent (processes/support-ticket.bpmn). */
  static final String SUPPORT_TICKET = "support-ticket";

  private final ProcessEngine engine;
  private final String adminUserId;

  DemoUsers(ProcessEngine engine, String adminUserId) {
    this.engine = engine;
    this.adminUserId = adminUserId;
  }

  @Override
  public void run(ApplicationArguments args) {
    IdentityService identity = engine.getIdentityService();
    ensureUser(identity, "reviewer", "Rita", "Reviewer", List.of(REVIEWERS));
    ensureUser(identity, "operator", "Otto", "Operator", List.of(REVIEWERS, OPERATORS));
    ensureUser(identity, "worker", "Wendy", "Worker", List.of(WORKERS));
    ensureUser(identity, "analyst", "Ada", "Analyst", List.of(ANALYSTS));
    if (adminUserId != null && identity.createUserQuery().userId(adminUserId).count() > 0) {
      ensureMemberships(identity, adminUserId, List.of(REVIEWERS, OPERATORS));
    }
    grantSupportTicket(engine.getAuthorizationService());
  }

  /** The demo's business process, for the reviewers who try it in Tasklist: start it, see and work its tasks. */
  private static void grantSupportTicket(AuthorizationService authorizations) {
    if (authorizations.createAuthorizationQuery().groupIdIn(REVIEWERS).resourceType(Resources.PROCESS_DEFINITION)
        .resourceId(SUPPORT_TICKET).count() > 0) {
      return;
    }
    Authorization grant = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
    grant.setGroupId(REVIEWERS);
    grant.setResource(Resources.PROCESS_DEFINITION);
    grant.setResourceId(SUPPORT_TICKET);
    for (Permission permission : List.of(Permissions.READ, ProcessDefinitionPermissions.CREATE_INSTANCE,
        ProcessDefinitionPermissions.READ_INSTANCE, ProcessDefinitionPermissions.READ_TASK,
        ProcessDefinitionPermissions.TASK_WORK, ProcessDefinitionPermissions.READ_HISTORY)) {
      grant.addPermission(permission);
    }
    authorizations.saveAuthorization(grant);
  }

  private static void ensureUser(IdentityService identity, String id, String firstName, String lastName,
      List<String> groups) {
    if (identity.createUserQuery().userId(id).count() == 0) {
      User user = identity.newUser(id);
      user.setFirstName(firstName);
      user.setLastName(lastName);
      user.setEmail(id + "@agentloop.invalid");
      user.setPassword(id);
      identity.saveUser(user);
    }
    ensureMemberships(identity, id, groups);
  }

  private static void ensureMemberships(IdentityService identity, String userId, List<String> groups) {
    for (String group : groups) {
      if (identity.createUserQuery().userId(userId).memberOfGroup(group).count() == 0) {
        identity.createMembership(userId, group);
      }
    }
  }
}
