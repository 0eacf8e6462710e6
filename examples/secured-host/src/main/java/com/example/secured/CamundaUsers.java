package com.example.secured;

import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.identity.User;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * The team's users as Camunda users of the same id, so that Camunda's authorization decides for them:
 * mary operates agents (group agent-operators), tom is in no AgentLoop group.
 */
@Component
class CamundaUsers implements ApplicationRunner {

  private final IdentityService identity;

  CamundaUsers(IdentityService identity) {
    this.identity = identity;
  }

  @Override
  public void run(ApplicationArguments arguments) {
    user("mary", "agent-operators");
    user("tom", null);
  }

  private void user(String id, String group) {
    if (identity.createUserQuery().userId(id).count() > 0) {
      return;
    }
    User user = identity.newUser(id);
    // not the password the application's own security knows: the host's login counts, not Camunda's
    user.setPassword(id + "-camunda");
    identity.saveUser(user);
    if (group != null) {
      identity.createMembership(id, group);
    }
  }
}
