package dev.agentloop.internal.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Messages {@code message} body as Anthropic streams it to a request with {@code stream: true}:
 * {@code message_start} with the prompt's usage, a {@code ping}, each content block started empty and filled by
 * deltas of a few characters (text, a tool call's input JSON, thinking and then its signature) and stopped,
 * {@code message_delta} with the stop reason and the output tokens, {@code message_stop}.
 */
final class AnthropicStreams {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PIECE = 3;

  private AnthropicStreams() {}

  static String of(String body) {
    JsonNode reply = readOrNull(body);
    if (reply == null || !"message".equals(reply.path("type").asText()) || !reply.path("content").isArray()) {
      return null; // no message: sent as it is
    }
    StringBuilder stream = new StringBuilder();
    ObjectNode start = ((ObjectNode) reply.deepCopy()).put("type", "message");
    start.putArray("content");
    start.putNull("stop_reason");
    ObjectNode startUsage = (ObjectNode) start.path("usage");
    startUsage.put("output_tokens", 1);
    event(stream, "message_start", JSON.createObjectNode().put("type", "message_start").set("message", start));
    event(stream, "ping", JSON.createObjectNode().put("type", "ping"));
    int index = 0;
    for (JsonNode block : reply.path("content")) {
      block(stream, index++, block);
    }
    ObjectNode delta = JSON.createObjectNode().put("type", "message_delta");
    delta.putObject("delta").put("stop_reason", reply.path("stop_reason").asText()).putNull("stop_sequence");
    delta.putObject("usage").put("output_tokens", reply.path("usage").path("output_tokens").asInt());
    event(stream, "message_delta", delta);
    event(stream, "message_stop", JSON.createObjectNode().put("type", "message_stop"));
    return stream.toString();
  }

  private static void block(StringBuilder stream, int index, JsonNode block) {
    String type = block.path("type").asText();
    ObjectNode empty = ((ObjectNode) block.deepCopy());
    List<ObjectNode> deltas = new ArrayList<>();
    switch (type) {
      case "text" -> {
        empty.put("text", "");
        pieces(block.path("text").asText()).forEach(p -> deltas.add(delta("text_delta").put("text", p)));
      }
      case "tool_use" -> {
        empty.putObject("input");
        pieces(block.path("input").toString()).forEach(p -> deltas.add(delta("input_json_delta").put("partial_json", p)));
      }
      case "thinking" -> {
        empty.put("thinking", "").put("signature", "");
        pieces(block.path("thinking").asText()).forEach(p -> deltas.add(delta("thinking_delta").put("thinking", p)));
        deltas.add(delta("signature_delta").put("signature", block.path("signature").asText()));
      }
      default -> { } // redacted_thinking and the like come whole with their start
    }
    event(stream, "content_block_start", JSON.createObjectNode().put("type", "content_block_start")
        .put("index", index).set("content_block", empty));
    for (ObjectNode delta : deltas) {
      event(stream, "content_block_delta", JSON.createObjectNode().put("type", "content_block_delta")
          .put("index", index).set("delta", delta));
    }
    event(stream, "content_block_stop", JSON.createObjectNode().put("type", "content_block_stop").put("index", index));
  }

  private static ObjectNode delta(String type) {
    return JSON.createObjectNode().put("type", type);
  }

  static List<String> pieces(String text) {
    List<String> pieces = new ArrayList<>();
    for (int i = 0; i < text.length(); i += PIECE) {
      pieces.add(text.substring(i, Math.min(text.length(), i + PIECE)));
    }
    return pieces;
  }

  private static void event(StringBuilder stream, String name, JsonNode data) {
    stream.append("event: ").append(name).append('\n').append("data: ").append(data).append("\n\n");
  }

  private static JsonNode readOrNull(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      return null;
    }
  }
}
