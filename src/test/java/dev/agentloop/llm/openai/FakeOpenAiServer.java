package dev.agentloop.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local stand-in for an OpenAI-compatible endpoint: serves POST /v1/chat/completions on 127.0.0.1
 * with a random port, answers with queued responses in order (then with its responder, if it has one)
 * and records every request it gets.
 */
public final class FakeOpenAiServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One canned answer: an HTTP status, a body, how long to wait before sending it, and extra headers. */
  public record Response(int status, String body, Duration delay, java.util.Map<String, String> headers) {

    public Response {
      headers = java.util.Map.copyOf(headers);
    }

    public Response(int status, String body, Duration delay) {
      this(status, body, delay, java.util.Map.of());
    }

    public Response(int status, String body) {
      this(status, body, Duration.ZERO);
    }
  }

  /** One request as received: its body parsed as JSON (a text node when it is no JSON) and its Authorization header. */
  public record Recorded(JsonNode body, String authorization) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "fake-openai");
    thread.setDaemon(true);
    return thread;
  });
  private final ConcurrentLinkedQueue<Response> responses = new ConcurrentLinkedQueue<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private volatile java.util.function.Function<Recorded, Response> responder;

  public FakeOpenAiServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  FakeOpenAiServer respond(int status, String body) {
    return respond(status, body, Duration.ZERO);
  }

  FakeOpenAiServer respond(int status, String body, Duration delay) {
    return respond(new Response(status, body, delay));
  }

  FakeOpenAiServer respond(Response response) {
    responses.add(response);
    return this;
  }

  /** Answers every request the queue has no response for, from what was asked. */
  public FakeOpenAiServer answerWith(java.util.function.Function<Recorded, Response> responder) {
    this.responder = responder;
    return this;
  }

  public List<Recorded> requests() {
    return new ArrayList<>(requests);
  }

  /** The single request received so far; fails when there was not exactly one. */
  Recorded onlyRequest() {
    if (requests.size() != 1) {
      throw new AssertionError("expected exactly one request but the server got " + requests.size());
    }
    return requests.get(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String raw;
      try (InputStream in = exchange.getRequestBody()) {
        raw = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      Recorded recorded = new Recorded(parse(raw), exchange.getRequestHeaders().getFirst("Authorization"));
      requests.add(recorded);
      if (!"POST".equals(exchange.getRequestMethod())) {
        send(exchange, new Response(405, "{\"error\":{\"message\":\"method not allowed\"}}", Duration.ZERO));
        return;
      }
      Response response = responses.poll();
      if (response == null && responder != null) {
        response = responder.apply(recorded);
      }
      if (response == null) {
        response = new Response(500, "{\"error\":{\"message\":\"the fake server has no queued response\"}}",
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
      send(exchange, response);
    } catch (IOException e) {
      // the client gave up (timeout) before the answer went out
    }
  }

  private static void send(HttpExchange exchange, Response response) throws IOException {
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

  // --- bodies in the real OpenAI chat-completions wire format ---

  /** A chat.completion whose assistant message carries one tool call; {@code arguments} is the raw JSON string. */
  public static String toolCallCompletion(String callId, String toolName, String arguments, int promptTokens,
      int completionTokens) {
    var root = JSON.createObjectNode();
    completionHeader(root);
    var choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    var message = choice.putObject("message");
    message.put("role", "assistant");
    message.putNull("content");
    var call = message.putArray("tool_calls").addObject();
    call.put("id", callId);
    call.put("type", "function");
    var function = call.putObject("function");
    function.put("name", toolName);
    function.put("arguments", arguments);
    choice.putNull("logprobs");
    choice.put("finish_reason", "tool_calls");
    usage(root, promptTokens, completionTokens);
    return root.toString();
  }

  /** A chat.completion whose assistant message is plain text. */
  public static String textCompletion(String text, int promptTokens, int completionTokens) {
    var root = JSON.createObjectNode();
    completionHeader(root);
    var choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    var message = choice.putObject("message");
    message.put("role", "assistant");
    message.put("content", text);
    message.putNull("refusal");
    choice.putNull("logprobs");
    choice.put("finish_reason", "stop");
    usage(root, promptTokens, completionTokens);
    return root.toString();
  }

  /** An error body as OpenAI sends it with 4xx/5xx statuses. */
  public static String errorBody(String message, String type, String code) {
    var root = JSON.createObjectNode();
    var error = root.putObject("error");
    error.put("message", message);
    error.put("type", type);
    error.putNull("param");
    error.put("code", code);
    return root.toString();
  }

  private static void completionHeader(com.fasterxml.jackson.databind.node.ObjectNode root) {
    root.put("id", "chatcmpl-fake123");
    root.put("object", "chat.completion");
    root.put("created", 1_700_000_000L);
    root.put("model", "test-model");
    root.put("system_fingerprint", "fp_fake");
  }

  private static void usage(com.fasterxml.jackson.databind.node.ObjectNode root, int prompt, int completion) {
    var usage = root.putObject("usage");
    usage.put("prompt_tokens", prompt);
    usage.put("completion_tokens", completion);
    usage.put("total_tokens", prompt + completion);
  }
}
