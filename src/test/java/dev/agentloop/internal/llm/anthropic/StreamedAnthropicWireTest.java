package dev.agentloop.internal.llm.anthropic;

import static dev.agentloop.internal.llm.ModelCalls.failure;
import static dev.agentloop.internal.llm.ModelCalls.json;
import static dev.agentloop.internal.llm.ModelCalls.reply;
import static dev.agentloop.internal.llm.ModelCalls.request;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.message;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.text;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.thinking;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.toolUse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.internal.llm.FakeModelServer;
import dev.agentloop.internal.llm.RecordedText;
import dev.agentloop.internal.llm.Streaming;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolCall;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Anthropic's Messages wire with {@code stream: true} against the local fake, which streams as Anthropic does: a
 * streamed reply is exactly the unstreamed one (thinking and its signature, a tool call's input in many fragments,
 * the stop reasons, cached tokens), its text arrives in pieces before it; and the unkind streams — an
 * {@code overloaded_error} event midway, a cut connection, a stream that ends before {@code message_stop}.
 */
class StreamedAnthropicWireTest {

  private static final String START = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":"
      + "\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],"
      + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n"
      + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
      + "{\"type\":\"text\",\"text\":\"\"}}\n\n";
  private static final String TEXT = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
      + "\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"%s\"}}\n\n";

  private FakeAnthropicServer server;
  private ExecutorService pool;
  private final RecordedText text = new RecordedText();

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

  static List<String> replies() {
    return List.of(
        message("end_turn", 30, 12, text("The answer is 391, as 17 times 23 makes.")),
        message("end_turn", 30, 12, 2048, 512, text("Cached: 391.")),
        message("tool_use", 40, 90, text("Let me look that up."),
            toolUse("toolu_1", "web_search", "{\"query\":\"camunda 7 end of life\",\"filters\":{\"limit\":3,"
                + "\"sites\":[\"camunda.com\",\"forum.camunda.io\"]}}"),
            toolUse("toolu_2", "calculator", "{}")),
        message("max_tokens", 30, 1024, text("The answer is 7 and")),
        message("refusal", 30, 3, text("")),
        message("pause_turn", 30, 40, text("Searching further")));
  }

  @ParameterizedTest
  @MethodSource("replies")
  void should_put_a_streamed_reply_together_exactly_as_the_unstreamed_one(String body) {
    // given the same body, once whole and once streamed event by event
    server.respond(200, body);
    ModelReply whole = reply(model(0, Streaming.OFF).chat(simple()));
    server.respond(200, body);

    // when
    ModelReply streamed = reply(model(0, Streaming.to(text)).chat(simple()));

    // then
    assertThat(streamed).isEqualTo(whole);
    assertThat(server.requests().get(1).body().path("stream").asBoolean()).isTrue();
    assertThat(text.joined()).isEqualTo(whole.text());
    assertThat(text.dropped()).isEmpty();
  }

  @Test
  void should_keep_streamed_thinking_as_the_reasoning_and_send_its_signature_back() {
    // given thinking on, and a streamed reply that thought, then called a tool
    server.respond(200, message("tool_use", 40, 90, thinking("I should compute 6 * 7 with the calculator."),
        toolUse("toolu_1", "calculator", "{\"expression\":\"6*7\"}")));
    server.respond(200, message("end_turn", 60, 5, text("42")));
    AnthropicMessagesChatModel model = model(2048, Streaming.to(text));

    // when
    ModelReply call = reply(model.chat(simple()));
    ModelReply answer = reply(model.chat(request(List.of(), new ChatMessage.UserMessage("Hello?"),
        new ChatMessage.AssistantMessage("", call.toolCalls()),
        new ChatMessage.ToolResultMessage("toolu_1", "calculator", "42"))));

    // then the thinking is the reasoning, never text; and it went back whole, signature and all
    assertThat(call.reasoning()).isEqualTo("I should compute 6 * 7 with the calculator.");
    assertThat(call.toolCalls()).extracting(ToolCall::id, ToolCall::name).containsExactly(
        org.assertj.core.groups.Tuple.tuple("toolu_1", "calculator"));
    assertThat(json(call.toolCalls().get(0).arguments())).isEqualTo(json("{\"expression\":\"6*7\"}"));
    assertThat(answer.text()).isEqualTo("42");
    assertThat(text.joined()).isEqualTo("42");
    assertThat(server.requests().get(1).body().toString()).contains("I should compute 6 * 7 with the calculator.",
        "EqQBCkgIARABGAIiQL2Yx9s0eFqv3Q1p5hJ");
  }

  @Test
  void should_fail_retryably_and_drop_the_text_on_an_overloaded_error_midway() {
    // given a stream that breaks off with Anthropic's error event
    server.respond(200, START + TEXT.formatted("The ans") + "event: error\ndata: {\"type\":\"error\",\"error\":"
        + "{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n");

    // when
    ModelCallException failure = failure(model(0, Streaming.to(text)).chat(simple()));

    // then
    assertThat(failure.getMessage()).contains("overloaded_error", "Overloaded");
    assertThat(failure.isRetryable()).isTrue();
    assertThat(text.joined()).isEqualTo("The ans");
    assertThat(text.dropped()).hasSize(1);
  }

  @Test
  void should_fail_retryably_and_drop_the_text_when_the_connection_closes_midway() {
    server.respond(200, message("end_turn", 30, 40, text("A long answer that never arrives whole, because the"
        + " connection is closed in its middle.")), Map.of(FakeModelServer.CUT, "yes"), Duration.ZERO);

    ModelCallException failure = failure(model(0, Streaming.to(text)).chat(simple()));

    assertThat(failure.isRetryable()).isTrue();
    assertThat(text.pieces()).isNotEmpty();
    assertThat(text.dropped()).hasSize(1);
  }

  @Test
  void should_fail_retryably_when_the_stream_ends_before_message_stop_and_count_usage_once() {
    // given a stream that ends after its message_delta, with no message_stop
    String delta = "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
        + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":%d}}\n\n";
    server.respond(200, START + TEXT.formatted("Hello") + "event: ping\ndata: {\"type\":\"ping\"}\n\n"
        + delta.formatted(3));
    // and a whole one whose message_delta comes twice with running totals
    server.respond(200, START + TEXT.formatted("Hello") + delta.formatted(2) + delta.formatted(3)
        + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");

    // when
    ModelCallException failure = failure(model(0, Streaming.to(text)).chat(simple()));
    ModelReply reply = reply(model(0, Streaming.to(text)).chat(simple()));

    // then
    assertThat(failure.getMessage()).contains("ended before its end (message_stop)");
    assertThat(failure.isRetryable()).isTrue();
    assertThat(text.dropped()).hasSize(1);
    assertThat(reply.text()).isEqualTo("Hello");
    assertThat(reply.usage().prompt()).isEqualTo(25);
    assertThat(reply.usage().completion()).isEqualTo(3);
  }

  private AnthropicMessagesChatModel model(int thinkingBudget, Streaming streaming) {
    return new AnthropicMessagesChatModel(server.baseUrl(), "sk-ant-test", "claude-test", Duration.ofSeconds(5), null,
        4096, thinkingBudget, pool, (status, headers) -> { }, streaming);
  }

  private static ModelRequest simple() {
    return request(List.of(), new ChatMessage.UserMessage("Hello?"));
  }
}
