package dev.agentloop.internal.security;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelerDeploy;
import dev.agentloop.api.AgentLoopGroups;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An analyst tries, through the requests Modeler and Cockpit send, to change what is not theirs: AgentLoop's and the
 * application's keys, another group's key, a form with the id of a shipped review form, other people's runs by a
 * cascading delete. Each is refused with {@code 403} saying whose it is, nothing changes, and the log holds no ERROR
 * line; the group's own analyst deploys its key's next version, and an analyst's own runs go with its deployment.
 */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
class HostileAnalystKeysTest {

  private static final Pattern ERROR_LINE = Pattern.compile("\\bERROR\\b");

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private int logMark;

  @BeforeEach
  void markLog(CapturedOutput log) {
    logMark = log.length();
  }

  /** A refusal is expected: one INFO line at most, never an ERROR or a stack trace. */
  @AfterEach
  void noErrorLogged(CapturedOutput log) {
    String logged = log.toString().substring(logMark);
    assertThat(logged.lines().filter(line -> ERROR_LINE.matcher(line).find()).toList()).isEmpty();
    assertThat(logged).doesNotContain("ENGINE-16004").doesNotContain("\tat ");
  }

  @Test
  void should_refuse_a_form_with_the_id_of_a_shipped_review_form_from_an_analyst_and_an_administrator() {
    String hijack = "{\"id\": \"react-agent-review-plan\", \"type\": \"default\", \"components\": [{\"type\": \"text\","
        + " \"text\": \"[Approve here](https://evil.example)\"}]}";
    Map<String, String> files = Map.of("review-plan.form", hijack);

    assertRefused(ModelerDeploy.deploy(ApiClient.as(port, "analyst"), "hijack", files), null,
        "review-plan.form: is no diagram");
    HttpResponse<String> admin = ModelerDeploy.deploy(ApiClient.as(port, "demo"), "hijack", files);
    assertRefused(admin, null, "review-plan.form has the id 'react-agent-review-plan', which is one of AgentLoop's"
        + " forms", "only AgentLoop deploys it");
    assertThat(engine.getRepositoryService().createDeploymentQuery().deploymentName("hijack").count()).isZero();
  }

  @Test
  void should_refuse_the_keys_agentloop_and_the_application_ship() throws IOException {
    assertRefused(deploy("analyst", "react-agent.bpmn", Files.readString(Path.of("processes/react-agent.bpmn"))),
        null, "process 'react-agent': may not be deployed by user analyst: the agent 'react-agent' is AgentLoop's"
            + " default agent, which only the application deploys; give your copy a process id of its own");
    long triageVersions = versions("support-triage-agent");
    assertRefused(deploy("analyst", "support-triage-agent.bpmn",
        Files.readString(Path.of("processes/support-triage-agent.bpmn"))), null,
        "the agent 'support-triage-agent' is the application's (deployed by it or by an administrator)");
    assertThat(versions("support-triage-agent")).isEqualTo(triageVersions);
  }

  @Test
  void should_refuse_another_groups_key_and_let_the_group_deploy_new_versions_of_its_own() {
    // given the group teamA's analyst deployed a key first
    body(deploy("anaA", "team-agent.bpmn", copy("team-agent")), 200);
    assertThat(body(ApiClient.as(port, "anaA").get("/api/agents/team-agent/owner"), 200).toString())
        .contains("\"owner\":\"GROUP\"", "\"group\":\"teamA\"", "\"assignedBy\":\"anaA\"");

    // when an analyst of another group, or of no group, deploys that key
    HttpResponse<String> other = deploy("anaB", "team-agent.bpmn", copy("team-agent").replace("ReAct", "Hijacked"));
    HttpResponse<String> groupless = deploy("analyst", "team-agent.bpmn", copy("team-agent"));

    // then both are refused, and the group's own analyst deploys its next version
    assertRefused(other, null, "the agent 'team-agent' belongs to the group teamA, which deployed it first");
    assertRefused(groupless, null, "the agent 'team-agent' belongs to the group teamA");
    body(deploy("anaA", "team-agent.bpmn", copy("team-agent").replace("ReAct", "Changed")), 200);
    assertThat(versions("team-agent")).isEqualTo(2);
  }

  @Test
  void should_refuse_to_delete_with_cascade_a_deployment_holding_other_peoples_runs() {
    // given an analyst's agent with a run a reviewer started
    String deployment = body(deploy("analyst", "cascade-agent.bpmn", copy("cascade-agent")), 200).get("id").asText();
    String run = body(ApiClient.as(port, "reviewer").post("/api/runs", "{\"agent\": \"cascade-agent\", \"question\":"
        + " \"review-plan: someone else's run\"}"), 201).get("id").asText();

    // when the analyst deletes the deployment with cascade
    HttpResponse<String> refused = ApiClient.as(port, "analyst").delete("/engine-rest/deployment/" + deployment
        + "?cascade=true");

    // then nothing is deleted, and the reviewer's run goes on
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(message(refused)).contains("may not delete the deployment " + deployment + " with cascade: it holds 1"
        + " run that others started");
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(run).count()).isOne();
    assertThat(engine.getRepositoryService().createDeploymentQuery().deploymentId(deployment).count()).isOne();
  }

  @Test
  void should_let_an_analyst_delete_with_cascade_a_deployment_holding_only_its_own_runs() {
    String deployment = body(deploy("analyst", "own-cascade-agent.bpmn", copy("own-cascade-agent")), 200).get("id")
        .asText();
    body(ApiClient.as(port, "analyst").post("/api/runs", "{\"agent\": \"own-cascade-agent\", \"question\":"
        + " \"review-plan: my own try\"}"), 201);

    HttpResponse<String> deleted = ApiClient.as(port, "analyst").delete("/engine-rest/deployment/" + deployment
        + "?cascade=true");

    assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
    assertThat(versions("own-cascade-agent")).isZero();
  }

  @BeforeAll
  static void teams(@Autowired ProcessEngine engine) {
    IdentityService identity = engine.getIdentityService();
    for (String team : List.of("teamA", "teamB")) {
      if (identity.createGroupQuery().groupId(team).count() == 0) {
        identity.saveGroup(identity.newGroup(team));
      }
    }
    analyst(identity, "anaA", "teamA");
    analyst(identity, "anaB", "teamB");
  }

  private static void analyst(IdentityService identity, String id, String team) {
    if (identity.createUserQuery().userId(id).count() == 0) {
      User user = identity.newUser(id);
      user.setPassword(id);
      identity.saveUser(user);
      identity.createMembership(id, AgentLoopGroups.ANALYSTS);
      identity.createMembership(id, team);
    }
  }

  /** Refused with 403, each text in the refusal, and nothing of the agent deployed. */
  private void assertRefused(HttpResponse<String> response, String key, String... named) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
    assertThat(message(response)).contains(named).contains("Nothing was deployed");
    if (key != null) {
      assertThat(versions(key)).isZero();
    }
  }

  private static String message(HttpResponse<String> response) {
    try {
      JsonNode body = ApiClient.JSON.readTree(response.body());
      return body.path("message").asText(body.path("detail").asText());
    } catch (IOException e) {
      throw new AssertionError(response.body(), e);
    }
  }

  private long versions(String key) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count();
  }

  private HttpResponse<String> deploy(String user, String file, String bpmn) {
    return ModelerDeploy.deploy(ApiClient.as(port, user), file, bpmn);
  }

  private static String copy(String key) {
    return ModelerDeploy.copyOfReactAgent(key, key);
  }
}
