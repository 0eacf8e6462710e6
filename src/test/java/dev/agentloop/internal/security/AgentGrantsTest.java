package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.TestAgent;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The AgentLoop groups get rights on agents only, per process-definition key: on the shipped agents,
 * on agents deployed later by whoever may deploy, never on the host's other processes, and never
 * over what an administrator set.
 */
@AgentLoopTest
class AgentGrantsTest {

  private static final List<String> GROUPS =
      List.of(AgentLoopGroups.REVIEWERS, AgentLoopGroups.OPERATORS, AgentLoopGroups.WORKERS, AgentLoopGroups.ANALYSTS);

  @Autowired ProcessEngine engine;

  @Test
  void should_grant_on_the_agents_and_on_no_other_process() {
    // given a process of the host that is no agent, deployed next to the agents
    engine.getRepositoryService().createDeployment().addModelInstance("invoice.bpmn",
        Bpmn.createExecutableProcess("invoice").startEvent().userTask("approve").endEvent().done()).deploy();

    // then the groups have rights on the agents and none on it, nor on every definition
    for (String agent : List.of("react-agent", TestAgent.KEY, TestAgent.REVIEWED)) {
      assertThat(groupsGrantedOn(agent)).as(agent).containsExactlyInAnyOrderElementsOf(GROUPS);
    }
    assertThat(groupsGrantedOn("invoice")).isEmpty();
    assertThat(groupsGrantedOn(Authorization.ANY)).isEmpty();
    AuthorizationService authorizations = engine.getAuthorizationService();
    assertThat(authorizations.isUserAuthorized("reviewer", List.of(AgentLoopGroups.REVIEWERS),
        ProcessDefinitionPermissions.READ_INSTANCE, Resources.PROCESS_DEFINITION, "invoice")).isFalse();
    assertThat(authorizations.isUserAuthorized("operator", List.of(AgentLoopGroups.OPERATORS),
        Permissions.ALL, Resources.PROCESS_DEFINITION, "invoice")).isFalse();
    assertThat(authorizations.isUserAuthorized("operator", List.of(AgentLoopGroups.OPERATORS),
        Permissions.ALL, Resources.PROCESS_INSTANCE, Authorization.ANY)).isFalse();
    assertThat(authorizations.isUserAuthorized("worker", List.of(AgentLoopGroups.WORKERS),
        ProcessDefinitionPermissions.UPDATE_INSTANCE, Resources.PROCESS_DEFINITION, "invoice")).isFalse();
    assertThat(authorizations.isUserAuthorized("operator", List.of(AgentLoopGroups.OPERATORS),
        ProcessDefinitionPermissions.UPDATE_INSTANCE, Resources.PROCESS_DEFINITION, TestAgent.KEY)).isTrue();
  }

  @Test
  void should_grant_on_an_agent_an_analyst_deploys_later_without_rights_on_authorizations() {
    // given an analyst who may deploy, and nothing more
    IdentityService identity = engine.getIdentityService();
    User analyst = identity.newUser("analyst" + System.nanoTime());
    identity.saveUser(analyst);
    Authorization deploy = engine.getAuthorizationService().createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
    deploy.setUserId(analyst.getId());
    deploy.setResource(Resources.DEPLOYMENT);
    deploy.setResourceId(Authorization.ANY);
    deploy.addPermission(Permissions.CREATE);
    engine.getAuthorizationService().saveAuthorization(deploy);

    // when the analyst deploys a new agent
    identity.setAuthentication(analyst.getId(), List.of());
    try {
      TestAgent.deployVariant(engine, "late-agent", Map.of());
    } finally {
      identity.clearAuthentication();
    }

    // then the groups have their rights on it
    assertThat(groupsGrantedOn("late-agent")).containsExactlyInAnyOrderElementsOf(GROUPS);
    assertThat(engine.getAuthorizationService().isUserAuthorized("reviewer", List.of(AgentLoopGroups.REVIEWERS),
        ProcessDefinitionPermissions.CREATE_INSTANCE, Resources.PROCESS_DEFINITION, "late-agent")).isTrue();
  }

  @Test
  void should_leave_what_an_administrator_set_on_an_agent_as_it_is() {
    // given an administrator who revoked the reviewers' rights on an agent before it is deployed
    Authorization revoke = engine.getAuthorizationService().createNewAuthorization(Authorization.AUTH_TYPE_REVOKE);
    revoke.setGroupId(AgentLoopGroups.REVIEWERS);
    revoke.setResource(Resources.PROCESS_DEFINITION);
    revoke.setResourceId("secret-agent");
    revoke.removePermission(ProcessDefinitionPermissions.READ_INSTANCE);
    engine.getAuthorizationService().saveAuthorization(revoke);

    // when it is deployed, and once more in a new version
    TestAgent.deployVariant(engine, "secret-agent", Map.of());
    TestAgent.deployVariant(engine, "secret-agent", Map.of());

    // then the revoke is the reviewers' only authorization on it; the other groups got theirs
    assertThat(engine.getAuthorizationService().createAuthorizationQuery().groupIdIn(AgentLoopGroups.REVIEWERS)
        .resourceType(Resources.PROCESS_DEFINITION).resourceId("secret-agent").list())
        .singleElement().extracting(Authorization::getAuthorizationType).isEqualTo(Authorization.AUTH_TYPE_REVOKE);
    assertThat(engine.getAuthorizationService().isUserAuthorized("reviewer", List.of(AgentLoopGroups.REVIEWERS),
        ProcessDefinitionPermissions.READ_INSTANCE, Resources.PROCESS_DEFINITION, "secret-agent")).isFalse();
    assertThat(groupsGrantedOn("secret-agent")).containsExactlyInAnyOrder(AgentLoopGroups.OPERATORS,
        AgentLoopGroups.WORKERS, AgentLoopGroups.ANALYSTS);
  }

  private List<String> groupsGrantedOn(String processDefinitionKey) {
    return engine.getAuthorizationService().createAuthorizationQuery().resourceType(Resources.PROCESS_DEFINITION)
        .resourceId(processDefinitionKey).authorizationType(Authorization.AUTH_TYPE_GRANT).list().stream()
        // a user's own authorization (another test may have made one) has no group
        .map(Authorization::getGroupId).filter(Objects::nonNull).filter(GROUPS::contains).toList();
  }
}
