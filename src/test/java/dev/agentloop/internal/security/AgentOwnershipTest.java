package dev.agentloop.internal.security;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelerDeploy;
import dev.agentloop.api.AgentLoopGroups;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Who owns an agent's key, and the one answer to "may this user change agent key K" that every feature changing a key
 * asks ({@link AgentOwnership#mayChange}): the application and administrators may change every key, an analyst new
 * keys and its group's, nobody else any; an administrator hands a key to a group and back through the API, and
 * everyone may read who owns it.
 */
@AgentLoopTest
class AgentOwnershipTest {

  private static final List<String> ANALYST = List.of(AgentLoopGroups.ANALYSTS);

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired AgentOwnership owners;

  @Test
  void should_tell_who_may_change_which_key() {
    // the application's code, and an administrator, may change every key, AgentLoop's default agent included
    assertThat(owners.mayChange(null, null, "react-agent")).isTrue();
    assertThat(owners.mayChange("demo", List.of("camunda-admin"), "react-agent")).isTrue();
    // an analyst a new key, never AgentLoop's or the application's
    assertThat(owners.mayChange("analyst", ANALYST, "nobodys-agent-yet")).isTrue();
    assertThat(owners.refusal("analyst", ANALYST, "react-agent")).get().asString()
        .contains("is AgentLoop's default agent");
    assertThat(owners.refusal("analyst", ANALYST, "support-triage-agent")).get().asString()
        .contains("is the application's");
    // and a reviewer nothing: it may not deploy
    assertThat(owners.refusal("reviewer", List.of(AgentLoopGroups.REVIEWERS), "nobodys-agent-yet")).get().asString()
        .isEqualTo("user reviewer may not deploy, so not change the agent 'nobodys-agent-yet' either");
  }

  @Test
  void should_show_who_owns_a_key_and_let_only_an_administrator_hand_it_to_a_group_and_back() {
    ApiClient admin = ApiClient.as(port, "demo");
    ApiClient analyst = ApiClient.as(port, "analyst");
    // given an agent the administrator deployed: the application's
    body(ModelerDeploy.deploy(admin, "handed-agent.bpmn", ModelerDeploy.copyOfReactAgent("handed-agent", "Handed")),
        200);
    assertThat(body(analyst.get("/api/agents/handed-agent/owner"), 200).get("owner").asText()).isEqualTo("APPLICATION");
    assertThat(ModelerDeploy.deploy(analyst, "handed-agent.bpmn", copy()).statusCode()).isEqualTo(403);

    // when someone who is no administrator tries to hand it over, and the administrator does
    assertThat(ApiClient.as(port, "operator").put("/api/agents/handed-agent/owner",
        "{\"group\": \"agent-analysts\"}").statusCode()).isEqualTo(403);
    var handed = body(admin.put("/api/agents/handed-agent/owner", "{\"group\": \"agent-analysts\"}"), 200);

    // then it is the group's, the group's analysts deploy it, until the administrator hands it back
    assertThat(handed.get("owner").asText()).isEqualTo("GROUP");
    assertThat(handed.get("group").asText()).isEqualTo(AgentLoopGroups.ANALYSTS);
    assertThat(handed.get("assignedBy").asText()).isEqualTo("demo");
    assertThat(handed.get("assignedAt").asText()).isNotBlank();
    body(ModelerDeploy.deploy(analyst, "handed-agent.bpmn", copy()), 200);
    assertThat(body(admin.delete("/api/agents/handed-agent/owner"), 200).get("owner").asText())
        .isEqualTo("APPLICATION");
    assertThat(ModelerDeploy.deploy(analyst, "handed-agent.bpmn", copy()).statusCode()).isEqualTo(403);
  }

  @Test
  void should_refuse_to_hand_over_agentloops_own_key_or_to_a_group_that_does_not_exist() {
    ApiClient admin = ApiClient.as(port, "demo");

    assertThat(body(admin.get("/api/agents/react-agent/owner"), 200).get("owner").asText()).isEqualTo("AGENTLOOP");
    assertProblem(admin.put("/api/agents/react-agent/owner", "{\"group\": \"agent-analysts\"}"), 400,
        "the agent 'react-agent' is AgentLoop's default agent: it stays the application's and is no group's");
    assertProblem(admin.put("/api/agents/some-agent/owner", "{\"group\": \"nobody\"}"), 400,
        "there is no group 'nobody'");
    assertProblem(admin.put("/api/agents/some-agent/owner", "{\"group\": \"\"}"), 400, "group must name a group");
    assertThat(body(admin.get("/api/agents/never-deployed/owner"), 200).get("owner").asText()).isEqualTo("NOBODY");
  }

  private static String copy() {
    return ModelerDeploy.copyOfReactAgent("handed-agent", "Handed again");
  }
}
