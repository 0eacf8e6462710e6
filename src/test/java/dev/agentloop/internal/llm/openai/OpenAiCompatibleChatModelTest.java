package dev.agentloop.internal.llm.openai;

import static dev.agentloop.internal.llm.ModelCalls.failure;
import static dev.agentloop.internal.llm.ModelCalls.reply;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.spi.ToolSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OpenAiCompatibleChatModelTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String API_KEY = "sk-test-9f8e7d6c5b4a-SECRET";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private FakeOpenAiServer server;
  private ExecutorService pool;

  @BeforeEach
  void start() throws IOException {
    server = new FakeOpenAiServer();
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterEach
  void stop() {
    pool.shutdownNow();
    server.close();
  }

  // --- replies ---

  @Test
  void should_return_tool_calls_with_id_name_and_raw_arguments() {
    // given
    String arguments = "{\"query\":\"camunda external tasks\",\"limit\":3}";
    server.respond(200, FakeOpenAiServer.toolCallCompletion("call_abc123", "web_search", arguments, 57, 18));

    // when
    ModelReply reply = reply(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(reply.toolCalls()).containsExactly(new ToolCall("call_abc123", "web_search", arguments));
    assertThat(reply.text()).isEmpty();
    assertThat(reply.tokens()).isEqualTo(75);
    assertThat(reply.usage()).as("prompt and completion apart, for the operator")
        .isEqualTo(new dev.agentloop.spi.TokenCounts(57L, 18L, 75L));
  }

  @Test
  void should_keep_arguments_that_are_not_json_as_written() {
    // given
    String arguments = "{\"query\": unterminated";
    server.respond(200, FakeOpenAiServer.toolCallCompletion("call_x", "web_search", arguments, 1, 2));

    // when
    ModelReply reply = reply(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(reply.toolCalls()).extracting(ToolCall::arguments).containsExactly(arguments);
  }

  @Test
  void should_return_text_of_a_plain_reply() {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("Paris is the capital of France.", 20, 7));

    // when
    ModelReply reply = reply(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(reply.text()).isEqualTo("Paris is the capital of France.");
    assertThat(reply.toolCalls()).isEmpty();
    assertThat(reply.tokens()).isEqualTo(27);
    // what the endpoint said of its response, for the call's span
    assertThat(reply.response()).isEqualTo(new ModelReply.Response("chatcmpl-fake123", "test-model"));
  }

  // --- the request on the wire ---

  @Test
  void should_send_model_and_messages_in_order_with_their_roles() {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("done", 1, 1));
    ModelRequest request = new ModelRequest(ModelRequest.Purpose.THINK, List.of(
        new ChatMessage.SystemMessage("You are a research agent."),
        new ChatMessage.UserMessage("What is Camunda?"),
        new ChatMessage.AssistantMessage("", List.of(new ToolCall("call_1", "web_search", "{\"query\":\"camunda\"}"))),
        new ChatMessage.ToolResultMessage("call_1", "web_search", "Camunda is a process orchestration platform.")),
        List.of(), runInfo());

    // when
    reply(model(TIMEOUT).chat(request));

    // then
    JsonNode body = server.onlyRequest().body();
    assertThat(body.path("model").asText()).isEqualTo("test-model");
    JsonNode messages = body.path("messages");
    assertThat(messages).hasSize(4);
    assertThat(roles(messages)).containsExactly("system", "user", "assistant", "tool");
    assertThat(messages.get(0).path("content").asText()).isEqualTo("You are a research agent.");
    assertThat(messages.get(1).path("content").asText()).isEqualTo("What is Camunda?");

    JsonNode assistant = messages.get(2);
    assertThat(assistant.path("tool_calls")).hasSize(1);
    JsonNode call = assistant.path("tool_calls").get(0);
    assertThat(call.path("id").asText()).isEqualTo("call_1");
    assertThat(call.path("type").asText()).isEqualTo("function");
    assertThat(call.path("function").path("name").asText()).isEqualTo("web_search");
    assertThat(call.path("function").path("arguments").isTextual()).isTrue();
    assertThat(call.path("function").path("arguments").asText()).isEqualTo("{\"query\":\"camunda\"}");
    // an assistant turn with only tool calls has no text: content is null or absent, never a bogus string
    assertThat(assistant.path("content").isMissingNode() || assistant.path("content").isNull())
        .as("assistant content %s", assistant.path("content")).isTrue();

    JsonNode tool = messages.get(3);
    assertThat(tool.path("tool_call_id").asText()).isEqualTo("call_1");
    assertThat(tool.path("content").asText()).isEqualTo("Camunda is a process orchestration platform.");
  }

  @Test
  void should_send_assistant_text_next_to_its_tool_calls() {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("done", 1, 1));
    ModelRequest request = new ModelRequest(ModelRequest.Purpose.THINK, List.of(
        new ChatMessage.UserMessage("q"),
        new ChatMessage.AssistantMessage("I will search.", List.of(new ToolCall("call_1", "web_search", "{}"))),
        new ChatMessage.ToolResultMessage("call_1", "web_search", "r")),
        List.of(), runInfo());

    // when
    reply(model(TIMEOUT).chat(request));

    // then
    JsonNode assistant = server.onlyRequest().body().path("messages").get(1);
    assertThat(assistant.path("content").asText()).isEqualTo("I will search.");
    assertThat(assistant.path("tool_calls").get(0).path("function").path("name").asText()).isEqualTo("web_search");
  }

  @Test
  void should_send_tools_as_json_schema() throws IOException {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("done", 1, 1));
    JsonNode parameters = JSON.readTree("""
        {
          "type": "object",
          "properties": {
            "query": {"type": "string", "maxLength": 500},
            "limit": {"type": "integer", "minimum": 1, "maximum": 10},
            "site":  {"type": "string", "enum": ["docs", "forum"]}
          },
          "required": ["query"],
          "additionalProperties": false
        }
        """);
    ModelRequest request = new ModelRequest(ModelRequest.Purpose.THINK, List.of(new ChatMessage.UserMessage("q")),
        List.of(new ToolSpec("web_search", "Searches the web.", parameters)), runInfo());

    // when
    reply(model(TIMEOUT).chat(request));

    // then
    JsonNode tools = server.onlyRequest().body().path("tools");
    assertThat(tools).hasSize(1);
    JsonNode tool = tools.get(0);
    assertThat(tool.path("type").asText()).isEqualTo("function");
    JsonNode function = tool.path("function");
    assertThat(function.path("name").asText()).isEqualTo("web_search");
    assertThat(function.path("description").asText()).isEqualTo("Searches the web.");
    JsonNode sent = function.path("parameters");
    assertThat(sent.path("type").asText()).isEqualTo("object");
    assertThat(sent.path("properties")).isEqualTo(parameters.path("properties"));
    assertThat(sent.path("required")).isEqualTo(parameters.path("required"));
  }

  @Test
  void should_send_no_tools_when_the_request_has_none() {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("done", 1, 1));

    // when
    reply(model(TIMEOUT).chat(simpleRequest()));

    // then
    JsonNode tools = server.onlyRequest().body().path("tools");
    assertThat(tools.isMissingNode() || tools.isNull() || tools.isEmpty()).as("tools %s", tools).isTrue();
  }

  @Test
  void should_send_the_api_key_as_bearer_token() {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("done", 1, 1));

    // when
    reply(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(server.onlyRequest().authorization()).isEqualTo("Bearer " + API_KEY);
  }

  // --- failures ---

  @Test
  void should_fail_retryably_on_http_429() {
    // given
    server.respond(429, FakeOpenAiServer.errorBody("Rate limit reached for test-model.", "requests",
        "rate_limit_exceeded"));

    // when
    ModelCallException failure = failure(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isEqualTo(429);
    assertThat(failure.getMessage()).contains("429");
    assertNoKey(failure);
  }

  @Test
  void should_say_how_long_the_endpoint_asked_to_wait_in_seconds_or_as_a_date() {
    // given a 429 with Retry-After in seconds, then a 503 with Retry-After as an HTTP date
    server.respond(new FakeOpenAiServer.Response(429, FakeOpenAiServer.errorBody("Rate limit reached.", "requests",
        "rate_limit_exceeded"), Duration.ZERO, Map.of("Retry-After", "7")));
    String inTwoMinutes = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(2));
    server.respond(new FakeOpenAiServer.Response(503, "overloaded", Duration.ZERO, Map.of("Retry-After", inTwoMinutes)));

    // when
    ModelCallException seconds = failure(model(TIMEOUT).chat(simpleRequest()));
    ModelCallException date = failure(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(seconds.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    assertThat(seconds.getMessage()).isEqualTo("model endpoint openai:" + server.baseUrl()
        + " answered HTTP 429 (Too Many Requests): Rate limit reached.");
    assertThat(date.retryAfter()).isBetween(Duration.ofSeconds(100), Duration.ofSeconds(120));
  }

  @Test
  void should_cut_an_html_error_page_down_to_its_title() {
    // given a proxy's error page in front of the endpoint
    server.respond(502, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>502 Bad Gateway</title>"
        + "<style>body { color: red }</style></head>\n<body><h1>Bad Gateway</h1><p>nginx/1.25.3</p></body></html>");

    // when
    ModelCallException failure = failure(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(failure.getMessage()).isEqualTo("model endpoint openai:" + server.baseUrl()
        + " answered HTTP 502 (Bad Gateway): 502 Bad Gateway");
    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.retryAfter()).isNull();
  }

  @Test
  void should_take_the_first_line_of_text_of_an_html_page_without_a_title() {
    assertThat(ProviderErrors.summary("<html><body>\n<script>var x = 1;</script>\n<h1>Service  down</h1>"
        + "<p>Try later</p></body></html>")).isEqualTo("Service  down");
    assertThat(ProviderErrors.summary("upstream connect error\nreset reason: overflow")).isEqualTo(
        "upstream connect error");
  }

  @Test
  void should_fail_retryably_on_http_500() {
    // given
    server.respond(500, FakeOpenAiServer.errorBody("The server had an error.", "server_error", null));

    // when
    ModelCallException failure = failure(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isEqualTo(500);
    assertNoKey(failure);
  }

  @Test
  void should_fail_for_good_on_http_401() {
    // given
    server.respond(401, FakeOpenAiServer.errorBody("Incorrect API key provided: sk-test-****CRET.",
        "invalid_request_error", "invalid_api_key"));

    // when
    ModelCallException failure = failure(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(failure.isRetryable()).isFalse();
    assertThat(failure.httpStatus()).isEqualTo(401);
    assertNoKey(failure);
  }

  @Test
  void should_fail_for_good_on_http_400() {
    // given
    server.respond(400, FakeOpenAiServer.errorBody("Invalid schema for function 'web_search'.",
        "invalid_request_error", null));

    // when
    ModelCallException failure = failure(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(failure.isRetryable()).isFalse();
    assertThat(failure.httpStatus()).isEqualTo(400);
    assertNoKey(failure);
  }

  @ParameterizedTest
  @ValueSource(strings = {"<html>oops</html>", "not json", "{}"})
  void should_fail_retryably_naming_the_endpoint_when_the_body_is_no_chat_completion(String body) {
    // given
    OpenAiCompatibleChatModel model = model(TIMEOUT);
    server.respond(200, body);

    // when
    ModelCallException failure = failure(model.chat(simpleRequest()));

    // then
    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isZero();
    assertThat(failure.getMessage()).contains(model.endpoint()).contains(server.baseUrl());
    assertNoKey(failure);
  }

  @ParameterizedTest
  @ValueSource(strings = {"<html>oops</html>", "not json"})
  void should_say_the_answer_was_unreadable_when_the_body_is_no_json(String body) {
    // given
    server.respond(200, body);

    // when
    ModelCallException failure = failure(model(TIMEOUT).chat(simpleRequest()));

    // then
    assertThat(failure.getMessage()).contains("unreadable answer").doesNotContain("did not answer");
  }

  @Test
  void should_fail_retryably_when_the_server_answers_after_the_timeout() {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("too late", 1, 1), Duration.ofSeconds(2));
    OpenAiCompatibleChatModel model = model(Duration.ofMillis(300));

    // when
    long started = System.nanoTime();
    ModelCallException failure = failure(model.chat(simpleRequest()));
    long elapsedMillis = (System.nanoTime() - started) / 1_000_000;

    // then
    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isZero();
    assertThat(failure.getMessage()).contains(model.endpoint());
    assertThat(elapsedMillis).isLessThan(1_900);
    assertNoKey(failure);
  }

  @Test
  void should_fail_retryably_when_the_connection_is_refused() throws IOException {
    // given
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    OpenAiCompatibleChatModel model = new OpenAiCompatibleChatModel("http://127.0.0.1:" + closedPort + "/v1",
        API_KEY, "test-model", TIMEOUT, null, pool);

    // when
    ModelCallException failure = failure(model.chat(simpleRequest()));

    // then
    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isZero();
    assertThat(failure.getMessage()).contains(model.endpoint());
    assertNoKey(failure);
  }

  @Test
  void should_keep_the_api_key_out_of_every_failure_message() throws IOException {
    // given
    OpenAiCompatibleChatModel model = model(TIMEOUT);
    server.respond(400, FakeOpenAiServer.errorBody("bad request", "invalid_request_error", null))
        .respond(401, FakeOpenAiServer.errorBody("Incorrect API key provided.", "invalid_request_error",
            "invalid_api_key"))
        .respond(403, FakeOpenAiServer.errorBody("forbidden", "invalid_request_error", null))
        .respond(429, FakeOpenAiServer.errorBody("slow down", "requests", "rate_limit_exceeded"))
        .respond(500, FakeOpenAiServer.errorBody("boom", "server_error", null))
        .respond(503, "<html>Service Unavailable</html>")
        .respond(200, "<html>oops</html>");
    List<ModelCallException> failures = new ArrayList<>();

    // when
    for (int i = 0; i < 7; i++) {
      failures.add(failure(model.chat(simpleRequest())));
    }

    // then
    assertThat(failures).hasSize(7).allSatisfy(OpenAiCompatibleChatModelTest::assertNoKey);
  }

  @Test
  void should_name_the_endpoint_by_its_base_url_without_the_key() {
    // when
    String endpoint = model(TIMEOUT).endpoint();

    // then
    assertThat(endpoint).contains(server.baseUrl()).doesNotContain(API_KEY);
  }

  // --- helpers ---

  private OpenAiCompatibleChatModel model(Duration timeout) {
    return new OpenAiCompatibleChatModel(server.baseUrl(), API_KEY, "test-model", timeout, null, pool);
  }

  private static ModelRequest simpleRequest() {
    return new ModelRequest(ModelRequest.Purpose.THINK,
        List.of(new ChatMessage.SystemMessage("You are helpful."), new ChatMessage.UserMessage("Hello?")),
        List.of(), runInfo());
  }

  private static ModelRequest.RunInfo runInfo() {
    return new ModelRequest.RunInfo("run-1", "Hello?", 1, 0);
  }

  private static List<String> roles(JsonNode messages) {
    List<String> roles = new ArrayList<>();
    messages.forEach(message -> roles.add(message.path("role").asText()));
    return roles;
  }

  /** The key must not leak through the message of the failure nor of anything it wraps. */
  private static void assertNoKey(ModelCallException failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as("message of %s", t.getClass().getName()).doesNotContain(API_KEY);
    }
    assertThat(failure.toString()).doesNotContain(API_KEY);
  }
}
