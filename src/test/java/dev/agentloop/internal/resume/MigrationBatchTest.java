package dev.agentloop.internal.resume;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.batch.Batch;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A thousand runs waiting in their plan review move to the agent's next version in one request: a Camunda batch
 * of AgentLoop's type ({@link MigrationBatchHandler}), run by the job executor, whose progress the API tells while
 * the request has long returned; a run of another agent started meanwhile goes on to its answer. Every run ends up
 * on the new version with its own audited decision. On H2, as the test host runs.
 */
@AgentLoopTest
class MigrationBatchTest {

  private static final Logger LOG = LoggerFactory.getLogger(MigrationBatchTest.class);
  private static final int RUNS = 1000;
  private static final String KEY = "mig-batch";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  private final List<String> started = new ArrayList<>();

  @AfterEach
  void removeTheThousandRuns() {
    // the test context is shared: its other tests should not find a thousand waiting runs
    engine.getRuntimeService().deleteProcessInstancesIfExists(started, "the batch test is over", true, true, false);
  }

  @Test
  void should_move_a_thousand_waiting_runs_in_a_batch_while_other_runs_go_on() {
    TestAgent.deployVariant(engine, KEY, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "false", AgentSettings.CONVERSATION, "false"));
    for (int i = 0; i < RUNS; i++) {
      started.add(runs.start(KEY, "batch run " + i));
    }
    await().atMost(Duration.ofMinutes(10)).until(() -> engine.getTaskService().createTaskQuery()
        .processDefinitionKey(KEY).taskDefinitionKey(ReactAgentProcess.REVIEW_PLAN).count() == RUNS);
    TestAgent.deployVariant(engine, KEY, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "false", AgentSettings.CONVERSATION, "false", AgentSettings.MAX_STEPS, "12"));

    HttpResponse<String> response = ApiClient.as(port, "operator").post("/api/agents/" + KEY + "/migrations",
        "{\"toVersion\": 2, \"fromVersion\": 1, \"reason\": \"twelve steps are enough\"}");

    // the request returns with the batch to follow; the runs move in the job executor's own time
    JsonNode accepted = body(response, 202);
    String location = response.headers().firstValue("Location").orElseThrow();
    assertThat(location).endsWith("/api/agents/" + KEY + "/migrations/" + accepted.get("migrationId").asText());
    assertThat(accepted.get("total").asInt()).isEqualTo(RUNS);
    Batch batch = engine.getManagementService().createBatchQuery().batchId(accepted.get("batchId").asText())
        .singleResult();
    assertThat(batch.getType()).isEqualTo(MigrationBatchHandler.TYPE);
    // live work meanwhile: a run of another agent answers
    String live = runs.start(TestAgent.KEY, "multi-step: while the batch runs");
    Runs.awaitStatus(runs, live, RunStatus.ANSWERED);
    JsonNode whenLiveAnswered = progress(accepted);

    JsonNode done = await().atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofSeconds(1))
        .until(() -> progress(accepted), report -> report.get("done").asBoolean());
    LOG.info("a live run answered while the batch ran, when {} of {} runs had moved",
        whenLiveAnswered.get("migrated").asInt(), RUNS);

    assertThat(done.get("migrated").asInt()).as(done.get("runs").toString()).isEqualTo(RUNS);
    assertThat(done.get("refused").asInt()).isZero();
    ProcessDefinition v2 = engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(KEY)
        .processDefinitionVersion(2).singleResult();
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processDefinitionId(v2.getId()).count())
        .isEqualTo(RUNS);
    assertThat(engine.getTaskService().createTaskQuery().processDefinitionId(v2.getId())
        .taskDefinitionKey(ReactAgentProcess.REVIEW_PLAN).count()).isEqualTo(RUNS);
    // each run has its decision, and may go on: one of them is reviewed on version 2
    String one = started.get(RUNS / 2);
    assertThat(runs.decisions(one)).singleElement().satisfies(decision -> {
      assertThat(decision.decision()).isEqualTo("migrate");
      assertThat(decision.toVersion()).isEqualTo(2);
      assertThat(decision.reason()).isEqualTo("twelve steps are enough");
    });
    assertThat(runs.view(one).agentVersion()).isEqualTo(2);
  }

  private JsonNode progress(JsonNode accepted) {
    return body(ApiClient.as(port, "operator").get("/api/agents/" + KEY + "/migrations/"
        + accepted.get("migrationId").asText()), 200);
  }
}
