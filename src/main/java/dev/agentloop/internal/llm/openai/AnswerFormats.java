package dev.agentloop.internal.llm.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.llm.LlmSettings.AnswerFormatType;
import dev.agentloop.spi.AnswerFormat;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.util.List;
import java.util.Map;

/**
 * An agent's answer schema as OpenAI-compatible endpoints and LangChain4j take it. To an endpoint AgentLoop calls
 * itself it goes as written, as the request's {@code response_format}: {@code json_schema} with the schema, and
 * {@code "strict": true} only where the schema keeps strict mode's rules ({@link AnswerFormat#strict()}); or, where
 * {@code agentloop.llm.answer-format} is {@code json-object} (servers that know no schemas), {@code json_object},
 * which asks for JSON of any shape. To an application's own LangChain4j model it goes as LangChain4j's
 * {@link ResponseFormat}, which that model's provider module maps. Thread-safe.
 */
final class AnswerFormats {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Notes a provider's schema reader may not take, left out of what is sent (AgentLoop validates with them). */
  private static final List<String> NOTES = List.of("$schema", "$id", "$comment");

  private AnswerFormats() {}

  /** The body's {@code response_format}. */
  static Map<String, Object> responseFormat(AnswerFormat answer, AnswerFormatType type) {
    if (type == AnswerFormatType.JSON_OBJECT) {
      return Map.of("type", "json_object");
    }
    return Map.of("type", "json_schema", "json_schema", Map.of("name", answer.name(),
        "schema", JSON.convertValue(sent(answer), Map.class), "strict", answer.strict()));
  }

  /** LangChain4j's form of it. */
  static ResponseFormat langChain4j(AnswerFormat answer, AnswerFormatType type) {
    if (type == AnswerFormatType.JSON_OBJECT) {
      return ResponseFormat.JSON;
    }
    return ResponseFormat.builder().type(ResponseFormatType.JSON).jsonSchema(JsonSchema.builder()
        .name(answer.name()).rootElement(JsonRawSchema.from(sent(answer).toString())).build()).build();
  }

  private static ObjectNode sent(AnswerFormat answer) {
    ObjectNode schema = (ObjectNode) answer.schema().deepCopy();
    schema.remove(NOTES);
    return schema;
  }
}
