package dev.agentloop.internal.web.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.run.RunService;
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
 * What AgentLoop's A2A server answers each kind of bad request, over real HTTP: nothing is started or changed by
 * any of them, and each gets the JSON-RPC error of A2A 1.0 that fits, in words (or 401/404 before JSON-RPC).
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class A2aServerProtocolTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SEND = """
      {"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": {"message": {"messageId": "m1",
       "role": "ROLE_USER", "parts": [{"text": "a2a-plain: %s"}]}, "configuration": {"returnImmediately": true}}}""";

  private final HttpClient http = HttpClient.newHttpClient();
  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @BeforeAll
  void outsider() {
    if (engine.getIdentityService().createUserQuery().userId("outsider").count() == 0) {
      var outsider = engine.getIdentityService().newUser("outsider");
      outsider.setPassword("outsider");
      engine.getIdentityService().saveUser(outsider);
    }
  }

  @Test
  void should_refuse_a_caller_without_credentials_before_anything_else() throws Exception {
    HttpResponse<String> card = http.send(HttpRequest.newBuilder(uri("/" + TestAgent.KEY
        + "/.well-known/agent-card.json")).GET().build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> send = post(null, "1.0", SEND.formatted("anonymous"));

    assertThat(card.statusCode()).isEqualTo(401);
    assertThat(send.statusCode()).isEqualTo(401);
  }

  @Test
  void should_not_find_an_agent_that_does_not_exist_or_that_the_caller_may_not_start() throws Exception {
    assertThat(post("reviewer", "1.0", SEND.formatted("nobody"), "/no-such-agent").statusCode()).isEqualTo(404);
    HttpResponse<String> outsider = post("outsider", "1.0", SEND.formatted("outsider"), "/" + TestAgent.KEY);
    assertThat(outsider.statusCode()).isEqualTo(404);
    assertThat(outsider.body()).contains("that you may start");
  }

  @Test
  void should_answer_each_bad_request_with_its_json_rpc_error_in_words() throws Exception {
    assertError(post("reviewer", null, SEND.formatted("no version")), -32009, "A2A-Version: 1.0");
    assertError(post("reviewer", "0.3", SEND.formatted("old version")), -32009, "not 0.3");
    assertError(post("reviewer", "1.0", "{not json"), -32700, "not JSON");
    assertError(post("reviewer", "1.0", "[1, 2]"), -32600, "JSON-RPC 2.0 object");
    assertError(post("reviewer", "1.0", "{\"jsonrpc\": \"2.0\", \"method\": \"GetTask\", \"params\": {}}"), -32600,
        "need an id");
    assertError(call("Teleport", "{}"), -32601, "no method 'Teleport'");
    assertError(call("ListTasks", "{}"), -32004, "conversationId");
    assertError(call("CreateTaskPushNotificationConfig", "{}"), -32003, "no push notifications");
    assertError(call("SendMessage", "{}"), -32602, "params.message is required");
    assertError(call("SendMessage", "{\"message\": {\"messageId\": \"m\", \"role\": \"ROLE_AGENT\","
        + " \"parts\": [{\"text\": \"hi\"}]}}"), -32602, "ROLE_USER");
    assertError(call("SendMessage", "{\"message\": {\"messageId\": \"m\", \"role\": \"ROLE_USER\","
        + " \"parts\": [{\"data\": {\"x\": 1}}]}}"), -32005, "text parts only");
    assertError(call("SendMessage", "{\"message\": {\"messageId\": \"m\", \"role\": \"ROLE_USER\","
        + " \"parts\": [{\"text\": \"hi\"}], \"contextId\": \"no spaces allowed\"}}"), -32602, "contextId must be");
    assertError(call("GetTask", "{\"id\": \"not-a-task\"}"), -32001, "has no task");
    assertError(call("GetTask", "{\"id\": \"00000000-0000-0000-0000-000000000000:1\"}"), -32001, "you may read");
    assertError(call("CancelTask", "{}"), -32602, "params.id is required");
    assertThat(runs.recent(TestAgent.KEY, false, 1000)).noneMatch(run -> run.question().contains("version"));
  }

  @Test
  void should_not_let_the_context_of_one_agents_run_be_used_for_another_agent() throws Exception {
    // given a run the analyst started in a new context
    JsonNode task = body(post("analyst", "1.0", SEND.formatted("mine"))).path("result").path("task");
    String context = task.path("contextId").asText();

    // when a message to another agent names that context
    HttpResponse<String> other = post("reviewer", "1.0", """
        {"jsonrpc": "2.0", "id": 8, "method": "SendMessage", "params": {"message": {"messageId": "m2",
         "role": "ROLE_USER", "parts": [{"text": "a2a-plain: theirs"}], "contextId": "%s"}}}""".formatted(context),
        "/" + TestAgent.REVIEWED);

    // then the context is refused without saying whose it is
    assertError(other, -32602, "is taken");
  }

  @Test
  void should_refuse_a_body_over_one_mebibyte() throws Exception {
    String huge = SEND.formatted("x".repeat(A2aController.MAX_BYTES));

    assertError(post("reviewer", "1.0", huge), -32600, "at most 1048576 bytes");
  }

  private void assertError(HttpResponse<String> response, int code, String words) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode error = body(response).path("error");
    assertThat(error.path("code").asInt()).as(response.body()).isEqualTo(code);
    assertThat(error.path("message").asText()).contains(words);
  }

  private HttpResponse<String> call(String method, String params) throws Exception {
    return post("reviewer", "1.0", "{\"jsonrpc\": \"2.0\", \"id\": \"x-1\", \"method\": \"" + method + "\", \"params\": "
        + params + "}");
  }

  private HttpResponse<String> post(String user, String version, String body) throws Exception {
    return post(user, version, body, "/" + TestAgent.KEY);
  }

  private HttpResponse<String> post(String user, String version, String body, String path) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (user != null) {
      request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + user)
          .getBytes(StandardCharsets.UTF_8)));
    }
    if (version != null) {
      request.header("A2A-Version", version);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://localhost:" + port + "/a2a" + path);
  }

  private static JsonNode body(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body());
  }
}
