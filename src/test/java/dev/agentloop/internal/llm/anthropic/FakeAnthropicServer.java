package dev.agentloop.internal.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.llm.FakeModelServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A local stand-in for Anthropic's Messages API: serves POST /v1/messages on 127.0.0.1 with a random
 * port ({@link FakeModelServer}), answers with queued responses in order and records every request with
 * its headers. The bodies it builds follow Anthropic's wire format: {@code content} blocks of type
 * {@code text}, {@code thinking} and {@code tool_use}, {@code usage} with input and output tokens, and
 * errors as {@code {"type": "error", "error": {"type": ..., "message": ...}}}.
 */
final class FakeAnthropicServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One request as received: its body (a text node when it is no JSON) and the headers that matter. */
  record Recorded(JsonNode body, String apiKey, String version) {}

  private final FakeModelServer server = new FakeModelServer("/v1/messages", "fake-anthropic",
      new FakeModelServer.Reply(500, error("api_error", "the fake server has no queued response"), Duration.ZERO,
          Map.of()), AnthropicStreams::of);

  FakeAnthropicServer() throws IOException {}

  String baseUrl() {
    return server.origin() + "/v1/";
  }

  FakeAnthropicServer respond(int status, String body) {
    return respond(status, body, Map.of(), Duration.ZERO);
  }

  FakeAnthropicServer respond(int status, String body, Map<String, String> headers, Duration delay) {
    server.queue(new FakeModelServer.Reply(status, body, delay, headers));
    return this;
  }

  /** Answers every request the queue has no reply for, from what was asked. */
  FakeAnthropicServer answerWith(java.util.function.Function<FakeModelServer.Received, FakeModelServer.Reply> responder) {
    server.answerWith(responder);
    return this;
  }

  /** When each request arrived ({@link System#nanoTime}), in the order of {@link #requests}. */
  List<Long> arrivals() {
    return server.arrivals();
  }

  /** Answers every request the queue has no response for, from its body; {@code null}: the default error. */
  FakeAnthropicServer answerBodiesWith(java.util.function.Function<JsonNode, String> responder) {
    server.answerWith(received -> {
      String body = responder.apply(received.body());
      return body == null ? null : new FakeModelServer.Reply(200, body, Duration.ZERO, Map.of());
    });
    return this;
  }

  List<Recorded> requests() {
    return server.requests().stream()
        .map(r -> new Recorded(r.body(), r.header("x-api-key"), r.header("anthropic-version"))).toList();
  }

  @Override
  public void close() {
    server.close();
  }

  // --- bodies in Anthropic's Messages wire format ---

  /** A message; each block is made by {@link #text}, {@link #thinking} or {@link #toolUse}. */
  static String message(String stopReason, int inputTokens, int outputTokens, ObjectNode... blocks) {
    return message(stopReason, inputTokens, outputTokens, 0, 0, blocks);
  }

  /**
   * A message whose prompt was partly read from or written to Anthropic's prompt cache:
   * {@code cache_read_input_tokens} and {@code cache_creation_input_tokens}, which {@code input_tokens}
   * does not count.
   */
  static String message(String stopReason, int inputTokens, int outputTokens, int cacheRead, int cacheWrite,
      ObjectNode... blocks) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "msg_01XFDUDYJgAACzvnptvVoYEL");
    root.put("type", "message");
    root.put("role", "assistant");
    root.put("model", "claude-sonnet-4-5");
    ArrayNode content = root.putArray("content");
    for (ObjectNode block : blocks) {
      content.add(block);
    }
    root.put("stop_reason", stopReason);
    root.putNull("stop_sequence");
    ObjectNode usage = root.putObject("usage");
    usage.put("input_tokens", inputTokens);
    usage.put("output_tokens", outputTokens);
    usage.put("cache_creation_input_tokens", cacheWrite);
    usage.put("cache_read_input_tokens", cacheRead);
    return root.toString();
  }

  static ObjectNode text(String text) {
    return JSON.createObjectNode().put("type", "text").put("text", text);
  }

  static ObjectNode thinking(String thinking) {
    return JSON.createObjectNode().put("type", "thinking").put("thinking", thinking)
        .put("signature", "EqQBCkgIARABGAIiQL2Yx9s0eFqv3Q1p5hJ");
  }

  static ObjectNode toolUse(String id, String name, String inputJson) {
    try {
      ObjectNode block = JSON.createObjectNode().put("type", "tool_use").put("id", id).put("name", name);
      block.set("input", JSON.readTree(inputJson));
      return block;
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static String error(String type, String message) {
    ObjectNode root = JSON.createObjectNode().put("type", "error");
    root.putObject("error").put("type", type).put("message", message);
    return root.toString();
  }
}
