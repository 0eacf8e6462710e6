package dev.agentloop.internal.llm.openai;

import static dev.agentloop.internal.llm.ModelCalls.reply;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.definition.AnswerSchema;
import dev.agentloop.internal.llm.AnswerSchemaRuns;
import dev.agentloop.internal.llm.LlmSettings.AnswerFormatType;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How an answer schema goes over the OpenAI wire by the schema and the setting: strict only where the schema keeps
 * strict mode's rules, {@code json_object} where the application chose it, and no format at all without a schema.
 */
class OpenAiAnswerFormatTest {

  private FakeOpenAiServer server;
  private ExecutorService pool;

  @BeforeEach
  void start() throws IOException {
    server = new FakeOpenAiServer();
    pool = Executors.newFixedThreadPool(2);
    server.respond(200, FakeOpenAiServer.textCompletion(AnswerSchemaRuns.VALID, 10, 10));
  }

  @AfterEach
  void stop() {
    pool.shutdownNow();
    server.close();
  }

  @Test
  void should_send_a_schema_that_breaks_strict_modes_rules_without_strict() {
    // given a schema with an optional field and no additionalProperties: strict mode would refuse it
    String loose = "{\"type\": \"object\", \"properties\": {\"category\": {\"type\": \"string\"},"
        + " \"note\": {\"type\": \"string\", \"maxLength\": 200}}, \"required\": [\"category\"]}";

    // when
    reply(model(AnswerFormatType.JSON_SCHEMA).chat(request(loose)));

    // then
    JsonNode format = server.onlyRequest().body().path("response_format");
    assertThat(format.path("type").asText()).isEqualTo("json_schema");
    assertThat(format.at("/json_schema/strict").asBoolean()).isFalse();
    assertThat(format.at("/json_schema/schema/properties/note/maxLength").asInt()).isEqualTo(200);
  }

  @Test
  void should_ask_for_a_json_object_where_the_application_chose_json_object() {
    // when
    reply(model(AnswerFormatType.JSON_OBJECT).chat(request(AnswerSchemaRuns.SCHEMA)));

    // then the endpoint is asked for JSON of any shape; the schema is in the instructions the agent sends
    assertThat(server.onlyRequest().body().path("response_format").toString()).isEqualTo("{\"type\":\"json_object\"}");
  }

  @Test
  void should_send_no_response_format_for_an_answer_in_text() {
    // when
    reply(model(AnswerFormatType.JSON_SCHEMA).chat(new ModelRequest(ModelRequest.Purpose.THINK,
        List.of(new ChatMessage.UserMessage("Hello?")), List.of(), new ModelRequest.RunInfo("run-1", "Hello?", 1, 0))));

    // then
    assertThat(server.onlyRequest().body().has("response_format")).isFalse();
  }

  private OpenAiCompatibleChatModel model(AnswerFormatType type) {
    return new OpenAiCompatibleChatModel(server.baseUrl(), "sk-test", "gpt-test", Duration.ofSeconds(10), null, pool,
        dev.agentloop.internal.llm.AsyncWire.Answers.NONE, type);
  }

  private static ModelRequest request(String schema) {
    return new ModelRequest(ModelRequest.Purpose.THINK, List.of(new ChatMessage.UserMessage("Triage this.")),
        List.of(), new ModelRequest.RunInfo("run-1", "Triage this.", 1, 0), 0, AnswerSchema.parse(schema).format());
  }
}
