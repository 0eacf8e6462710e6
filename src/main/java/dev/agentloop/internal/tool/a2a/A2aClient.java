package dev.agentloop.internal.tool.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * JSON-RPC requests to one remote A2A agent, each within the call's deadline, with the configured headers and
 * {@code A2A-Version: 1.0}. What comes back is read strictly and at most {@link #MAX_BYTES}: a JSON-RPC error or
 * anything that is not a JSON-RPC answer to this request becomes an {@link A2aPeerException}; a connection that
 * fails, an HTTP status of 429 or 5xx an {@link IOException} (transient: retried, counted by the breaker).
 * Thread-safe.
 */
final class A2aClient {

  /** The most of one answer that is read: a peer that sends more is cut off and its answer refused. */
  static final int MAX_BYTES = 4 * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;
  private final A2aAgentSettings settings;
  private final HttpClient http;
  private final AtomicLong ids = new AtomicLong();

  A2aClient(String name, A2aAgentSettings settings, HttpClient http) {
    this.name = name;
    this.settings = settings;
    this.http = http;
  }

  /** The agent card at {@code <url>/.well-known/agent-card.json}. */
  JsonNode card(Instant deadline) throws IOException, A2aPeerException, TimeoutException, InterruptedException {
    HttpRequest.Builder request = request(URI.create(settings.url() + A2aProtocol.CARD_PATH), deadline).GET();
    return read(send(request.build()), "its agent card");
  }

  /**
   * Calls a method at the endpoint.
   *
   * @return the JSON-RPC result
   */
  JsonNode call(URI endpoint, String method, ObjectNode params, Instant deadline)
      throws IOException, A2aPeerException, TimeoutException, InterruptedException {
    long id = ids.incrementAndGet();
    ObjectNode body = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    body.set("params", params);
    HttpRequest request = request(endpoint, deadline).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
    JsonNode answer = read(send(request), method);
    if (!"2.0".equals(answer.path("jsonrpc").asText()) || answer.path("id").asLong(-1) != id) {
      throw new A2aPeerException("remote agent '" + name + "' answered " + method + " with something that is not the"
          + " JSON-RPC 2.0 response to it");
    }
    if (answer.path("error").isObject()) {
      JsonNode error = answer.get("error");
      throw new A2aPeerException("remote agent '" + name + "' refused " + method + ": " + cut(error.path("message")
          .asText("(no message)")) + " (JSON-RPC error " + error.path("code").asText("?") + ")");
    }
    if (!answer.path("result").isObject()) {
      throw new A2aPeerException("remote agent '" + name + "' answered " + method + " without a result object");
    }
    return answer.get("result");
  }

  private HttpRequest.Builder request(URI uri, Instant deadline) throws TimeoutException {
    Duration left = Duration.between(Instant.now(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw new TimeoutException("no time left for a request to remote agent '" + name + "'");
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(left)
        .header("Accept", "application/json").header(A2aProtocol.VERSION_HEADER, A2aProtocol.VERSION);
    settings.headers().forEach(request::header);
    return request;
  }

  private HttpResponse<InputStream> send(HttpRequest request) throws IOException, TimeoutException, InterruptedException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (java.net.http.HttpTimeoutException e) {
      throw new TimeoutException("remote agent '" + name + "' did not answer " + request.uri() + " in time");
    }
  }

  private JsonNode read(HttpResponse<InputStream> response, String what) throws IOException, A2aPeerException {
    byte[] bytes;
    try (InputStream body = response.body()) {
      bytes = body.readNBytes(MAX_BYTES + 1);
    }
    int status = response.statusCode();
    if (status == 429 || status >= 500) {
      throw new IOException("remote agent '" + name + "' answered " + what + " with HTTP " + status);
    }
    if (status == 401 || status == 403) {
      throw new A2aPeerException("remote agent '" + name + "' refused the credentials (HTTP " + status + "): check"
          + " agentloop.tools.a2a." + name + ".headers");
    }
    if (bytes.length > MAX_BYTES) {
      throw new A2aPeerException("remote agent '" + name + "' answered " + what + " with more than " + MAX_BYTES
          + " bytes; the answer was not read");
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      json = null;
    }
    if (json == null || !json.isObject()) {
      throw new A2aPeerException("remote agent '" + name + "' answered " + what + " with HTTP " + status
          + " and no JSON object: " + cut(text));
    }
    if (status >= 400 && !json.has("error")) {
      throw new A2aPeerException("remote agent '" + name + "' answered " + what + " with HTTP " + status + ": "
          + cut(text));
    }
    return json;
  }

  /** What a peer wrote, shortened for a message. */
  static String cut(String text) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= 200 ? flat : flat.substring(0, 200) + "…";
  }
}
