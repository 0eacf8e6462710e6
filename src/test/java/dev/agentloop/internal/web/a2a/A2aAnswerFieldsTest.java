package dev.agentloop.internal.web.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.llm.AnswerSchemaRuns;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An agent that answers in fields, over A2A as a caller sees it (real HTTP, JSON-RPC of A2A 1.0): its card says it
 * answers in JSON too, and its task's answer artifact carries the fields as a data part beside the text; an agent
 * that answers in text has a text part only.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class A2aAnswerFieldsTest {

  private static final String AGENT = "a2a-fields-agent";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SEND = """
      {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "m-%s",
       "role": "ROLE_USER", "parts": [{"text": "%s"}]}}}""";

  private final HttpClient http = HttpClient.newHttpClient();
  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @BeforeAll
  void deploy() {
    AnswerSchemaRuns.deploy(engine, AGENT);
  }

  @Test
  void should_hand_the_answers_fields_to_the_caller_as_a_data_part() throws Exception {
    // when a caller asks and waits for the task to settle
    JsonNode task = body(post("/" + AGENT, SEND.formatted("fields", "fields: my kettle broke, over A2A")))
        .path("result").path("task");

    // then the answer comes as text and as its fields, the data valid against the agent's schema
    assertThat(task.at("/status/state").asText()).as(task.toString()).isEqualTo("TASK_STATE_COMPLETED");
    JsonNode parts = task.at("/artifacts/0/parts");
    assertThat(parts).hasSize(2);
    assertThat(parts.get(0).path("mediaType").asText()).isEqualTo("text/plain");
    assertThat(parts.get(0).path("text").asText()).isNotBlank();
    assertThat(parts.get(1).path("mediaType").asText()).isEqualTo("application/json");
    assertThat(parts.get(1).path("data")).isEqualTo(JSON.readTree(
        "{\"category\": \"defect\", \"priority\": \"urgent\", \"days\": 2, \"reply\": \"We are sorry.\"}"));

    // and GetTask hands out the same fields later
    JsonNode again = body(post("/" + AGENT, "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"GetTask\","
        + " \"params\": {\"id\": \"" + task.path("id").asText() + "\"}}")).path("result");
    assertThat(again.at("/artifacts/0/parts/1/data/category").asText()).isEqualTo("defect");
  }

  @Test
  void should_say_in_the_card_that_the_agent_answers_in_json_too() throws Exception {
    // when
    JsonNode fields = body(get("/" + AGENT + "/.well-known/agent-card.json"));
    JsonNode text = body(get("/" + TestAgent.KEY + "/.well-known/agent-card.json"));

    // then
    assertThat(fields.at("/skills/0/outputModes")).extracting(JsonNode::asText)
        .containsExactly("text/plain", "application/json");
    assertThat(fields.at("/skills/0/tags")).extracting(JsonNode::asText).contains("answer-fields");
    assertThat(text.at("/skills/0/outputModes").isMissingNode()).as("an agent that answers in text").isTrue();
  }

  @Test
  void should_give_an_answer_in_text_as_a_text_part_only() throws Exception {
    // when
    JsonNode task = body(post("/" + TestAgent.KEY, SEND.formatted("text", "a2a-plain: no fields")))
        .path("result").path("task");

    // then
    assertThat(task.at("/status/state").asText()).as(task.toString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(task.at("/artifacts/0/parts")).hasSize(1);
    assertThat(task.at("/artifacts/0/parts/0/text").asText()).isEqualTo("A2A says hello");
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(authorized(HttpRequest.newBuilder(uri(path))).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(authorized(HttpRequest.newBuilder(uri(path))).header("Content-Type", "application/json")
        .header("A2A-Version", "1.0").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder authorized(HttpRequest.Builder request) {
    return request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString("reviewer:reviewer"
        .getBytes(StandardCharsets.UTF_8)));
  }

  private URI uri(String path) {
    return URI.create("http://localhost:" + port + "/a2a" + path);
  }

  private static JsonNode body(HttpResponse<String> response) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }
}
