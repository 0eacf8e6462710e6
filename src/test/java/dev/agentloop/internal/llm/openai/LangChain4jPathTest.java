package dev.agentloop.internal.llm.openai;

import dev.agentloop.internal.agent.definition.AnswerSchema;
import dev.agentloop.internal.llm.AnswerSchemaRuns;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.spi.AnswerFormat;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import java.util.concurrent.atomic.AtomicInteger;
import static dev.agentloop.internal.llm.ModelCalls.PYDANTIC_SCHEMA;
import static dev.agentloop.internal.llm.ModelCalls.json;
import static dev.agentloop.internal.llm.ModelCalls.reply;
import static dev.agentloop.internal.llm.ModelCalls.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.llm.PromptJson;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.TokenCounts;
import dev.agentloop.spi.ToolSpec;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
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

  @Test
  void should_read_cached_tokens_from_openai_usage_as_part_of_the_prompt_and_name_the_model_the_reply_names() {
    // given an application model on OpenAI whose usage says 1,024 of 1,204 prompt tokens came from the cache
    OpenAiTokenUsage usage = OpenAiTokenUsage.builder().inputTokenCount(1204).outputTokenCount(20).totalTokenCount(1224)
        .inputTokensDetails(OpenAiTokenUsage.InputTokensDetails.builder().cachedTokens(1024).build()).build();

    // when
    ModelReply reply = reply(model(answer(usage, "gpt-4o-mini-2024-07-18")).chat(simple()));

    // then
    assertThat(reply.usage()).isEqualTo(new TokenCounts(1204L, 20L, 1224L, 1024L, null));
    assertThat(reply.model()).as("the application's model names none of its own").isEqualTo("gpt-4o-mini-2024-07-18");
  }

  @Test
  void should_add_anthropics_cached_tokens_to_its_input_tokens_which_leave_them_out() {
    // given an application model on Anthropic: 40 input tokens besides 900 read from and 100 written to the cache
    AnthropicTokenUsage usage = AnthropicTokenUsage.builder().inputTokenCount(40).outputTokenCount(10)
        .cacheReadInputTokens(900).cacheCreationInputTokens(100).build();

    // when
    ModelReply reply = reply(model(answer(usage, null)).chat(simple()));

    // then
    assertThat(reply.usage()).isEqualTo(new TokenCounts(1040L, 10L, 1050L, 900L, 100L));
    assertThat(reply.model()).isNull();
  }

  @Test
  void should_leave_out_cache_counts_that_cannot_be_right_and_keep_the_reply_and_its_tokens() {
    // given a gateway that reports more cached tokens than prompt tokens
    OpenAiTokenUsage usage = OpenAiTokenUsage.builder().inputTokenCount(10).outputTokenCount(5)
        .inputTokensDetails(OpenAiTokenUsage.InputTokensDetails.builder().cachedTokens(999).build()).build();

    // when
    ModelReply reply = reply(model(answer(usage, null)).chat(simple()));

    // then
    assertThat(reply.text()).isEqualTo("The answer is");
    assertThat(reply.usage()).isEqualTo(new TokenCounts(10L, 5L, 15L));
  }

  // --- answer schemas ---

  @Test
  void should_hand_the_application_model_the_answer_schema_as_langchain4js_response_format() {
    // when
    reply(model(FinishReason.STOP).chat(withAnswer(simple())));

    // then
    ResponseFormat format = received.get().responseFormat();
    assertThat(format.type()).isEqualTo(ResponseFormatType.JSON);
    assertThat(format.jsonSchema().name()).isEqualTo("answer");
    JsonNode sent = json(((JsonRawSchema) format.jsonSchema().rootElement()).schema());
    assertThat(sent.at("/properties/priority/enum").toString()).isEqualTo("[\"urgent\",\"normal\",\"low\"]");
    assertThat(sent.has("$schema")).as("a note a provider's reader may not take").isFalse();
  }

  @Test
  void should_ask_for_json_of_any_shape_where_the_application_says_json_object() {
    // given
    ApplicationChatModel model = new ApplicationChatModel(recording(answer(null, null)), pool,
        LlmSettings.AnswerFormatType.JSON_OBJECT);

    // when
    reply(model.chat(withAnswer(simple())));

    // then
    assertThat(received.get().responseFormat()).isEqualTo(ResponseFormat.JSON);
  }

  @Test
  void should_ask_a_model_that_takes_no_response_format_without_it_from_then_on() {
    // given a model whose provider module refuses JSON schemas
    AtomicInteger refused = new AtomicInteger();
    dev.langchain4j.model.chat.ChatModel plain = new dev.langchain4j.model.chat.ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        received.set(request);
        if (request.responseFormat() != null) {
          refused.incrementAndGet();
          throw new UnsupportedFeatureException("JSON response format is not supported by this model");
        }
        return answer(null, null);
      }
    };
    ApplicationChatModel model = new ApplicationChatModel(plain, pool);

    // when
    ModelReply first = reply(model.chat(withAnswer(simple())));
    ModelReply second = reply(model.chat(withAnswer(simple())));

    // then both were answered, the format refused once only
    assertThat(first.text()).isEqualTo("The answer is");
    assertThat(second.text()).isEqualTo("The answer is");
    assertThat(refused).hasValue(1);
    assertThat(received.get().responseFormat()).isNull();
  }

  @Test
  void should_take_a_refusal_that_langchain4j_raises_as_a_withheld_reply() {
    // given
    dev.langchain4j.model.chat.ChatModel refusing = new dev.langchain4j.model.chat.ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        throw new ContentFilteredException("I can't help with that.");
      }
    };

    // when
    ModelReply reply = reply(new ApplicationChatModel(refusing, pool).chat(withAnswer(simple())));

    // then
    assertThat(reply.stop().withheld()).isTrue();
    assertThat(reply.stop().withheldMessage()).startsWith("The model refused");
    assertThat(reply.text()).isEqualTo("I can't help with that.");
  }

  private static ModelRequest withAnswer(ModelRequest request) {
    AnswerFormat format = AnswerSchema.parse(AnswerSchemaRuns.SCHEMA.replace("{\"type\": \"object\",",
        "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"type\": \"object\",")).format();
    return new ModelRequest(request.purpose(), request.messages(), request.tools(), request.run(), 0, format);
  }

  private dev.langchain4j.model.chat.ChatModel recording(ChatResponse response) {
    return new dev.langchain4j.model.chat.ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        received.set(request);
        return response;
      }
    };
  }

  private static ChatResponse answer(dev.langchain4j.model.output.TokenUsage usage, String modelName) {
    return ChatResponse.builder().aiMessage(AiMessage.from("The answer is")).finishReason(FinishReason.STOP)
        .tokenUsage(usage).modelName(modelName).build();
  }

  private static ModelRequest simple() {
    return request(List.of(), new ChatMessage.UserMessage("q"));
  }

  private static Map<String, JsonNode> raw(Map<String, JsonSchemaElement> schemas) {
    return schemas.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
        e -> json(((JsonRawSchema) e.getValue()).schema())));
  }

  private ApplicationChatModel model(FinishReason finish) {
    return model(ChatResponse.builder().aiMessage(AiMessage.from("The answer is")).finishReason(finish).build());
  }

  private ApplicationChatModel model(ChatResponse response) {
    return new ApplicationChatModel(recording(response), pool);
  }
}
