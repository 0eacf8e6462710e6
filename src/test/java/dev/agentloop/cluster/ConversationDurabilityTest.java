package dev.agentloop.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A conversation waiting for its next question lives in the database, not in a node: after the node
 * that answered it dies (SIGKILL) and starts again on the same database, or after it dies and another
 * node of the cluster serves the run, the run still waits for the question with its idle timer as it
 * was, is found by its conversation id, and answers the next question with its earlier turn in view.
 * Each node is a JVM of its own; the test waits for states, never for time.
 */
class ConversationDurabilityTest {

  private static final String AGENT = "durable-conversation-agent";
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  private final List<AppNode> nodes = new ArrayList<>();

  @AfterEach
  void stopNodes() {
    nodes.forEach(AppNode::close);
  }

  @Test
  void should_take_the_next_question_after_a_crash_and_a_restart_on_the_same_database() {
    // given a conversation waiting for its second question on a node with the shipped H2 file database
    AppNode node = started(TestNodes.onH2File("conversation-restart",
        Path.of("target", "restart", UUID.randomUUID().toString())));
    deploy(node.api());
    String conversationId = "restart-" + UUID.randomUUID();
    String run = start(node.api(), "conversation: what survives a crash?", conversationId);
    JsonNode first = awaitFollowUp(node.api(), run, 1);
    JsonNode idleTimer = idleTimer(node.api(), run);

    // when the node dies the hard way and starts again on the same database
    node.kill();
    node.restart();

    // then the run still waits for its next question, with the same idle timer, and is found by its id
    assertThat(node.api().run(run).get("waitingFor")).extracting(JsonNode::asText).containsExactly("follow-up");
    assertThat(idleTimer(node.api(), run)).isEqualTo(idleTimer);
    assertThat(node.api().get("/api/runs?conversationId=" + conversationId))
        .extracting(found -> found.get("id").asText()).containsExactly(run);
    // and it answers the next question with the earlier answer in view
    node.api().post("/api/runs/" + run + "/messages", "{\"question\": \"conversation: and after it?\"}");
    JsonNode second = awaitFollowUp(node.api(), run, 2).get("turns").get(1);
    assertThat(second.get("answer").asText()).isEqualTo("answer to 'conversation: and after it?' after '"
        + first.get("turns").get(0).get("answer").asText() + "'");
  }

  @Test
  void should_take_the_next_question_on_the_other_node_when_the_node_that_answered_died() {
    // given two nodes on one PostgreSQL and a conversation that node 2 answered, waiting for its next question
    PostgresServer.Database postgres = PostgresServer.newDatabase("conversation");
    AppNode node1 = started(TestNodes.onPostgres("conversation-node-1", postgres));
    AppNode node2 = started(TestNodes.onPostgres("conversation-node-2", postgres));
    deploy(node1.api());
    String run = start(node2.api(), "conversation: who answers after a fail-over?", null);
    JsonNode first = awaitFollowUp(node2.api(), run, 1);
    JsonNode idleTimer = idleTimer(node2.api(), run);

    // when node 2 dies and the next question reaches node 1
    node2.kill();
    node1.api().post("/api/runs/" + run + "/messages", "{\"question\": \"conversation: and now?\"}");

    // then node 1 answers it, with the earlier turn in view, and the conversation goes on waiting
    JsonNode view = awaitFollowUp(node1.api(), run, 2);
    assertThat(view.get("turns").get(1).get("answer").asText()).isEqualTo("answer to 'conversation: and now?' after '"
        + first.get("turns").get(0).get("answer").asText() + "'");
    assertThat(view.get("turns")).extracting(turn -> turn.get("status").asText()).containsExactly("ANSWERED", "ANSWERED");
    assertThat(idleTimer(node1.api(), run).get("id")).isNotEqualTo(idleTimer.get("id"));
  }

  private AppNode started(AppNode.Builder builder) {
    AppNode node = builder.start();
    nodes.add(node);
    return node;
  }

  private static void deploy(NodeApi api) {
    api.deploy(AGENT + ".bpmn", Bpmn.convertToString(TestAgent.variant(AGENT, Map.of(AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true",
        AgentSettings.CONVERSATION_IDLE, "P1D"))));
  }

  private static String start(NodeApi api, String question, String conversationId) {
    String body = "{\"agent\": \"" + AGENT + "\", \"question\": \"" + question + "\""
        + (conversationId == null ? "" : ", \"conversationId\": \"" + conversationId + "\"") + "}";
    return api.post("/api/runs", body).get("id").asText();
  }

  /** Waits until the run waits for a follow-up with this many turns, all answered. */
  private static JsonNode awaitFollowUp(NodeApi api, String run, int turns) {
    return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> api.run(run), view ->
        view.get("waitingFor").toString().contains("follow-up") && view.get("turns").size() == turns);
  }

  /** The job of the run's idle timer (the engine's REST API), the one job a waiting conversation has. */
  private static JsonNode idleTimer(NodeApi api, String run) {
    JsonNode jobs = api.get("/engine-rest/job?processInstanceId=" + run);
    assertThat(jobs).as("jobs of run %s", run).hasSize(1);
    return jobs.get(0);
  }
}
