package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An agent that calls another agent, across a Camunda cluster on one real PostgreSQL: node 1 runs the coordinator up
 * to its call of a sub-agent, whose child run waits in its plan review; node 2 joins and node 1 dies the hard way
 * (SIGKILL). The child's steps after its review are then node 2's, and so is the rest of the coordinator: both runs
 * finish, the coordinator with the child's answer. Nothing here waits for a moment: each precondition is arranged
 * (node 2 starts only once the coordinator waits for its child, the review is decided only after node 1 is dead).
 */
class ClusterChildRunTest {

  private static final Duration PATIENCE = Duration.ofMinutes(3);
  private static final String CHILD = "cluster-child-agent";
  private static final String COORDINATOR = "cluster-coordinator-agent";

  static AppNode node1;
  static AppNode node2;
  static PostgresServer.Database postgres;

  @BeforeAll
  static void startNodeOne() {
    for (String node : new String[] {"child-node-1", "child-node-2"}) {
      try {
        Files.deleteIfExists(Path.of("target", "nodes", node + ".log"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    postgres = PostgresServer.newDatabase("child_runs");
    node1 = TestNodes.onPostgres("child-node-1", postgres).start();
    // the child first: the coordinator's allowedTools must name a deployed agent
    deploy(CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator", AgentSettings.AUTO_ACCEPT_PLAN, "false",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "false"));
    deploy(COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, " + CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.CONVERSATION, "false"));
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
  void should_finish_the_coordinator_and_its_child_on_node_two_after_node_one_died() {
    // given a coordinator that node 1, the only node, ran up to its call of the child agent
    String coordinator = node1.api().start(COORDINATOR, "cluster-coordinate: ask the child");
    JsonNode waiting = await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> node1.api().run(coordinator).at("/activeStep"),
            active -> "agents".equals(active.path("kind").asText())
                && "person".equals(active.at("/children/0/activeStep/kind").asText()));
    String child = waiting.at("/children/0/runId").asText();
    assertThat(waiting.at("/children/0/agent").asText()).isEqualTo(CHILD);
    assertThat(waiting.at("/children/0/activeStep/activity").asText()).isEqualTo(ReactAgentProcess.REVIEW_PLAN);
    assertThat(kinds(node1.api().trace(coordinator))).containsExactly("PLAN", "THOUGHT", "ACTION");

    // when node 2 joins and node 1 dies
    node2 = TestNodes.onPostgres("child-node-2", postgres).start();
    node1.kill();
    // and a reviewer accepts the child's plan through node 2
    String review = node2.api().get("/api/runs/" + child + "/tasks").get(0).get("id").asText();
    node2.api().post("/api/runs/" + child + "/tasks/" + review + "/complete", "{\"decision\": \"accept\"}");

    // then node 2 runs the rest of the child and of the coordinator: both end, answered
    JsonNode answered = await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250))
        .until(() -> node2.api().run(coordinator), run -> "ANSWERED".equals(run.get("status").asText()));
    assertThat(answered.get("finalAnswer").asText()).isEqualTo("The child agent says 4.");
    JsonNode childRun = node2.api().run(child);
    assertThat(childRun.get("status").asText()).isEqualTo("ANSWERED");
    assertThat(childRun.get("calledBy").asText()).isEqualTo(coordinator);
    assertThat(kinds(node2.api().trace(child)))
        .containsExactly("PLAN", "THOUGHT", "ACTION", "OBSERVATION", "FINAL_ANSWER");
    JsonNode trace = node2.api().trace(coordinator);
    assertThat(kinds(trace)).containsExactly("PLAN", "THOUGHT", "ACTION", "OBSERVATION", "FINAL_ANSWER");
    JsonNode observation = trace.get(3);
    assertThat(observation.at("/content/result").asText()).isEqualTo("4");
    assertThat(observation.at("/content/childRun").asText()).isEqualTo(child);
  }

  private static void deploy(String key, Map<String, String> settings) {
    node1.api().deploy(key + ".bpmn", Bpmn.convertToString(TestAgent.variant(key, settings)));
  }

  /** The kinds of the steps, as {@link NodeApi#trace(String)} lists them (every branch: an edit would show). */
  private static List<String> kinds(JsonNode steps) {
    List<String> kinds = new ArrayList<>();
    steps.forEach(step -> kinds.add(step.get("kind").asText()));
    return kinds;
  }
}
