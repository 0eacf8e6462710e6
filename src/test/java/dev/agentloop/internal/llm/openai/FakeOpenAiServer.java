package dev.agentloop.internal.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.llm.FakeModelServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * A local stand-in for an OpenAI-compatible endpoint: serves POST /v1/chat/completions on 127.0.0.1
 * with a random port ({@link FakeModelServer}), answers with queued responses in order (then with its
 * responder, if it has one) and records every request it gets; its bodies are OpenAI's wire format.
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

    FakeModelServer.Reply reply() {
      return new FakeModelServer.Reply(status, body, delay, headers);
    }
  }

  /** One request as received: its body parsed as JSON (a text node when it is no JSON) and its Authorization header. */
  public record Recorded(JsonNode body, String authorization) {

    static Recorded of(FakeModelServer.Received received) {
      return new Recorded(received.body(), received.header("Authorization"));
    }
  }

  private final FakeModelServer server = new FakeModelServer("/v1/chat/completions", "fake-openai",
      new Response(500, errorBody("the fake server has no queued response", "server_error", null)).reply(),
      OpenAiStreams::of);

  public FakeOpenAiServer() throws IOException {}

  public String baseUrl() {
    return server.origin() + "/v1";
  }

  FakeOpenAiServer respond(int status, String body) {
    return respond(status, body, Duration.ZERO);
  }

  FakeOpenAiServer respond(int status, String body, Duration delay) {
    return respond(new Response(status, body, delay));
  }

  FakeOpenAiServer respond(Response response) {
    server.queue(response.reply());
    return this;
  }

  /** Answers every request the queue has no response for, from what was asked. */
  public FakeOpenAiServer answerWith(java.util.function.Function<Recorded, Response> responder) {
    server.answerWith(received -> {
      Response response = responder.apply(Recorded.of(received));
      return response == null ? null : response.reply();
    });
    return this;
  }

  public List<Recorded> requests() {
    return server.requests().stream().map(Recorded::of).toList();
  }

  /** When each request arrived ({@link System#nanoTime}), in the order of {@link #requests}. */
  public List<Long> arrivals() {
    return server.arrivals();
  }

  /** The single request received so far; fails when there was not exactly one. */
  Recorded onlyRequest() {
    List<Recorded> requests = requests();
    if (requests.size() != 1) {
      throw new AssertionError("expected exactly one request but the server got " + requests.size());
    }
    return requests.get(0);
  }

  @Override
  public void close() {
    server.close();
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

  /**
   * A plain-text chat.completion of which {@code cachedTokens} of the prompt tokens came from OpenAI's prompt
   * cache: {@code usage.prompt_tokens_details.cached_tokens}, counted inside {@code prompt_tokens}.
   */
  public static String textCompletion(String text, int promptTokens, int completionTokens, int cachedTokens) {
    var root = (com.fasterxml.jackson.databind.node.ObjectNode) read(textCompletion(text, promptTokens,
        completionTokens));
    var usage = (com.fasterxml.jackson.databind.node.ObjectNode) root.get("usage");
    usage.putObject("prompt_tokens_details").put("cached_tokens", cachedTokens).put("audio_tokens", 0);
    usage.putObject("completion_tokens_details").put("reasoning_tokens", 0).put("audio_tokens", 0);
    return root.toString();
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
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
