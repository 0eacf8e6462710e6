package dev.agentloop.internal.llm.anthropic;

import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.error;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.message;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.text;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.thinking;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.toolUse;
import static dev.agentloop.internal.llm.ModelCalls.failure;
import static dev.agentloop.internal.llm.ModelCalls.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.spi.ToolSpec;
import java.io.IOException;
import java.time.Duration;
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

/** The Anthropic adapter against a local server that speaks the Messages API's wire format. */
class AnthropicMessagesChatModelTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String API_KEY = "sk-ant-test-4b3a2c1d-SECRET";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final ToolSpec CALCULATOR = new ToolSpec("calculator", "Evaluates an arithmetic expression.",
      json("{\"type\": \"object\", \"properties\": {\"expression\": {\"type\": \"string\"}},"
          + " \"required\": [\"expression\"], \"additionalProperties\": false}"));

  private FakeAnthropicServer server;
  private ExecutorService pool;

  @BeforeEach
  void start() throws IOException {
    server = new FakeAnthropicServer();
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterEach
  void stop() {
    pool.shutdownNow();
    server.close();
  }

  // --- tool use to a final answer ---

  @Test
  void should_go_from_tool_use_to_a_final_answer_sending_tool_use_and_tool_result_blocks() {
    // given the model asks for the calculator, then answers
    server.respond(200, message("tool_use", 120, 30, text("Let me compute that."),
        toolUse("toolu_01A", "calculator", "{\"expression\": \"17 * 23\"}")));
    server.respond(200, message("end_turn", 160, 8, text("17 * 23 = 391.")));
    AnthropicMessagesChatModel model = model(0);

    // when
    ModelReply first = reply(model.chat(request(List.of(CALCULATOR), new ChatMessage.SystemMessage("Be exact."),
        new ChatMessage.UserMessage("What is 17 * 23?"))));
    ModelReply second = reply(model.chat(request(List.of(CALCULATOR), new ChatMessage.SystemMessage("Be exact."),
        new ChatMessage.UserMessage("What is 17 * 23?"),
        new ChatMessage.AssistantMessage(first.text(), first.toolCalls()),
        new ChatMessage.ToolResultMessage("toolu_01A", "calculator", "391"))));

    // then the first reply is the tool call, the second the answer, both with their tokens
    assertThat(first.toolCalls()).singleElement().satisfies(call -> {
      assertThat(call.id()).isEqualTo("toolu_01A");
      assertThat(call.name()).isEqualTo("calculator");
      assertThat(json(call.arguments())).isEqualTo(json("{\"expression\": \"17 * 23\"}"));
    });
    assertThat(first.text()).isEqualTo("Let me compute that.");
    assertThat(first.tokens()).isEqualTo(150);
    assertThat(first.usage().prompt() + first.usage().completion()).as("input and output apart").isEqualTo(150);
    assertThat(second.text()).isEqualTo("17 * 23 = 391.");
    assertThat(second.toolCalls()).isEmpty();
    assertThat(second.reasoning()).isEmpty();
    assertThat(second.tokens()).isEqualTo(168);

    // and the wire carried the system prompt apart, the tool, the tool_use and its tool_result
    JsonNode body = server.requests().get(1).body();
    assertThat(body.path("model").asText()).isEqualTo("claude-test");
    assertThat(body.path("max_tokens").asInt()).isEqualTo(1024);
    assertThat(body.path("system").toString()).contains("Be exact.");
    assertThat(body.path("tools").get(0).path("name").asText()).isEqualTo("calculator");
    assertThat(body.path("tools").get(0).path("input_schema").path("properties").path("expression").path("type")
        .asText()).isEqualTo("string");
    JsonNode messages = body.path("messages");
    assertThat(roles(messages)).containsExactly("user", "assistant", "user");
    assertThat(messages.get(1).toString()).contains("\"type\":\"tool_use\"", "\"id\":\"toolu_01A\"");
    JsonNode result = messages.get(2).path("content").get(0);
    assertThat(result.path("type").asText()).isEqualTo("tool_result");
    assertThat(result.path("tool_use_id").asText()).isEqualTo("toolu_01A");
    assertThat(result.path("content").toString()).contains("391");
  }

  @Test
  void should_return_parallel_tool_uses_in_order() {
    server.respond(200, message("tool_use", 50, 40,
        toolUse("toolu_1", "calculator", "{\"expression\": \"1 + 1\"}"),
        toolUse("toolu_2", "calculator", "{\"expression\": \"2 + 2\"}")));

    ModelReply reply = reply(model(0).chat(request(List.of(CALCULATOR), new ChatMessage.UserMessage("Both?"))));

    assertThat(reply.toolCalls()).extracting(ToolCall::id).containsExactly("toolu_1", "toolu_2");
    assertThat(reply.text()).isEmpty();
  }

  // --- extended thinking ---

  @Test
  void should_keep_thinking_blocks_as_the_reasoning_and_not_as_the_answer() {
    server.respond(200, message("end_turn", 30, 200, thinking("The user wants 2 + 2. That is 4."), text("4")));

    ModelReply reply = reply(model(2048).chat(request(List.of(), new ChatMessage.UserMessage("2 + 2?"))));

    assertThat(reply.text()).isEqualTo("4");
    assertThat(reply.response()).isEqualTo(new ModelReply.Response("msg_01XFDUDYJgAACzvnptvVoYEL", "claude-sonnet-4-5"));
    assertThat(reply.reasoning()).isEqualTo("The user wants 2 + 2. That is 4.");
    JsonNode thinking = server.requests().get(0).body().path("thinking");
    assertThat(thinking.path("type").asText()).isEqualTo("enabled");
    assertThat(thinking.path("budget_tokens").asInt()).isEqualTo(2048);
  }

  @Test
  void should_send_the_thinking_block_of_a_tool_turn_back_with_its_tool_results() {
    // given thinking on, and a reply that thought, then called a tool
    server.respond(200, message("tool_use", 40, 90, thinking("I should compute 6 * 7."),
        toolUse("toolu_t1", "calculator", "{\"expression\": \"6 * 7\"}")));
    server.respond(200, message("end_turn", 80, 10, text("42")));
    server.respond(200, message("end_turn", 80, 10, text("42 again")));
    AnthropicMessagesChatModel model = model(2048);
    ModelReply first = reply(model.chat(request(List.of(CALCULATOR), new ChatMessage.UserMessage("6 * 7?"))));

    // when the tool result goes back, and later a turn whose thinking the adapter never saw (an edited call)
    reply(model.chat(request(List.of(CALCULATOR), new ChatMessage.UserMessage("6 * 7?"),
        new ChatMessage.AssistantMessage("", first.toolCalls()),
        new ChatMessage.ToolResultMessage("toolu_t1", "calculator", "42"))));
    reply(model.chat(request(List.of(CALCULATOR), new ChatMessage.UserMessage("6 * 7?"),
        new ChatMessage.AssistantMessage("", List.of(new ToolCall("edited_1", "calculator", "{\"expression\": \"6*7\"}"))),
        new ChatMessage.ToolResultMessage("edited_1", "calculator", "42"))));

    // then the thinking block went back with its signature, before the tool_use, thinking still on ...
    assertThat(first.reasoning()).isEqualTo("I should compute 6 * 7.");
    JsonNode second = server.requests().get(1).body();
    JsonNode assistant = second.path("messages").get(1).path("content");
    assertThat(assistant.get(0).path("type").asText()).isEqualTo("thinking");
    assertThat(assistant.get(0).path("thinking").asText()).isEqualTo("I should compute 6 * 7.");
    assertThat(assistant.get(0).path("signature").asText()).isEqualTo("EqQBCkgIARABGAIiQL2Yx9s0eFqv3Q1p5hJ");
    assertThat(assistant.get(1).path("type").asText()).isEqualTo("tool_use");
    assertThat(second.path("thinking").path("type").asText()).isEqualTo("enabled");
    // ... and the turn without its block went without thinking, which Anthropic would refuse otherwise
    JsonNode third = server.requests().get(2).body();
    assertThat(third.has("thinking")).isFalse();
    assertThat(third.path("messages").get(1).toString()).doesNotContain("\"thinking\"");
  }

  @Test
  void should_refuse_a_thinking_budget_that_leaves_no_room_for_the_answer() {
    assertThatThrownBy(() -> new AnthropicMessagesChatModel(server.baseUrl(), API_KEY, "claude-test", TIMEOUT, null,
        1024, 1024, pool)).hasMessage("agentloop.llm.anthropic.thinking-budget-tokens (1024) must be less than"
            + " max-tokens (1024)");
  }

  // --- the request's headers ---

  @Test
  void should_send_the_key_as_x_api_key_with_the_api_version() {
    server.respond(200, message("end_turn", 1, 1, text("hi")));

    reply(model(0).chat(request(List.of(), new ChatMessage.UserMessage("Hello?"))));

    assertThat(server.requests().get(0).apiKey()).isEqualTo(API_KEY);
    assertThat(server.requests().get(0).version()).isEqualTo("2023-06-01");
  }

  // --- failures ---

  @Test
  void should_fail_retryably_on_http_429_rate_limit() {
    server.respond(429, error("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
        Map.of("retry-after", "12"), Duration.ZERO);

    ModelCallException failure = failure(model(0).chat(simple()));

    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isEqualTo(429);
    assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(12));
    assertNoKey(failure);
  }

  @Test
  void should_fail_retryably_on_http_529_overloaded() {
    server.respond(529, error("overloaded_error", "Overloaded"));

    ModelCallException failure = failure(model(0).chat(simple()));

    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isEqualTo(529);
    assertThat(failure.getMessage()).contains("529").contains(server.baseUrl());
  }

  @Test
  void should_fail_retryably_on_http_500() {
    server.respond(500, error("api_error", "Internal server error"));

    ModelCallException failure = failure(model(0).chat(simple()));

    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.httpStatus()).isEqualTo(500);
  }

  @Test
  void should_fail_for_good_on_http_401_and_400() {
    server.respond(401, error("authentication_error", "invalid x-api-key"));
    server.respond(400, error("invalid_request_error", "messages: roles must alternate"));

    ModelCallException unauthorized = failure(model(0).chat(simple()));
    ModelCallException invalid = failure(model(0).chat(simple()));

    assertThat(unauthorized.isRetryable()).isFalse();
    assertThat(unauthorized.httpStatus()).isEqualTo(401);
    assertThat(invalid.isRetryable()).isFalse();
    assertThat(invalid.httpStatus()).isEqualTo(400);
    assertNoKey(unauthorized);
  }

  @ParameterizedTest
  @ValueSource(strings = {"<html><body>502 Bad Gateway</body></html>", "{\"type\": \"message\", \"content\": 42",
      "not json at all"})
  void should_fail_retryably_naming_the_endpoint_when_the_body_is_garbage(String body) {
    server.respond(200, body);

    ModelCallException failure = failure(model(0).chat(simple()));

    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.getMessage()).startsWith("anthropic:" + server.baseUrl());
    assertNoKey(failure);
  }

  @Test
  void should_fail_retryably_when_the_server_answers_after_the_timeout() {
    server.respond(200, message("end_turn", 1, 1, text("late")), Map.of(), Duration.ofSeconds(3));

    ModelCallException failure = failure(new AnthropicMessagesChatModel(server.baseUrl(), API_KEY, "claude-test",
        Duration.ofMillis(300), null, 1024, 0, pool).chat(simple()));

    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.getMessage()).contains("did not answer");
  }

  @Test
  void should_name_the_endpoint_by_its_base_url_without_the_key() {
    assertThat(model(0).endpoint()).isEqualTo("anthropic:" + server.baseUrl()).doesNotContain(API_KEY);
  }

  // --- prompt caching ---

  @Test
  void should_mark_the_system_prompt_the_end_of_the_stable_prefix_and_the_last_message_for_caching() {
    // given a prompt whose first three messages the next turn sends again: instructions, question, digest
    server.respond(200, message("end_turn", 900, 5, text("4711")));
    server.respond(200, message("end_turn", 20, 2, text("Hi.")));
    AnthropicMessagesChatModel model = model(0);
    List<ChatMessage> messages = List.of(new ChatMessage.SystemMessage("Be exact."),
        new ChatMessage.UserMessage("Which code opens the vault?"),
        new ChatMessage.UserMessage("[AgentLoop] Digest of steps 2-40: ..."),
        new ChatMessage.AssistantMessage("Page 41.", List.of(new ToolCall("toolu_41", "calculator", "{}"))),
        new ChatMessage.ToolResultMessage("toolu_41", "calculator", "Archive page 41."));

    // when
    reply(model.chat(new ModelRequest(ModelRequest.Purpose.THINK, messages, List.of(CALCULATOR),
        new ModelRequest.RunInfo("run-1", "Which code opens the vault?", 41, 0), 3)));
    reply(model.chat(simple()));

    // then three breakpoints of the four Anthropic allows: system (after the tools), digest, newest result
    JsonNode body = server.requests().get(0).body();
    JsonNode system = body.path("system");
    assertThat(system.get(system.size() - 1).at("/cache_control/type").asText()).isEqualTo("ephemeral");
    List<String> marked = new ArrayList<>();
    body.path("messages").forEach(message -> message.path("content").forEach(block -> {
      if (block.has("cache_control")) {
        assertThat(block.at("/cache_control/type").asText()).isEqualTo("ephemeral");
        marked.add(block.has("text") ? block.get("text").asText() : block.path("type").asText() + " "
            + block.path("tool_use_id").asText());
      }
    }));
    assertThat(marked).containsExactly("[AgentLoop] Digest of steps 2-40: ...", "tool_result toolu_41");
    assertThat(body.findValues("cache_control")).hasSize(3);
    assertThat(body.path("tools").findValues("cache_control")).as("the system block ends the tools' prefix").isEmpty();
    // and a request that knows no stable prefix marks only its system prompt, if it has one
    assertThat(server.requests().get(1).body().findValues("cache_control")).isEmpty();
  }

  // --- helpers ---

  private AnthropicMessagesChatModel model(int thinkingBudget) {
    return new AnthropicMessagesChatModel(server.baseUrl(), API_KEY, "claude-test", TIMEOUT, null,
        thinkingBudget > 0 ? thinkingBudget + 1024 : 1024, thinkingBudget, pool);
  }

  private static ModelRequest simple() {
    return request(List.of(), new ChatMessage.UserMessage("Hello?"));
  }

  private static ModelRequest request(List<ToolSpec> tools, ChatMessage... messages) {
    return new ModelRequest(ModelRequest.Purpose.THINK, List.of(messages), tools,
        new ModelRequest.RunInfo("run-1", "Hello?", 1, 0));
  }

  private static List<String> roles(JsonNode messages) {
    List<String> roles = new ArrayList<>();
    messages.forEach(message -> roles.add(message.path("role").asText()));
    return roles;
  }

  private static void assertNoKey(ModelCallException failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as("message of %s", t.getClass().getName()).doesNotContain(API_KEY);
    }
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
