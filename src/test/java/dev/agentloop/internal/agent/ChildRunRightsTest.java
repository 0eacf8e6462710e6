package dev.agentloop.internal.agent;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepKind;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Rights follow agent calls: a call activity starts its child as the engine, with no right asked, so AgentLoop asks
 * whether the person the run acts for may start the called agent, as {@code POST /api/runs} would. A reviewer whose
 * group may read the child agent but not start it starts the coordinator: no child run starts, and the coordinator's
 * model reads why in words; an operator, who may start both, gets the child's answer.
 */
@AgentLoopTest
class ChildRunRightsTest {

  private static final String CHILD = "guarded-child";
  private static final String COORDINATOR = "guarded-coordinator";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired StepStore store;

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) {
    // an administrator set the reviewers' rights on the child before it was deployed: they may read it, not start it
    var authorizations = engine.getAuthorizationService();
    if (authorizations.createAuthorizationQuery().groupIdIn(AgentLoopGroups.REVIEWERS).resourceId(CHILD).count() == 0) {
      Authorization readOnly = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
      readOnly.setGroupId(AgentLoopGroups.REVIEWERS);
      readOnly.setResource(Resources.PROCESS_DEFINITION);
      readOnly.setResourceId(CHILD);
      readOnly.addPermission(Permissions.READ);
      authorizations.saveAuthorization(readOnly);
    }
    Map<String, String> unattended = Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true");
    TestAgent.deployVariant(engine, CHILD, with(unattended, "calculator"));
    TestAgent.deployVariant(engine, COORDINATOR, with(unattended, "calculator, " + CHILD));
  }

  @Test
  void should_not_run_a_child_the_reviewer_who_started_the_coordinator_may_not_start() {
    // when a reviewer, who may start the coordinator but not the child, starts the coordinator
    String run = start("reviewer");

    // then no child run started, and the model read why: its answer says the child was not run
    JsonNode view = awaitAnswered("reviewer", run);
    assertThat(view.get("finalAnswer").asText()).isEqualTo("The guarded child was not run.");
    Observation refused = observation(run);
    assertThat(refused.failure()).isEqualTo(Observation.NOT_RUN);
    assertThat(refused.childRun()).isNull();
    assertThat(refused.error()).isEqualTo("not run: reviewer may not start the agent 'guarded-child' (no right"
        + " CREATE_INSTANCE on it), and this run acts for reviewer; answer with the other tools");
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processDefinitionKey(CHILD)
        .superProcessInstanceId(run).count()).isZero();
    // and a direct start of the child is refused to the reviewer alike
    assertThat(ApiClient.as(port, "reviewer").post("/api/runs", "{\"agent\": \"" + CHILD + "\", \"question\":"
        + " \"child: what is 2 + 2?\"}").statusCode()).isEqualTo(403);
  }

  @Test
  void should_run_the_child_for_an_operator_who_may_start_it() {
    String run = start("operator");

    JsonNode view = awaitAnswered("operator", run);
    assertThat(view.get("finalAnswer").asText()).isEqualTo("The guarded child says 4.");
    assertThat(observation(run).childRun()).isNotNull();
  }

  private String start(String user) {
    return body(ApiClient.as(port, user).post("/api/runs", "{\"agent\": \"" + COORDINATOR + "\", \"question\":"
        + " \"coordinate-guarded: what does the guarded child say?\"}"), 201).get("id").asText();
  }

  private JsonNode awaitAnswered(String user, String run) {
    ApiClient client = ApiClient.as(port, user);
    return await().atMost(Runs.PATIENCE).until(() -> body(client.get("/api/runs/" + run), 200),
        view -> view.get("status").asText().equals("ANSWERED"));
  }

  private Observation observation(String run) {
    List<Observation> observed = store.activePath(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .map(step -> (Observation) step.content()).toList();
    assertThat(observed).hasSize(1);
    return observed.get(0);
  }

  private static Map<String, String> with(Map<String, String> settings, String allowedTools) {
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.put(AgentSettings.ALLOWED_TOOLS, allowedTools);
    return all;
  }
}
