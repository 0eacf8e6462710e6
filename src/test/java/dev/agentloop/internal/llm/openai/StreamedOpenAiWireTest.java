package dev.agentloop.internal.llm.openai;

import static dev.agentloop.internal.llm.ModelCalls.failure;
import static dev.agentloop.internal.llm.ModelCalls.reply;
import static dev.agentloop.internal.llm.ModelCalls.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.llm.AsyncWire;
import dev.agentloop.internal.llm.FakeModelServer;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.llm.ModelCalls;
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
 * The OpenAI-compatible wire with {@code stream: true} against the local fake, which streams as OpenAI does: a
 * streamed reply is exactly the unstreamed one, its text arrives in pieces before it; and the unkind streams — cut,
 * ended early, an error in a data line, a proxy's page, junk, usage in every chunk.
 */
class StreamedOpenAiWireTest {

  private static final String DELTA = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\","
      + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"},\"finish_reason\":null}]}\n\n";
  private static final String FINISH = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\","
      + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";

  private FakeOpenAiServer server;
  private ExecutorService pool;
  private final RecordedText text = new RecordedText();

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

  static List<String> replies() {
    ObjectNode twoCalls = (ObjectNode) ModelCalls.json(FakeOpenAiServer.toolCallCompletion("call_1", "web_search",
        "{\"query\":\"camunda 7 end of life\",\"limit\":3}", 30, 12));
    ArrayNode calls = (ArrayNode) twoCalls.at("/choices/0/message/tool_calls");
    calls.addObject().put("id", "call_2").put("type", "function").putObject("function").put("name", "calculator")
        .put("arguments", "{\"expression\":\"17*23\"}");
    return List.of(
        FakeOpenAiServer.textCompletion("The answer is 391, as 17 times 23 makes.", 40, 16),
        FakeOpenAiServer.textCompletion("Cached: 391.", 1200, 8, 1024),
        twoCalls.toString(),
        FakeOpenAiServer.textCompletion("The answer is 7", 40, 16).replace("\"stop\"", "\"length\""),
        FakeOpenAiServer.textCompletion("", 40, 0).replace("\"stop\"", "\"content_filter\""),
        FakeOpenAiServer.textCompletion("<think>17 times 23: 340 and 51</think>\n\n391", 40, 30),
        FakeOpenAiServer.textCompletion("391", 40, 30).replace("\"content\":\"391\"",
            "\"content\":\"391\",\"reasoning_content\":\"Multiply the tens, then the ones.\""),
        FakeOpenAiServer.textCompletion("", 40, 5).replace("\"refusal\":null", "\"refusal\":\"I can't help with that.\""));
  }

  @ParameterizedTest
  @MethodSource("replies")
  void should_put_a_streamed_reply_together_exactly_as_the_unstreamed_one(String body) {
    // given the same body, once as one JSON body and once streamed chunk by chunk
    server.respond(200, body);
    ModelReply whole = reply(model(Streaming.OFF).chat(simple()));
    server.respond(200, body);

    // when
    ModelReply streamed = reply(model(Streaming.to(text)).chat(simple()));

    // then the loop gets the same reply, and its text arrived before it, in pieces, reasoning held back
    assertThat(streamed).isEqualTo(whole);
    assertThat(server.requests().get(1).body().path("stream").asBoolean()).isTrue();
    assertThat(server.requests().get(1).body().at("/stream_options/include_usage").asBoolean()).isTrue();
    assertThat(server.requests().get(0).body().has("stream_options")).isFalse();
    if (!whole.text().isEmpty() && whole.stop().value().equals("stop") && !body.contains("refusal\":\"")) {
      assertThat(text.joined()).isEqualTo(whole.text());
      if (!body.contains("<think>")) {
        assertThat(text.pieces()).hasSize((whole.text().length() + 2) / 3);
      }
    }
    assertThat(text.joined()).doesNotContain("340 and 51", "Multiply");
    assertThat(text.dropped()).isEmpty();
  }

  @Test
  void should_join_each_tool_calls_arguments_from_its_fragments_by_index() {
    // given two calls whose fragments interleave, the second's id and name arriving before the first's arguments end
    String chunk = "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[%s]},"
        + "\"finish_reason\":null}]}\n\n";
    server.respond(200, chunk.formatted("{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":"
        + "{\"name\":\"web_search\",\"arguments\":\"{\\\"qu\"}}")
        + chunk.formatted("{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"calculator\","
        + "\"arguments\":\"\"}}")
        + chunk.formatted("{\"index\":0,\"function\":{\"arguments\":\"ery\\\":\\\"spi\"}}")
        + chunk.formatted("{\"index\":1,\"function\":{\"arguments\":\"{\\\"expression\\\":\\\"8\\\"}\"}}")
        + chunk.formatted("{\"index\":0,\"function\":{\"arguments\":\"ders\\\"}\"}}")
        + FINISH.replace("\"stop\"", "\"tool_calls\"") + "data: [DONE]\n\n");

    // when
    ModelReply reply = reply(model(Streaming.to(text)).chat(simple()));

    // then
    assertThat(reply.toolCalls()).containsExactly(new ToolCall("call_a", "web_search", "{\"query\":\"spiders\"}"),
        new ToolCall("call_b", "calculator", "{\"expression\":\"8\"}"));
    assertThat(reply.stop().value()).isEqualTo("tool_calls");
    assertThat(text.pieces()).isEmpty();
  }

