package dev.agentloop.internal.llm.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.spi.ToolSpec;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** AgentLoop's tools and tool calls as LangChain4j's, for the OpenAI-compatible and Anthropic adapters alike. */
public final class ToolMapping {

  private ToolMapping() {}

  public static ToolExecutionRequest toRequest(ToolCall call) {
    return ToolExecutionRequest.builder().id(call.id()).name(call.name()).arguments(call.arguments()).build();
  }

  /**
   * The tool's schema as {@link dev.agentloop.spi.ToolSchemas} adapted it, whole: each property and
   * each of {@code $defs} goes over the wire as written, references included.
   */
  public static ToolSpecification toSpecification(ToolSpec tool) {
    JsonNode schema = tool.parameters();
    JsonObjectSchema.Builder parameters = JsonObjectSchema.builder().addProperties(raw(schema.path("properties")));
    if (schema.path("description").isTextual()) {
      parameters.description(schema.get("description").asText());
    }
    List<String> required = new ArrayList<>();
    schema.path("required").forEach(name -> required.add(name.asText()));
    parameters.required(required);
    if (schema.path("$defs").isObject()) {
      parameters.definitions(raw(schema.get("$defs")));
    }
    return ToolSpecification.builder().name(tool.name()).description(tool.description())
        .parameters(parameters.build()).build();
  }

  private static Map<String, JsonSchemaElement> raw(JsonNode schemas) {
    Map<String, JsonSchemaElement> raw = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = schemas.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> schema = it.next();
      raw.put(schema.getKey(), JsonRawSchema.from(schema.getValue().toString()));
    }
    return raw;
  }
}
