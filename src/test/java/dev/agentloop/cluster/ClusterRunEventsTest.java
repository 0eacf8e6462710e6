package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.SseClient;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A run followed through {@code /api/runs/{id}/events} on a node that does none of its work: node 1 runs the agent
 * (its worker takes every step), node 2 has no worker and only serves the stream, on one real PostgreSQL. Every event
 * node 2 sends comes from reading what node 1 wrote — nothing of node 1's reaches node 2's memory.
 */
class ClusterRunEventsTest {

  private static final Duration PATIENCE = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String AGENT = "cluster-events-agent";

  static AppNode worker;
  static AppNode follower;
  static PostgresServer.Database postgres;

  @BeforeAll
  static void startNodes() {
    postgres = PostgresServer.newDatabase("run_events");
    worker = TestNodes.onPostgres("events-node-1", postgres).start();
    follower = TestNodes.onPostgres("events-node-2", postgres).property("agentloop.worker.enabled", "false")
        .property("agentloop.events.poll-interval", "PT0.5S").start();
    worker.api().deploy(AGENT + ".bpmn", Bpmn.convertToString(TestAgent.variant(AGENT, Map.of(
        AgentSettings.ALLOWED_TOOLS, "calculator", AgentSettings.AUTO_ACCEPT_PLAN, "false",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "false"))));
  }

  @AfterAll
  static void stopNodes() {
    for (AppNode node : new AppNode[] {worker, follower}) {
      if (node != null) {
        node.close();
      }
    }
  }

  @Test
  void should_stream_on_one_node_the_steps_another_node_writes() {
    // given a run on node 1, followed on node 2
    String run = worker.api().start(AGENT, "cluster: followed on the other node");
    try (SseClient stream = SseClient.open(follower.port(), "/api/runs/" + run + "/events", "demo", null)) {
      assertThat(stream.status()).isEqualTo(200);

      // then node 2 tells the plan and the wait for its review
      List<SseClient.Event> toReview = stream.until(event -> event.name().equals("waiting"), PATIENCE);
      assertThat(toReview).extracting(SseClient.Event::name).containsExactly("step", "waiting");
      String task = data(toReview.get(1)).at("/tasks/0/taskId").asText();
      assertThat(data(toReview.get(1)).at("/tasks/0/key").asText()).isEqualTo(ReactAgentProcess.REVIEW_PLAN);

      // when the plan is accepted on node 1
      worker.api().post("/api/runs/" + run + "/tasks/" + task + "/complete", "{\"decision\": \"accept\"}");

      // then node 2 streams node 1's work to its end
      List<SseClient.Event> rest = stream.until(event -> event.name().equals("ended"), PATIENCE);
      assertThat(rest).extracting(SseClient.Event::name).startsWith("resumed").contains("answer")
          .endsWith("ended");
      assertThat(rest.stream().filter(event -> event.name().equals("step")).map(event -> data(event).get("id").asInt()))
          .containsExactly(2, 3, 4, 5, 6, 7, 8);
      assertThat(data(rest.get(rest.size() - 1)).get("status").asText()).isEqualTo("ANSWERED");
      assertThat(data(rest.get(rest.size() - 1)).get("answer").asText()).isEqualTo("757");
    }
  }

  private static JsonNode data(SseClient.Event event) {
    try {
      return JSON.readTree(event.data());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