  @Test
  void should_count_usage_once_when_every_chunk_carries_running_totals() {
    // given a server that sends the usage so far with every chunk (as vLLM's continuous usage stats do)
    server.respond(200, withUsage(DELTA.formatted("Hel"), 1) + withUsage(DELTA.formatted("lo"), 2)
        + withUsage(FINISH, 3) + "data: [DONE]\n\n");

    // when
    ModelReply reply = reply(model(Streaming.to(text)).chat(simple()));

    // then the last totals count, once
    assertThat(reply.text()).isEqualTo("Hello");
    assertThat(reply.usage().prompt()).isEqualTo(40);
    assertThat(reply.usage().completion()).isEqualTo(3);
    assertThat(reply.usage().total()).isEqualTo(43);
  }

  @Test
  void should_fail_retryably_and_drop_the_text_when_the_connection_closes_midway() {
    // given a streamed reply whose connection closes halfway
    server.respond(new FakeOpenAiServer.Response(200, FakeOpenAiServer.textCompletion(
        "A long answer that never arrives whole, because the connection is closed in its middle.", 40, 30),
        Duration.ZERO, Map.of(FakeModelServer.CUT, "yes")));

    // when
    ModelCallException failure = failure(model(Streaming.to(text)).chat(simple()));

    // then it is a provider error a retry may mend, and the text that came is dropped, never an answer
    assertThat(failure.isRetryable()).isTrue();
    assertThat(text.pieces()).isNotEmpty();
    assertThat(text.dropped()).hasSize(1);
  }

  @Test
  void should_fail_retryably_when_the_stream_ends_before_done() {
    // given a stream that ends cleanly, but with no finish and no [DONE]
    server.respond(200, DELTA.formatted("The answer") + DELTA.formatted(" is"));

    // when
    ModelCallException failure = failure(model(Streaming.to(text)).chat(simple()));

    // then
    assertThat(failure.getMessage()).contains("event stream ended before its end ([DONE])");
    assertThat(failure.isRetryable()).isTrue();
    assertThat(text.joined()).isEqualTo("The answer is");
    assertThat(text.dropped()).hasSize(1);
  }

  @Test
  void should_read_an_error_object_in_a_data_line_as_the_endpoints_error() {
    // given a stream that breaks off with an error object, as OpenAI sends one mid-stream
    server.respond(200, DELTA.formatted("The ans") + "data: {\"error\":{\"message\":\"The server had an error while"
        + " processing your request.\",\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n");

    // when
    ModelCallException failure = failure(model(Streaming.to(text)).chat(simple()));

    // then
    assertThat(failure.getMessage()).contains("The server had an error while processing your request")
        .doesNotContain("{\"error\"");
    assertThat(failure.isRetryable()).isTrue();
    assertThat(text.dropped()).hasSize(1);
  }

  @Test
  void should_say_a_proxys_page_with_200_is_no_reply() {
    // given a proxy's sign-in page where the stream belongs
    server.respond(200, "<!DOCTYPE html><html><head><title>Sign in to the proxy</title></head><body>...</body></html>");

    // when
    ModelCallException failure = failure(model(Streaming.to(text)).chat(simple()));

    // then
    assertThat(failure.getMessage()).contains("HTML page", "Sign in to the proxy");
    assertThat(failure.isRetryable()).isFalse();
    assertThat(text.pieces()).isEmpty();
    assertThat(text.dropped()).isEmpty();
  }

  @Test
  void should_skip_comments_and_lines_that_are_no_fields_and_refuse_data_that_is_no_json() {
    // given a stream with comments, unknown fields, lines with no colon and CRLF line ends
    server.respond(200, ": keep-alive\r\nretry: 100\r\nid: 7\r\nsome junk a proxy wrote\r\n\r\n"
        + DELTA.formatted("Hel").replace("\n\n", "\r\n\r\n") + ": still here\n\n" + DELTA.formatted("lo")
        + FINISH + "data: [DONE]\n\n");
    // and one whose data is no JSON
    server.respond(200, DELTA.formatted("Hel") + "data: <html>gateway timeout</html>\n\n" + FINISH
        + "data: [DONE]\n\n");

    // when
    ModelReply reply = reply(model(Streaming.to(text)).chat(simple()));
    ModelCallException failure = failure(model(Streaming.to(text)).chat(simple()));

    // then the first is read, the second said in words
    assertThat(reply.text()).isEqualTo("Hello");
    assertThat(failure.getMessage()).contains("no JSON object", "gateway timeout");
    assertThat(failure.isRetryable()).isTrue();
    assertThat(text.dropped()).hasSize(1);
  }

  @Test
  void should_read_one_json_body_where_the_endpoint_ignores_the_ask_for_a_stream() {
    // given an endpoint that answers a streamed request with one JSON body anyway
    server.respond(new FakeOpenAiServer.Response(200, FakeOpenAiServer.textCompletion("391", 10, 2), Duration.ZERO,
        Map.of("Content-Type", "application/json")));

    // when
    ModelReply reply = reply(model(Streaming.to(text)).chat(simple()));

    // then it is read as the one reply it is; no text went ahead of it
    assertThat(reply.text()).isEqualTo("391");
    assertThat(reply.usage().total()).isEqualTo(12);
    assertThat(text.pieces()).isEmpty();
  }

  private static String withUsage(String chunk, int completionTokens) {
    return chunk.replace("]}\n", "],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":" + completionTokens
        + ",\"total_tokens\":" + (40 + completionTokens) + "}}\n");
  }

  private OpenAiCompatibleChatModel model(Streaming streaming) {
    return new OpenAiCompatibleChatModel(server.baseUrl(), "sk-test", "test-model", Duration.ofSeconds(5), null, pool,
        AsyncWire.Answers.NONE, LlmSettings.AnswerFormatType.JSON_SCHEMA, streaming);
  }

  private static ModelRequest simple() {
    return request(List.of(), new ChatMessage.UserMessage("Hello?"));
  }
}
