package dev.agentloop.internal.llm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelRequest;

/**
 * A model request as JSON for operators: the messages and tools exactly as the adapter received them,
 * one object per message ({@code role} system, user, assistant or tool). It holds what the model read
 * and nothing of the transport: no endpoint, header or key is part of a {@link ModelRequest}, so none can
 * end up here. Thread-safe.
 */
public final class PromptJson {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private PromptJson() {}

  public static ArrayNode messages(ModelRequest request) {
    ArrayNode messages = JSON.arrayNode();
    request.messages().forEach(message -> messages.add(message(message)));
    return messages;
  }

  public static ArrayNode tools(ModelRequest request) {
    ArrayNode tools = JSON.arrayNode();
    request.tools().forEach(tool -> {
      ObjectNode json = tools.addObject().put("name", tool.name()).put("description", tool.description());
      json.set("parameters", tool.parameters());
    });
    return tools;
  }

  private static ObjectNode message(ChatMessage message) {
    if (message instanceof ChatMessage.SystemMessage system) {
      return JSON.objectNode().put("role", "system").put("text", system.text());
    }
    if (message instanceof ChatMessage.UserMessage user) {
      return JSON.objectNode().put("role", "user").put("text", user.text());
    }
    if (message instanceof ChatMessage.ToolResultMessage tool) {
      return JSON.objectNode().put("role", "tool").put("callId", tool.callId()).put("tool", tool.toolName())
          .put("text", tool.text());
    }
    ChatMessage.AssistantMessage assistant = (ChatMessage.AssistantMessage) message;
    ObjectNode json = JSON.objectNode().put("role", "assistant").put("text", assistant.text());
    if (!assistant.toolCalls().isEmpty()) {
      ArrayNode calls = json.putArray("toolCalls");
      assistant.toolCalls().forEach(call ->
          calls.addObject().put("id", call.id()).put("name", call.name()).put("arguments", call.arguments()));
    }
    return json;
  }
}
