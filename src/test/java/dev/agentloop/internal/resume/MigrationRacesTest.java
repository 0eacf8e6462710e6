package dev.agentloop.internal.resume;

import static dev.agentloop.ApiClient.body;
import static dev.agentloop.internal.resume.MigrationCalls.migration;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The unfriendly cases of moving runs between versions of their agent, through the API as people use it: two
 * operators move the same runs at the same moment (each run moves once, with one decision, and the other request
 * is told so in words), and runs that call one another — the caller, waiting for the agent it called, is busy; the
 * called run, waiting in its plan review, moves on its own and answers its caller from the new version.
 */
@AgentLoopTest
class MigrationRacesTest {

  /** The scripted model's question "coordinate-reviewed:" calls this agent, whose plan a person reviews. */
  private static final String CHILD = "reviewed-child-agent";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @Test
  void should_move_each_run_once_when_two_operators_move_the_same_runs_at_the_same_moment() throws Exception {
    String key = "mig-race";
    deploy(key, Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "false"));
    List<String> waiting = IntStream.range(0, 4).mapToObj(n -> runs.start(key, "a plain question " + n)).toList();
    waiting.forEach(run -> api("operator").awaitTask(run, ReactAgentProcess.REVIEW_ANSWER));
    deploy(key, Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "false", AgentSettings.MAX_STEPS, "9"));

    // two people press "move" at once: an operator and an engine administrator
    CyclicBarrier together = new CyclicBarrier(2);
    CompletableFuture<JsonNode> first = CompletableFuture.supplyAsync(() -> migrateTogether(
        ApiClient.as(port, "operator"), together, key, waiting, "the operator's reason"));
    CompletableFuture<JsonNode> second = CompletableFuture.supplyAsync(() -> migrateTogether(
        ApiClient.as(port, "demo", "demo"), together, key, waiting, "the admin's reason"));
    List<JsonNode> reports = List.of(first.get(), second.get());

    for (String run : waiting) {
      List<String> outcomes = new ArrayList<>();
      reports.forEach(report -> report.get("runs").forEach(move -> {
        if (move.get("runId").asText().equals(run)) {
          outcomes.add(move.get("outcome").asText() + ": " + move.get("detail").asText());
        }
      }));
      // one request moved it; the other was told in words why not, and nothing was moved twice
      assertThat(outcomes).hasSize(2);
      assertThat(outcomes).filteredOn(outcome -> outcome.startsWith("migrated: moved from version 1 to version 2"))
          .hasSize(1);
      assertThat(outcomes).filteredOn(outcome -> outcome.startsWith("refused: ")).singleElement()
          .satisfies(refusal -> assertThat(refusal).containsAnyOf("the run is on version 2 already",
              "the run changed at the same moment, twice: ask again"));
      assertThat(runs.view(run).agentVersion()).isEqualTo(2);
      assertThat(migrations(run)).singleElement().satisfies(decision -> {
        assertThat(decision.get("fromVersion").asInt()).isEqualTo(1);
        assertThat(decision.get("toVersion").asInt()).isEqualTo(2);
      });
    }
    // the runs go on from where they waited, under version 2
    String task = api("reviewer").awaitTask(waiting.get(0), ReactAgentProcess.REVIEW_ANSWER).get("id").asText();
    body(api("reviewer").post("/api/runs/" + waiting.get(0) + "/tasks/" + task + "/complete",
        "{\"decision\": \"accept\"}"), 200);
    Runs.awaitView(runs, waiting.get(0), view -> view.status().isFinished());
  }

  @Test
  void should_refuse_a_caller_waiting_for_its_called_agent_and_move_the_called_run_that_waits_in_a_review() {
    deploy(CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator", AgentSettings.AUTO_ACCEPT_PLAN, "false",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    String coordinator = "mig-coordinator";
    Map<String, String> coordinating = Map.of(AgentSettings.ALLOWED_TOOLS, CHILD,
        AgentSettings.AUTO_ACCEPT_ANSWER, "true");
    deploy(coordinator, coordinating);
    String caller = runs.start(coordinator, "coordinate-reviewed: ask the reviewed child");
    ProcessInstance called = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().superProcessInstanceId(caller).singleResult(), instance -> instance != null);
    String child = called.getId();
    Runs.awaitTask(engine, child, ReactAgentProcess.REVIEW_PLAN);
    int childFrom = runs.view(child).agentVersion();
    deploy(CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator", AgentSettings.AUTO_ACCEPT_PLAN, "false",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.MAX_STEPS, "9"));
    deploy(coordinator, coordinating);

    // the caller waits for the agent it called: it is busy, and stays where it is
    JsonNode callerReport = migrate(coordinator, migration(2, caller));
    assertThat(callerReport.at("/runs/0/outcome").asText()).isEqualTo("refused");
    assertThat(callerReport.at("/runs/0/detail").asText()).startsWith("busy: try again when it waits (it is waiting"
        + " for another agent it called: ");
    assertThat(runs.view(caller).agentVersion()).isEqualTo(1);

    // the called run waits in its plan review: it moves on its own, under its own agent's key
    JsonNode childReport = migrate(CHILD, migration(childFrom + 1, child));
    assertThat(childReport.at("/runs/0/outcome").asText()).isEqualTo("migrated");
    assertThat(childReport.at("/runs/0/detail").asText()).isEqualTo("moved from version " + childFrom
        + " to version " + (childFrom + 1) + ": it waits in 'Review the plan' (reviewPlan)");
    assertThat(runs.view(child).agentVersion()).isEqualTo(childFrom + 1);
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().superProcessInstanceId(caller).singleResult()
        .getId()).isEqualTo(child);

    // the called run goes on from its new version and answers its caller, which ends on its own version
    Task review = Runs.awaitTask(engine, child, ReactAgentProcess.REVIEW_PLAN);
    Runs.submitForm(engine, review, "reviewer", Map.of("decision", "accept"));
    Runs.awaitView(runs, caller, view -> view.status().isFinished());
    assertThat(runs.view(child).status().isFinished()).isTrue();
    assertThat(runs.view(child).finalAnswer()).isNotBlank();
    assertThat(runs.view(caller).agentVersion()).isEqualTo(1);
    assertThat(migrations(child)).singleElement()
        .satisfies(decision -> assertThat(decision.get("toVersion").asInt()).isEqualTo(childFrom + 1));
  }

  // --- helpers ---

  private JsonNode migrateTogether(ApiClient client, CyclicBarrier together, String key, List<String> runIds,
      String reason) {
    ObjectNode request = migration(2, runIds.toArray(String[]::new)).put("reason", reason);
    try {
      together.await();
    } catch (Exception e) {
      throw new IllegalStateException("the other request never came", e);
    }
    return body(client.post("/api/agents/" + key + "/migrations", request.toString()), 200);
  }

  private JsonNode migrate(String key, ObjectNode request) {
    return MigrationCalls.migrate(api("operator"), key, request);
  }

  private List<JsonNode> migrations(String run) {
    return MigrationCalls.migrations(api("operator"), run);
  }

  private void deploy(String key, Map<String, String> settings) {
    MigrationCalls.deploy(engine, key, settings);
  }

  private ApiClient api(String user) {
    return ApiClient.as(port, user);
  }
}
