package dev.agentloop.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local stand-in for Anthropic's Messages API: serves POST /v1/messages on 127.0.0.1 with a random
 * port, answers with queued responses in order and records every request with its headers. The
 * bodies it builds follow Anthropic's wire format: {@code content} blocks of type {@code text},
 * {@code thinking} and {@code tool_use}, {@code usage} with input and output tokens, and errors as
 * {@code {"type": "error", "error": {"type": ..., "message": ...}}}.
 */
final class FakeAnthropicServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  record Response(int status, String body, Map<String, String> headers, Duration delay) {}

  /** One request as received: its body (a text node when it is no JSON) and the headers that matter. */
  record Recorded(JsonNode body, String apiKey, String version) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "fake-anthropic");
    thread.setDaemon(true);
    return thread;
  });
  private final ConcurrentLinkedQueue<Response> responses = new ConcurrentLinkedQueue<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();

  FakeAnthropicServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/messages", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/";
  }

  FakeAnthropicServer respond(int status, String body) {
    return respond(status, body, Map.of(), Duration.ZERO);
  }

  FakeAnthropicServer respond(int status, String body, Map<String, String> headers, Duration delay) {
    responses.add(new Response(status, body, headers, delay));
    return this;
  }

  List<Recorded> requests() {
    return new ArrayList<>(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String raw;
      try (InputStream in = exchange.getRequestBody()) {
        raw = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      requests.add(new Recorded(parse(raw), exchange.getRequestHeaders().getFirst("x-api-key"),
          exchange.getRequestHeaders().getFirst("anthropic-version")));
      Response response = responses.poll();
      if (response == null) {
        response = new Response(500, error("api_error", "the fake server has no queued response"), Map.of(),
            Duration.ZERO);
      }
      if (!response.delay().isZero()) {
        try {
          Thread.sleep(response.delay().toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type",
          response.body().startsWith("{") ? "application/json" : "text/html");
      response.headers().forEach(exchange.getResponseHeaders()::set);
      exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    } catch (IOException e) {
      // the client gave up (timeout) before the answer went out
    }
  }

  private static JsonNode parse(String raw) {
    try {
      return JSON.readTree(raw);
    } catch (IOException e) {
      return JSON.getNodeFactory().textNode(raw);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }

  // --- bodies in Anthropic's Messages wire format ---

  /** A message; each block is made by {@link #text}, {@link #thinking} or {@link #toolUse}. */
  static String message(String stopReason, int inputTokens, int outputTokens, ObjectNode... blocks) {
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
    usage.put("cache_creation_input_tokens", 0);
    usage.put("cache_read_input_tokens", 0);
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
