package dev.agentloop.internal.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code chat.completion} body as OpenAI streams it to a request with {@code stream: true} and
 * {@code stream_options.include_usage}: a first chunk with the role, the reasoning, content and refusal in pieces of a
 * few characters, each tool call's id and name and then its arguments in pieces, a chunk with the finish reason, a
 * last chunk with no choice and the usage, and {@code data: [DONE]}; {@code null} for a body that is no chat
 * completion.
 */
public final class OpenAiStreams {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PIECE = 3;

  private OpenAiStreams() {}

  public static String of(String completion) {
    JsonNode reply = readOrNull(completion);
    if (reply == null || !reply.path("choices").path(0).path("message").isObject()) {
      return null; // no chat completion: sent as it is, as by a server that streams no junk
    }
    JsonNode choice = reply.path("choices").path(0);
    JsonNode message = choice.path("message");
    List<ObjectNode> chunks = new ArrayList<>();
    ObjectNode first = delta(reply, chunks).put("role", "assistant");
    if (message.path("content").isTextual()) {
      first.put("content", "");
    }
    for (String field : new String[] {"reasoning_content", "content", "refusal"}) {
      for (String piece : pieces(message.path(field).asText(""))) {
        delta(reply, chunks).put(field, piece);
      }
    }
    int index = 0;
    for (JsonNode call : message.path("tool_calls")) {
      ObjectNode start = delta(reply, chunks).putArray("tool_calls").addObject().put("index", index)
          .put("id", call.path("id").asText()).put("type", "function");
      start.putObject("function").put("name", call.path("function").path("name").asText()).put("arguments", "");
      JsonNode arguments = call.path("function").path("arguments");
      if (arguments.isContainerNode()) {
        // a server that sends arguments as an object sends it whole
        ((ObjectNode) delta(reply, chunks).putArray("tool_calls").addObject().put("index", index)
            .putObject("function")).set("arguments", arguments);
      }
      for (String piece : pieces(arguments.isTextual() ? arguments.asText() : "")) {
        delta(reply, chunks).putArray("tool_calls").addObject().put("index", index).putObject("function")
            .put("arguments", piece);
      }
      index++;
    }
    ObjectNode last = chunk(reply, chunks);
    last.putArray("choices").addObject().put("index", 0).putObject("delta");
    ((ObjectNode) last.path("choices").path(0)).set("finish_reason", choice.path("finish_reason"));
    if (reply.has("usage")) {
      ObjectNode usage = chunk(reply, chunks);
      usage.putArray("choices");
      usage.set("usage", reply.get("usage"));
    }
    StringBuilder stream = new StringBuilder();
    chunks.forEach(chunk -> stream.append("data: ").append(chunk).append("\n\n"));
    return stream.append("data: [DONE]\n\n").toString();
  }

  /** The text in pieces of a few characters; none for "". */
  static List<String> pieces(String text) {
    List<String> pieces = new ArrayList<>();
    for (int i = 0; i < text.length(); i += PIECE) {
      pieces.add(text.substring(i, Math.min(text.length(), i + PIECE)));
    }
    return pieces;
  }

  private static ObjectNode delta(JsonNode reply, List<ObjectNode> chunks) {
    ObjectNode chunk = chunk(reply, chunks);
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.putNull("finish_reason");
    return choice.putObject("delta");
  }

  private static ObjectNode chunk(JsonNode reply, List<ObjectNode> chunks) {
    ObjectNode chunk = JSON.createObjectNode().put("id", reply.path("id").asText("chatcmpl-fake"))
        .put("object", "chat.completion.chunk").put("created", reply.path("created").asLong(1_700_000_000L))
        .put("model", reply.path("model").asText("test-model"));
    if (reply.has("system_fingerprint")) {
      chunk.set("system_fingerprint", reply.get("system_fingerprint"));
    }
    chunks.add(chunk);
    return chunk;
  }

  private static JsonNode readOrNull(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      return null;
    }
  }
}
