package dev.agentloop.internal.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.llm.ErrorKeepingHttpClient;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * Where OpenAI-compatible servers vary the wire in ways that are safe to accept: a tool call's
 * {@code function.arguments} sent as a JSON object instead of the string OpenAI sends. LangChain4j
 * would refuse the whole reply; the object is turned into its text, exactly what OpenAI would have
 * sent. And where they send no reply at all: a body without a choice is said in words, with what came.
 * Thread-safe.
 */
final class AnswerRepairs {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NO_CHOICES = Pattern.compile("\"choices\"\\s*:\\s*(\\[\\s*]|null)");
  private static final int SHOWN = 300;

  private AnswerRepairs() {}

  /** The body repaired ({@link #argumentsAsText}), or a {@link ErrorKeepingHttpClient.NotAReply} when it has no choice. */
  static String checked(String body) {
    if (!body.contains("\"choices\"") || NO_CHOICES.matcher(body).find()) {
      refuseWithoutChoices(body);
    }
    return argumentsAsText(body);
  }

  /** LangChain4j would report "no choices returned in response" and nothing of what came instead. */
  private static void refuseWithoutChoices(String body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      return; // not JSON: LangChain4j reports what is wrong with it
    }
    JsonNode choices = root == null ? null : root.get("choices");
    if (root != null && root.isObject() && (choices == null || choices.isNull() || choices.isEmpty())) {
      String text = root.toString();
      throw new ErrorKeepingHttpClient.NotAReply("the endpoint answered HTTP 200 with no choice in it, so there is"
          + " no reply to read; it sent: " + (text.length() > SHOWN ? text.substring(0, SHOWN) + "…" : text), true);
    }
  }

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
