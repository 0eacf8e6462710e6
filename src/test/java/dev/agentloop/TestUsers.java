package dev.agentloop;

import static dev.agentloop.api.AgentLoopGroups.ANALYSTS;
import static dev.agentloop.api.AgentLoopGroups.OPERATORS;
import static dev.agentloop.api.AgentLoopGroups.REVIEWERS;
import static dev.agentloop.api.AgentLoopGroups.WORKERS;

import java.util.List;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.identity.User;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;

/**
 * The users the tests log in as: {@code reviewer}, {@code operator}, {@code analyst} (deploys agents) and
 * {@code worker} (for remote tool workers), each with its user id as password, and the Camunda admin user in reviewers and operators, as
 * the demo app has them; created at start in every context of {@link AgentLoopApplication}.
 */
class TestUsers implements ApplicationRunner {

  private final ProcessEngine engine;
  private final String adminUserId;

  TestUsers(ProcessEngine engine, String adminUserId) {
    this.engine = engine;
    this.adminUserId = adminUserId;
  }

  @Override
  public void run(ApplicationArguments args) {
    IdentityService identity = engine.getIdentityService();
    ensureUser(identity, "reviewer", "Rita", "Reviewer", List.of(REVIEWERS));
    ensureUser(identity, "operator", "Otto", "Operator", List.of(REVIEWERS, OPERATORS));
    ensureUser(identity, "analyst", "Ada", "Analyst", List.of(ANALYSTS));
    ensureUser(identity, "worker", "Wendy", "Worker", List.of(WORKERS));
    if (adminUserId != null && identity.createUserQuery().userId(adminUserId).count() > 0) {
      ensureMemberships(identity, adminUserId, List.of(REVIEWERS, OPERATORS));
    }
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
