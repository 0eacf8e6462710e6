package dev.agentloop.llm.openai;

import static dev.agentloop.llm.ModelCalls.PYDANTIC_SCHEMA;
import static dev.agentloop.llm.ModelCalls.json;
import static dev.agentloop.llm.ModelCalls.reply;
import static dev.agentloop.llm.ModelCalls.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.llm.ChatMessage;
import dev.agentloop.llm.ModelReply;
import dev.agentloop.llm.ModelRequest;
import dev.agentloop.llm.PromptJson;
import dev.agentloop.llm.ToolSpec;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code provider: langchain4j}: what AgentLoop hands the application's own LangChain4j model and reads
 * from it; the stop reason is LangChain4j's {@link FinishReason}, the schema its request types.
 */
class LangChain4jPathTest {

  private final ExecutorService pool = Executors.newSingleThreadExecutor();
  private final AtomicReference<ChatRequest> received = new AtomicReference<>();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void should_mark_a_reply_that_finished_for_length_as_cut_naming_the_applications_setting() {
    // when
    ModelReply reply = reply(model(FinishReason.LENGTH).chat(request(List.of(), new ChatMessage.UserMessage("q"))));

    // then
    assertThat(reply.stop().cut()).isTrue();
    assertThat(reply.stop().value()).isEqualTo("length");
    assertThat(reply.stop().cutMessage()).contains("raise the maxTokens of the application's LangChain4j ChatModel bean");
  }

  @Test
  void should_read_other_finish_reasons_as_complete() {
    ModelReply reply = reply(model(FinishReason.STOP).chat(request(List.of(), new ChatMessage.UserMessage("q"))));

    assertThat(reply.stop().cut()).isFalse();
    assertThat(reply.stop().value()).isEqualTo("stop");
  }

  @Test
  void should_hand_the_application_model_the_whole_schema_that_the_prompt_view_shows() {
    // given
    ModelRequest request = request(List.of(new ToolSpec("place_order", "Places an order.", json(PYDANTIC_SCHEMA))),
        new ChatMessage.UserMessage("Order 2 of ABC-1"));

    // when
    reply(model(FinishReason.STOP).chat(request));

    // then every property and definition arrives whole, as the prompt view shows it
    JsonNode shown = PromptJson.tools(request).get(0).get("parameters");
    JsonObjectSchema sent = received.get().toolSpecifications().get(0).parameters();
    assertThat(raw(sent.properties())).isEqualTo(Map.of("order", shown.at("/properties/order"),
        "note", shown.at("/properties/note")));
    assertThat(raw(sent.definitions())).isEqualTo(Map.of("Order", shown.at("/$defs/Order"),
        "Address", shown.at("/$defs/Address"), "Note", shown.at("/$defs/Note")));
    assertThat(sent.required()).containsExactly("order");
  }

  private static Map<String, JsonNode> raw(Map<String, JsonSchemaElement> schemas) {
    return schemas.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
        e -> json(((JsonRawSchema) e.getValue()).schema())));
  }

  private ApplicationChatModel model(FinishReason finish) {
    dev.langchain4j.model.chat.ChatModel application = new dev.langchain4j.model.chat.ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        received.set(request);
        return ChatResponse.builder().aiMessage(AiMessage.from("The answer is")).finishReason(finish).build();
      }
    };
    return new ApplicationChatModel(application, pool);
  }
}
