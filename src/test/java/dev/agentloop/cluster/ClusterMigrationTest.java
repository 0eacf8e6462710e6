package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs waiting on two nodes of a Camunda cluster on one real PostgreSQL move to their agent's next version in one
 * migration asked of node 1: more runs than one request moves itself, so a Camunda batch moves them, its jobs taken
 * by the job executors of the cluster; node 2 tells the same progress, and a moved run's review decided on node 2
 * goes on under the new version's settings.
 */
class ClusterMigrationTest {

  private static final Duration PATIENCE = Duration.ofMinutes(5);
  private static final String KEY = "cluster-migrating-agent";
  private static final int RUNS_PER_NODE = 30;

  static AppNode node1;
  static AppNode node2;

  @BeforeAll
  static void startTwoNodes() throws IOException {
    for (String node : new String[] {"migration-node-1", "migration-node-2"}) {
      Files.deleteIfExists(Path.of("target", "nodes", node + ".log"));
    }
    PostgresServer.Database postgres = PostgresServer.newDatabase("migrations");
    node1 = TestNodes.onPostgres("migration-node-1", postgres).start();
    node2 = TestNodes.onPostgres("migration-node-2", postgres).start();
  }

  @AfterAll
  static void stopNodes() {
    for (AppNode node : new AppNode[] {node1, node2}) {
      if (node != null) {
        node.close();
      }
    }
  }

  @Test
  void should_move_the_waiting_runs_of_both_nodes_in_one_batch_of_the_cluster() {
    deploy(Map.of());
    List<String> runs = new ArrayList<>(node1.api().startAll(KEY, RUNS_PER_NODE, 4, "cluster: node one"));
    runs.addAll(node2.api().startAll(KEY, RUNS_PER_NODE, 4, "cluster: node two"));
    await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1)).until(() -> node1.api()
        .get("/engine-rest/task/count?processDefinitionKey=" + KEY + "&taskDefinitionKey="
            + ReactAgentProcess.REVIEW_PLAN).get("count").asInt() == runs.size());
    deploy(Map.of(AgentSettings.MAX_MODEL_CALLS, "33"));

    JsonNode accepted = node1.api().post("/api/agents/" + KEY + "/migrations",
        "{\"toVersion\": 2, \"fromVersion\": 1, \"reason\": \"the cluster's new version\"}");

    assertThat(accepted.get("batchId").isNull()).as("more runs than one request moves: a batch").isFalse();
    String progress = "/api/agents/" + KEY + "/migrations/" + accepted.get("migrationId").asText();
    JsonNode done = await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1))
        .until(() -> node2.api().get(progress), report -> report.get("done").asBoolean());
    assertThat(done.get("migrated").asInt()).as(done.toString()).isEqualTo(runs.size());
    assertThat(node1.api().get(progress).get("runs")).isEqualTo(done.get("runs"));
    JsonNode versions = node2.api().get("/api/agents/" + KEY + "/versions");
    assertThat(versions.get(0).get("openRuns").asInt()).isZero();
    assertThat(versions.get(1).get("openRuns").asInt()).isEqualTo(runs.size());

    // a run started on node 1 is reviewed on node 2, and goes on under version 2's budget
    String run = runs.get(0);
    String review = node2.api().get("/api/runs/" + run + "/tasks").get(0).get("id").asText();
    node2.api().post("/api/runs/" + run + "/tasks/" + review + "/complete", "{\"decision\": \"accept\"}");
    JsonNode answered = await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> node2.api().run(run), view -> "ANSWERED".equals(view.get("status").asText()));
    assertThat(answered.get("agentVersion").asInt()).isEqualTo(2);
    assertThat(answered.at("/budgets/modelCalls/limit").asInt()).isEqualTo(33);
    JsonNode decisions = node1.api().get("/api/runs/" + run + "/trace").get("decisions");
    assertThat(decisions.get(0).get("decision").asText()).isEqualTo("migrate");
    assertThat(decisions.get(0).get("author").asText()).isEqualTo("demo");
  }

  private static void deploy(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(Map.of(AgentSettings.ALLOWED_TOOLS, "calculator",
        AgentSettings.AUTO_ACCEPT_PLAN, "false", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.CONVERSATION, "false"));
    all.putAll(settings);
    node1.api().deploy(KEY + ".bpmn", Bpmn.convertToString(TestAgent.variant(KEY, all)));
  }
}
