package dev.agentloop.internal.llm.openai;

import dev.agentloop.internal.llm.AsyncWire;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.llm.Streaming;
import static dev.agentloop.internal.llm.ModelCalls.PYDANTIC_SCHEMA;
import static dev.agentloop.internal.llm.ModelCalls.failure;
import static dev.agentloop.internal.llm.ModelCalls.json;
import static dev.agentloop.internal.llm.ModelCalls.reply;
import static dev.agentloop.internal.llm.ModelCalls.request;
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
 * What real OpenAI-compatible endpoints send besides the textbook reply: a reply cut at the output
 * limit, arguments as a JSON object, an error inside an HTTP 200, an event stream nobody asked for;
 * and the whole tool schema the model must get.
 */
class OpenAiWireTest {

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

  @Test
  void should_mark_a_reply_with_finish_reason_length_as_cut_and_say_which_limit() {
    // given an answer cut mid-sentence
    String body = FakeOpenAiServer.textCompletion("The answer is 7", 40, 16).replace("\"stop\"", "\"length\"");
    server.respond(200, body);

    // when
    ModelReply reply = reply(model().chat(simple()));

    // then
    assertThat(reply.stop().cut()).isTrue();
    assertThat(reply.stop().value()).isEqualTo("length");
    assertThat(reply.stop().cutMessage()).startsWith("The model's reply hit its output limit (the endpoint's own limit"
        + " per reply, reached at 16 tokens): raise the model's output limit on the endpoint").contains("'length'");
  }

  @Test
  void should_read_finish_reasons_of_complete_replies_as_they_were_sent() {
    // given
    server.respond(200, FakeOpenAiServer.textCompletion("Paris.", 10, 2));
    server.respond(200, FakeOpenAiServer.toolCallCompletion("call_1", "web_search", "{\"q\":\"x\"}", 10, 5));

    // when
    ModelReply text = reply(model().chat(simple()));
    ModelReply call = reply(model().chat(simple()));

    // then
    assertThat(text.stop().cut()).isFalse();
    assertThat(text.stop().value()).isEqualTo("stop");
    assertThat(call.stop().value()).isEqualTo("tool_calls");
  }

  @Test
  void should_accept_arguments_sent_as_a_json_object_instead_of_a_string() {
    // given a server that sends function.arguments as an object
    String body = FakeOpenAiServer.toolCallCompletion("call_1", "web_search", "PLACEHOLDER", 10, 5)
        .replace("\"PLACEHOLDER\"", "{\"query\":\"camunda\",\"limit\":3}");
    server.respond(200, body);

    // when
    ModelReply reply = reply(model().chat(simple()));

    // then the call is read, with the object as its arguments' text
    assertThat(reply.toolCalls()).containsExactly(new ToolCall("call_1", "web_search",
        "{\"query\":\"camunda\",\"limit\":3}"));
  }

  @Test
  void should_quote_the_endpoints_own_message_of_an_error_sent_with_http_200() {
    // given a gateway that reports its upstream's failure in a 200
    server.respond(200, "{\"error\":{\"message\":\"Upstream provider unavailable\",\"code\":502}}");
    // and one that reports a bad request the same way
    server.respond(200, "{\"error\":{\"message\":\"Invalid model 'gpt-9'\",\"code\":400}}");

    // when
    ModelCallException upstream = failure(model().chat(simple()));
    ModelCallException invalid = failure(model().chat(simple()));

    // then
    assertThat(upstream.getMessage()).isEqualTo("model endpoint openai:" + server.baseUrl()
        + " answered HTTP 200 with an error instead of a reply: Upstream provider unavailable");
    assertThat(upstream.isRetryable()).isTrue();
    assertThat(invalid.getMessage()).endsWith(": Invalid model 'gpt-9'");
    assertThat(invalid.isRetryable()).as("the endpoint's own code says a retry will not help").isFalse();
  }

  @Test
  void should_say_in_words_that_the_endpoint_streamed_although_no_stream_was_asked_for() {
    // given a server that streams whatever it is asked
    String stream = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        + "\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\ndata: [DONE]\n\n";
    server.respond(new FakeOpenAiServer.Response(200, stream, Duration.ZERO,
        Map.of("Content-Type", "text/event-stream")));

    // when streams are off (agentloop.llm.stream=false)
    ModelCallException failure = failure(new OpenAiCompatibleChatModel(server.baseUrl(), "sk-test", "test-model",
        Duration.ofSeconds(5), null, pool, AsyncWire.Answers.NONE, LlmSettings.AnswerFormatType.JSON_SCHEMA,
        Streaming.OFF).chat(simple()));

    // then
    assertThat(failure.getMessage()).contains("answered with an event stream (text/event-stream) although the"
        + " request asked for no stream").doesNotContain("Unrecognized token");
    assertThat(failure.isRetryable()).as("asking again gets the same").isFalse();
    assertThat(server.onlyRequest().body().path("stream").asBoolean(false)).isFalse();
  }

  @Test
  void should_send_a_pydantic_style_schema_whole_and_as_the_prompt_view_shows_it() {
    // given
    ToolSpec tool = new ToolSpec("place_order", "Places an order.", json(PYDANTIC_SCHEMA));
    ModelRequest request = request(List.of(tool), new ChatMessage.UserMessage("Order 2 of ABC-1"));
    server.respond(200, FakeOpenAiServer.textCompletion("ok", 1, 1));

    // when
    reply(model().chat(request));

    // then the parameters sent are exactly the prompt view's, with the definitions the references need
    JsonNode sent = server.onlyRequest().body().at("/tools/0/function/parameters");
    assertThat(sent).isEqualTo(PromptJson.tools(request).get(0).get("parameters"));
    assertThat(sent).isEqualTo(json("""
        {"type": "object",
         "properties": {"order": {"$ref": "#/$defs/Order"}, "note": {"$ref": "#/$defs/Note"}},
         "required": ["order"],
         "$defs": {
           "Note": {"type": "string", "maxLength": 200},
           "Order": {"title": "Order", "type": "object",
             "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-\\\\d+$"},
                            "quantity": {"type": "integer", "minimum": 1},
                            "address": {"$ref": "#/$defs/Address"}},
             "required": ["sku", "quantity"]},
           "Address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
        """));
  }

  private OpenAiCompatibleChatModel model() {
    return new OpenAiCompatibleChatModel(server.baseUrl(), "sk-test", "test-model", Duration.ofSeconds(5), null, pool);
  }

  private static ModelRequest simple() {
    return request(List.of(), new ChatMessage.UserMessage("Hello?"));
  }
}
