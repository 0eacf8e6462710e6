package dev.agentloop.internal.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Where OpenAI-compatible servers vary the wire in ways that are safe to accept: a tool call's
 * {@code function.arguments} sent as a JSON object instead of the string OpenAI sends. LangChain4j
 * would refuse the whole reply; the object is turned into its text, exactly what OpenAI would have
 * sent. Thread-safe.
 */
final class AnswerRepairs {

  private static final ObjectMapper JSON = new ObjectMapper();

  private AnswerRepairs() {}

  static String argumentsAsText(String body) {
    if (!body.contains("\"arguments\"")) {
      return body;
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      return body; // LangChain4j reports what is wrong with it
    }
    boolean repaired = false;
    for (JsonNode choice : root.path("choices")) {
      for (JsonNode call : choice.path("message").path("tool_calls")) {
        JsonNode function = call.path("function");
        JsonNode arguments = function.path("arguments");
        if (function instanceof ObjectNode object && arguments.isContainerNode()) {
          object.put("arguments", arguments.toString());
          repaired = true;
        }
      }
    }
    return repaired ? root.toString() : body;
  }
}
