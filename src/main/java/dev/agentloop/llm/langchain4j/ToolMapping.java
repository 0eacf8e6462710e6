package dev.agentloop.llm.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.llm.ToolCall;
import dev.agentloop.llm.ToolSpec;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** AgentLoop's tools and tool calls as LangChain4j's, for the OpenAI-compatible and Anthropic adapters alike. */
public final class ToolMapping {

  private ToolMapping() {}

  public static ToolExecutionRequest toRequest(ToolCall call) {
    return ToolExecutionRequest.builder().id(call.id()).name(call.name()).arguments(call.arguments()).build();
  }

  /**
   * Each property's schema goes over the wire as written. LangChain4j sends {@code additionalProperties}
   * only in strict mode, so the model may not see it; AgentLoop checks arguments against the full
   * schema before any tool runs, so nothing the schema forbids gets through.
   */
  public static ToolSpecification toSpecification(ToolSpec tool) {
    JsonNode schema = tool.parameters();
    JsonObjectSchema.Builder parameters = JsonObjectSchema.builder();
    for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> property = it.next();
      parameters.addProperty(property.getKey(), JsonRawSchema.from(property.getValue().toString()));
    }
    List<String> required = new ArrayList<>();
    schema.path("required").forEach(name -> required.add(name.asText()));
    parameters.required(required);
    return ToolSpecification.builder().name(tool.name()).description(tool.description())
        .parameters(parameters.build()).build();
  }
}
