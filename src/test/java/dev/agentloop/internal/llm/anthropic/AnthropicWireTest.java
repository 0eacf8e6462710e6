package dev.agentloop.internal.llm.anthropic;

import static dev.agentloop.internal.llm.ModelCalls.PYDANTIC_SCHEMA;
import static dev.agentloop.internal.llm.ModelCalls.failure;
import static dev.agentloop.internal.llm.ModelCalls.json;
import static dev.agentloop.internal.llm.ModelCalls.reply;
import static dev.agentloop.internal.llm.ModelCalls.request;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.error;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.message;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.text;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.thinking;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.toolUse;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.llm.PromptJson;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.spi.ToolSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Anthropic's wire beyond the textbook reply: {@code stop_reason: max_tokens}, error bodies turned into
 * their message, an edited call with thinking on, and the whole tool schema.
 */
class AnthropicWireTest {

  private static final ToolSpec CALCULATOR = new ToolSpec("calculator", "Evaluates an expression.",
      json("{\"type\": \"object\", \"properties\": {\"expression\": {\"type\": \"string\"}}}"));

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

  @Test
  void should_mark_a_reply_stopped_at_max_tokens_as_cut_naming_the_limit_and_its_setting() {
    // given a tool_use cut in the middle of its input, as Anthropic ends it at max_tokens
    server.respond(200, message("max_tokens", 50, 1024, text("Let me compute"),
        toolUse("toolu_1", "calculator", "{\"expression\": \"17 *\"}")));

    // when
    ModelReply reply = reply(model(0).chat(request(List.of(CALCULATOR), new ChatMessage.UserMessage("17 * 23?"))));

    // then
    assertThat(reply.stop().cut()).isTrue();
    assertThat(reply.stop().value()).isEqualTo("max_tokens");
    assertThat(reply.stop().cutMessage()).startsWith("The model's reply hit its output limit (max tokens 1024): raise"
        + " agentloop.llm.anthropic.max-tokens, or ask for shorter replies in the agent's systemPrompt.");
  }

  @Test
  void should_read_the_stop_reason_of_a_complete_reply_as_sent() {
    server.respond(200, message("end_turn", 5, 3, text("4")));

    ModelReply reply = reply(model(0).chat(request(List.of(), new ChatMessage.UserMessage("2 + 2?"))));

    assertThat(reply.stop().cut()).isFalse();
    assertThat(reply.stop().value()).isEqualTo("end_turn");
  }

  @Test
  void should_report_an_error_body_as_its_type_and_message_never_as_raw_json() {
    // given
    server.respond(400, error("invalid_request_error", "messages.1.content.0.type: Expected `thinking`"));
    server.respond(529, error("overloaded_error", "Overloaded"), Map.of(), Duration.ZERO);

    // when
    ModelCallException invalid = failure(model(0).chat(request(List.of(), new ChatMessage.UserMessage("q"))));
    ModelCallException overloaded = failure(model(0).chat(request(List.of(), new ChatMessage.UserMessage("q"))));

    // then
    assertThat(invalid.getMessage()).isEqualTo("anthropic:" + server.baseUrl() + " answered HTTP 400"
        + " (invalid_request_error): messages.1.content.0.type: Expected `thinking`");
    assertThat(invalid.isRetryable()).isFalse();
    assertThat(overloaded.getMessage()).endsWith("answered HTTP 529 (overloaded_error): Overloaded")
        .doesNotContain("{");
    assertThat(overloaded.isRetryable()).isTrue();
  }

  @Test
  void should_send_an_edited_call_without_the_signed_thinking_that_led_to_the_original() {
    // given thinking on, and a reply that thought, then called the calculator
    server.respond(200, message("tool_use", 40, 90, thinking("I should compute 6 * 7."),
        toolUse("toolu_01", "calculator", "{\"expression\": \"6 * 7\"}")));
    server.respond(200, message("end_turn", 60, 10, text("42")));
    server.respond(200, message("end_turn", 60, 10, text("48")));
    AnthropicMessagesChatModel model = model(1024);
    ModelReply first = reply(model.chat(request(List.of(CALCULATOR), new ChatMessage.UserMessage("6 * 7?"))));

    // when the call goes back as the model made it (spaced differently, as the trace writes it) ...
    reply(model.chat(afterCall(json(first.toolCalls().get(0).arguments()).toPrettyString(), "42")));
    // ... and as a person edited it, under the same call id
    reply(model.chat(afterCall("{\"expression\": \"6 * 8\"}", "48")));

    // then the unchanged call went with its signed thinking, thinking on
    JsonNode unchanged = server.requests().get(1).body();
    assertThat(unchanged.at("/messages/1/content/0/type").asText()).isEqualTo("thinking");
    assertThat(unchanged.at("/messages/1/content/0/signature").asText()).isNotEmpty();
    assertThat(unchanged.at("/thinking/type").asText()).isEqualTo("enabled");
    // and the edited one without it, and so with thinking off for that request (Anthropic refuses a tool turn
    // without its thinking block while thinking is on)
    JsonNode edited = server.requests().get(2).body();
    assertThat(edited.path("messages").toString()).doesNotContain("\"thinking\"", "signature");
    assertThat(edited.has("thinking")).isFalse();
    assertThat(edited.at("/messages/1/content/0/input/expression").asText()).isEqualTo("6 * 8");
  }

  @Test
  void should_send_a_pydantic_style_schema_whole_and_as_the_prompt_view_shows_it() {
    // given
    ToolSpec tool = new ToolSpec("place_order", "Places an order.", json(PYDANTIC_SCHEMA));
    ModelRequest request = request(List.of(tool), new ChatMessage.UserMessage("Order 2 of ABC-1"));
    server.respond(200, message("end_turn", 5, 1, text("ok")));

    // when
    reply(model(0).chat(request));

    // then
    JsonNode sent = server.requests().get(0).body().at("/tools/0/input_schema");
    assertThat(sent).isEqualTo(PromptJson.tools(request).get(0).get("parameters"));
    assertThat(sent.at("/properties/order/$ref").asText()).isEqualTo("#/$defs/Order");
    assertThat(sent.at("/properties/note/$ref").asText()).isEqualTo("#/$defs/Note");
    assertThat(sent.at("/$defs/Order/properties/address/$ref").asText()).isEqualTo("#/$defs/Address");
    assertThat(sent.at("/$defs/Address/required/0").asText()).isEqualTo("city");
    assertThat(sent.at("/$defs/Note/maxLength").asInt()).isEqualTo(200);
  }

  private static ModelRequest afterCall(String arguments, String result) {
    return request(List.of(CALCULATOR), new ChatMessage.UserMessage("6 * 7?"),
        new ChatMessage.AssistantMessage("", List.of(new ToolCall("toolu_01", "calculator", arguments))),
        new ChatMessage.ToolResultMessage("toolu_01", "calculator", result));
  }

  private AnthropicMessagesChatModel model(int thinkingBudget) {
    return new AnthropicMessagesChatModel(server.baseUrl(), "sk-ant-test", "claude-test", Duration.ofSeconds(5), null,
        thinkingBudget > 0 ? thinkingBudget + 1024 : 1024, thinkingBudget, pool);
  }
}
