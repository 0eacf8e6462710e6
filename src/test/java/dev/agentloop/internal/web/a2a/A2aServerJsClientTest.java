package dev.agentloop.internal.web.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.A2aPeers;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The official A2A JavaScript SDK ({@code @a2a-js/sdk}) as the client of AgentLoop's A2A server, over real HTTP:
 * it reads an agent's card, sends a question and waits while a reviewer accepts the plan, answers the agent's own
 * question when the diagram lets callers answer, cancels a task, streams one, asks a follow-up in the same context,
 * and is refused an agent its user may not start.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class A2aServerJsClientTest {

  /** Plans are reviewed by a person, answers accepted by the agent. */
  static final String PLAN_REVIEWED = "a2a-plan-reviewed";
  /** Asks with ask_human, and its callers may answer. */
  static final String ASKING = "a2a-asking";
  /** A conversation that accepts its plans and answers itself. */
  static final String CHAT = "a2a-chat";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @BeforeAll
  void deployAgents() {
    TestAgent.deployVariant(engine, PLAN_REVIEWED, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, ASKING, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true", ReactAgentProcess.CALLERS_MAY_ANSWER_PROPERTY, "true"));
    TestAgent.deployVariant(engine, CHAT, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true"));
    if (engine.getIdentityService().createUserQuery().userId("outsider").count() == 0) {
      var outsider = engine.getIdentityService().newUser("outsider");
      outsider.setPassword("outsider");
      engine.getIdentityService().saveUser(outsider);
    }
  }

  @Test
  void should_show_the_card_of_an_agent_with_its_json_rpc_interface_and_skill() {
    JsonNode card = A2aPeers.client(url(PLAN_REVIEWED), "analyst", "card");

    assertThat(card.path("name").asText()).isNotBlank();
    JsonNode face = card.path("supportedInterfaces").get(0);
    assertThat(face.path("url").asText()).isEqualTo(url(PLAN_REVIEWED));
    assertThat(face.path("protocolBinding").asText()).isEqualTo("JSONRPC");
    assertThat(face.path("protocolVersion").asText()).isEqualTo("1.0");
    assertThat(card.path("capabilities").path("streaming").asBoolean()).isTrue();
    assertThat(card.path("skills").get(0).path("id").asText()).isEqualTo(PLAN_REVIEWED);
    assertThat(card.path("skills").get(0).path("tags")).extracting(JsonNode::asText).contains("human-review");
  }

  @Test
  void should_wait_in_input_required_while_a_reviewer_accepts_the_plan_then_answer() {
    // when an A2A client asks an agent whose plans a person reviews
    JsonNode sent = A2aPeers.client(url(PLAN_REVIEWED), "analyst", "send", "a2a-plain: hello over A2A");

    // then the task waits for input, says for whom, and does not let the caller decide the review
    JsonNode task = sent.path("task");
    assertThat(state(task)).isEqualTo("TASK_STATE_INPUT_REQUIRED");
    JsonNode message = task.path("status").path("message");
    assertThat(message.path("metadata").path("waitingFor")).extracting(JsonNode::asText)
        .containsExactly(ReactAgentProcess.REVIEW_PLAN);
    assertThat(message.path("metadata").path("callersMayAnswer").asBoolean()).isFalse();
    String taskId = task.path("id").asText();
    JsonNode refused = A2aPeers.client(url(PLAN_REVIEWED), "analyst", "send", "accept it", taskId);
    assertThat(refused.path("error").path("message").asText()).contains("reviews stay with them");

    // when a reviewer accepts the plan in Tasklist
    String run = task.path("metadata").path("runId").asText();
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);
    Runs.submitForm(engine, review, "reviewer", Map.of("decision", "accept"));
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

    // then the task has the agent's answer
    JsonNode done = A2aPeers.client(url(PLAN_REVIEWED), "analyst", "get", taskId).path("task");
    assertThat(state(done)).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(done.path("artifacts").get(0).path("parts").get(0).path("text").asText()).isEqualTo("A2A says hello");
  }

  @Test
  void should_let_the_caller_answer_the_agents_question_when_the_diagram_allows_it() {
    // given an agent that asks a question its callers may answer
    JsonNode task = A2aPeers.client(url(ASKING), "analyst", "send", "a2a-ask: the weather?").path("task");
    assertThat(state(task)).isEqualTo("TASK_STATE_INPUT_REQUIRED");
    JsonNode metadata = task.path("status").path("message").path("metadata");
    assertThat(metadata.path("questions")).extracting(JsonNode::asText).containsExactly("Which city?");
    assertThat(metadata.path("callersMayAnswer").asBoolean()).isTrue();
    assertThat(text(task.path("status").path("message"))).contains("Which city?");

    // when the caller answers it on the task
    JsonNode answered = A2aPeers.client(url(ASKING), "analyst", "send", "Lisbon", task.path("id").asText(),
        task.path("contextId").asText()).path("task");

    // then the agent goes on with the answer, recorded as the caller's
    assertThat(state(answered)).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(answered.path("artifacts").get(0).path("parts").get(0).path("text").asText())
        .isEqualTo("Sunny in Q: Which city?\nA: Lisbon");
    String run = task.path("metadata").path("runId").asText();
    assertThat(runs.trace(run, false)).anyMatch(step -> "analyst".equals(step.author()));
  }

  @Test
  void should_not_let_another_user_answer_for_the_caller() {
    JsonNode task = A2aPeers.client(url(ASKING), "analyst", "send", "a2a-ask: someone else's?").path("task");
    assertThat(state(task)).isEqualTo("TASK_STATE_INPUT_REQUIRED");

    JsonNode refused = A2aPeers.client(url(ASKING), "reviewer", "send", "Paris", task.path("id").asText());

    assertThat(refused.path("error").path("message").asText()).contains("for who started the run");
  }

  @Test
  void should_stop_the_run_when_the_task_is_cancelled() {
    JsonNode task = A2aPeers.client(url(ASKING), "analyst", "send", "a2a-ask: never mind").path("task");
    String taskId = task.path("id").asText();

    JsonNode cancelled = A2aPeers.client(url(ASKING), "analyst", "cancel", taskId).path("task");

    assertThat(state(cancelled)).isEqualTo("TASK_STATE_CANCELED");
    assertThat(runs.view(task.path("metadata").path("runId").asText()).status()).isEqualTo(RunStatus.STOPPED);
    JsonNode again = A2aPeers.client(url(ASKING), "analyst", "cancel", taskId);
    assertThat(again.path("error").path("message").asText()).contains("TASK_STATE_CANCELED already");
  }

  @Test
  void should_stream_the_task_until_it_has_its_answer() {
    JsonNode streamed = A2aPeers.client(url(TestAgent.KEY), "analyst", "stream", "a2a-plain: stream it");

    List<JsonNode> events = StreamSupport.stream(streamed.path("events").spliterator(), false).toList();
    assertThat(events).isNotEmpty();
    assertThat(events.get(0).has("task")).as("the stream begins with the task: %s", events).isTrue();
    assertThat(events).anySatisfy(event -> assertThat(event.path("artifactUpdate").path("artifact").path("parts")
        .path(0).path("text").asText()).isEqualTo("A2A says hello"));
    assertThat(state(events.get(events.size() - 1).path("statusUpdate"))).isEqualTo("TASK_STATE_COMPLETED");
  }

  @Test
  void should_take_a_follow_up_in_the_same_context_as_the_conversations_next_turn() {
    JsonNode first = A2aPeers.client(url(CHAT), "analyst", "send", "a2a-plain: first").path("task");
    assertThat(state(first)).isEqualTo("TASK_STATE_COMPLETED");
    String context = first.path("contextId").asText();

    JsonNode second = A2aPeers.client(url(CHAT), "analyst", "send", "a2a-plain: second", "-", context).path("task");

    assertThat(state(second)).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(second.path("contextId").asText()).isEqualTo(context);
    assertThat(second.path("metadata").path("runId").asText()).isEqualTo(first.path("metadata").path("runId").asText());
    assertThat(second.path("metadata").path("turn").asInt()).isEqualTo(2);
  }

  @Test
  void should_not_show_or_run_an_agent_its_user_may_not_start() {
    JsonNode card = A2aPeers.client(url(PLAN_REVIEWED), "outsider", "card");
    JsonNode sent = A2aPeers.client(url(PLAN_REVIEWED), "outsider", "send", "a2a-plain: may I?");

    assertThat(card.path("error").path("message").asText()).contains("404");
    assertThat(sent.path("error").path("message").asText()).contains("404");
    assertThat(runs.recent(PLAN_REVIEWED, false, 100)).noneMatch(run -> run.question().contains("may I?"));
  }

  private String url(String agent) {
    return "http://localhost:" + port + "/a2a/" + agent;
  }

  private static String state(JsonNode taskOrUpdate) {
    return taskOrUpdate.path("status").path("state").asText();
  }

  private static String text(JsonNode message) {
    return message.path("parts").get(0).path("text").asText();
  }
}
