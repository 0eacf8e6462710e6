package dev.agentloop.internal.tool.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.tool.RemoteInput;
import dev.agentloop.internal.tool.a2a.A2aProtocol.TaskState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What AgentLoop's A2A client takes from a peer, and refuses: tasks, cards, a remote agent's settings, and the
 * line a remote request for input is kept as in the trace.
 */
class A2aWireTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void should_read_a_completed_task_as_its_artifacts_text() throws Exception {
    RemoteTask task = RemoteTask.of(json("""
        {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"},
         "artifacts": [{"artifactId": "a", "parts": [{"text": "Booked."}, {"data": {"room": 12}},
           {"url": "https://example.com/ticket.pdf"}, {"raw": "AAAA", "filename": "x.png", "mediaType": "image/png"}]}]}
        """), "travel");

    assertThat(task.state()).isEqualTo(TaskState.COMPLETED);
    assertThat(task.text()).isEqualTo("Booked.\n{\"room\":12}\n[file https://example.com/ticket.pdf]\n"
        + "[file x.png (image/png), not read]");
  }

  @Test
  void should_take_a_message_answer_as_a_completed_task() throws Exception {
    RemoteTask task = RemoteTask.ofSendResult(json("""
        {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "Hi."}]}}"""), "travel");

    assertThat(task.state()).isEqualTo(TaskState.COMPLETED);
    assertThat(task.text()).isEqualTo("Hi.");
  }

  @Test
  void should_refuse_tasks_without_a_usable_id_or_with_an_unknown_state() {
    assertThatThrownBy(() -> RemoteTask.of(json("{\"status\": {\"state\": \"TASK_STATE_WORKING\"}}"), "travel"))
        .isInstanceOf(A2aPeerException.class).hasMessageContaining("id or contextId");
    assertThatThrownBy(() -> RemoteTask.of(json("{\"id\": \"a b (c)\", \"status\": {\"state\": \"TASK_STATE_WORKING\"}}"),
        "travel")).isInstanceOf(A2aPeerException.class).hasMessageContaining("id or contextId");
    assertThatThrownBy(() -> RemoteTask.of(json("{\"id\": \"t\", \"status\": {\"state\": \"input-required\"}}"),
        "travel")).isInstanceOf(A2aPeerException.class).hasMessageContaining("does not know");
    assertThatThrownBy(() -> RemoteTask.ofSendResult(json("{\"nothing\": 1}"), "travel"))
        .isInstanceOf(A2aPeerException.class).hasMessageContaining("neither a task nor a message");
  }

  @Test
  void should_wait_for_an_agentloop_agent_whose_people_answer_as_for_a_working_one() throws Exception {
    RemoteTask task = RemoteTask.of(json("""
        {"id": "run:1", "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": {"parts": [{"text": "review"}],
         "metadata": {"waitingFor": ["reviewPlan"], "callersMayAnswer": false}}}}"""), "other");

    assertThat(task.state()).isEqualTo(TaskState.WORKING);
  }

  @Test
  void should_take_the_first_json_rpc_interface_of_a2a_1_0_on_the_configured_server_only() throws Exception {
    JsonNode card = json("""
        {"name": "Desk", "description": "books", "skills": [{"id": "b", "name": "Booking", "description": "books"}],
         "supportedInterfaces": [{"url": "http://h:1/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
           {"url": "http://h:1/old", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
           {"url": "http://h:1/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]}""");

    RemoteCard read = RemoteCard.of(card, "desk", "http://h:1/agents");

    assertThat(read.endpoint().toString()).isEqualTo("http://h:1/rpc");
    assertThat(read.description()).isEqualTo("Remote agent Desk: books Skills: Booking (books).");
    assertThatThrownBy(() -> RemoteCard.of(card, "desk", "http://h:2/agents")).isInstanceOf(A2aPeerException.class)
        .hasMessageContaining("AGENTLOOP-602");
    assertThatThrownBy(() -> RemoteCard.of(json("{\"supportedInterfaces\": []}"), "desk", "http://h:1"))
        .isInstanceOf(A2aPeerException.class).hasMessageContaining("AGENTLOOP-603");
  }

  @Test
  void should_cut_a_long_card_description_for_the_model() throws Exception {
    JsonNode card = JSON.createObjectNode().put("name", "N").put("description", "x".repeat(5000))
        .set("supportedInterfaces", json("[{\"url\": \"http://h/rpc\", \"protocolBinding\": \"JSONRPC\","
            + " \"protocolVersion\": \"1.0\"}]"));

    assertThat(RemoteCard.of(card, "n", "http://h").description()).hasSize(RemoteCard.MAX_DESCRIPTION + 1);
  }

  @Test
  void should_check_a_remote_agents_settings_and_fill_in_the_defaults() {
    A2aAgentSettings settings = A2aAgentSettings.of("https://agents.example.com/travel/");

    assertThat(settings.url()).isEqualTo("https://agents.example.com/travel");
    assertThat(settings.sideEffects()).isTrue();
    assertThat(settings.pollInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThatThrownBy(() -> A2aAgentSettings.of(" ")).hasMessageContaining("url is required");
    assertThatThrownBy(() -> A2aAgentSettings.of("ftp://x/y")).hasMessageContaining("http or https");
    assertThatThrownBy(() -> new A2aAgentSettings("http://x", null, null, Duration.ZERO, null, null))
        .hasMessageContaining("timeout must be positive");
  }

  @Test
  void should_keep_a_request_for_input_as_a_line_that_reads_back_unchanged() {
    RemoteInput input = new RemoteInput("travel", "t-1", "c:2", "For which date? (say: task x, context y)");

    assertThat(RemoteInput.parse(input.describe())).contains(input);
    assertThat(RemoteInput.parse("ERROR: " + input.describe())).contains(input);
    assertThat(RemoteInput.parse("remote agent 'travel' said hello")).isEmpty();
    assertThat(new RemoteInput("travel", "t-1", null, " ").question()).contains("asked nothing in words");
    assertThatThrownBy(() -> new RemoteInput("travel", "t 1), context (x", "", "q"))
        .hasMessageContaining("taskId must match");
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }
}
