package dev.agentloop.internal.web.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.tool.a2a.A2aProtocol;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Every agent an A2A agent: its card at {@code <path>/<key>/.well-known/agent-card.json}, its JSON-RPC endpoint at
 * {@code <path>/<key>}. An agent that does not exist or that the caller may not start is not found, whatever the
 * request (a caller learns nothing of agents it may not use). A request is read whole (at most
 * {@link #MAX_BYTES}), checked as JSON-RPC 2.0 of A2A 1.0, and answered by {@link A2aRequests}; its answers come
 * without holding a thread while a task works.
 */
@RestController
@RequestMapping("${agentloop.a2a.path}")
class A2aController {

  /** The most bytes a request may have. */
  static final int MAX_BYTES = 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final A2aSettings settings;
  private final RunAccess access;
  private final AgentCards cards;
  private final A2aRequests requests;

  A2aController(A2aSettings settings, RunAccess access, AgentCards cards, A2aRequests requests) {
    this.settings = settings;
    this.access = access;
    this.cards = cards;
    this.requests = requests;
  }

  @GetMapping(path = "/{key}/.well-known/agent-card.json", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Object> card(@PathVariable String key, HttpServletRequest request) {
    if (!access.mayStart(key)) {
      return notFound(key);
    }
    return cards.card(key, endpoint(request, key)).<ResponseEntity<Object>>map(card -> ResponseEntity.ok()
        .contentType(MediaType.APPLICATION_JSON).body(card.toString())).orElseGet(() -> notFound(key));
  }

  @PostMapping(path = "/{key}")
  DeferredResult<Object> rpc(@PathVariable String key, HttpServletRequest request) throws IOException {
    DeferredResult<Object> answer = new DeferredResult<>(settings.maxWait().toMillis() + 60_000);
    if (!access.mayStart(key) || !cards.exists(key)) {
      answer.setResult(notFound(key));
      return answer;
    }
    Object id = null;
    try {
      JsonNode call = parse(request);
      id = call.has("id") ? JSON.treeToValue(call.get("id"), Object.class) : null;
      requireVersion(request);
      CompletableFuture<Object> result = requests.handle(key, call.get("method").asText(), call.path("params"), id,
          access.currentUser());
      Object requestId = id;
      result.whenComplete((value, error) -> answer.setResult(error == null ? value
          : JsonRpcResponses.error(requestId, JsonRpcResponses.asJsonRpc(error))));
    } catch (JsonRpcException e) {
      answer.setResult(JsonRpcResponses.error(id, e));
    }
    return answer;
  }

  private static JsonNode parse(HttpServletRequest request) throws IOException {
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(MAX_BYTES + 1);
    }
    if (body.length > MAX_BYTES) {
      throw new JsonRpcException(A2aProtocol.INVALID_REQUEST, "a request may have at most " + MAX_BYTES + " bytes");
    }
    JsonNode call;
    try {
      call = JSON.readTree(new String(body, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new JsonRpcException(A2aProtocol.PARSE_ERROR, "the body is not JSON: " + A2aMessages.abbreviate(String.valueOf(e.getMessage())));
    }
    if (call == null || !call.isObject() || !"2.0".equals(call.path("jsonrpc").asText())
        || !call.path("method").isTextual() || call.has("id") && !call.get("id").isTextual()
            && !call.get("id").isIntegralNumber() || call.has("params") && !call.get("params").isObject()) {
      throw new JsonRpcException(A2aProtocol.INVALID_REQUEST, "a request is a JSON-RPC 2.0 object with jsonrpc \"2.0\","
          + " a method, an id (string or integer) and params as an object");
    }
    if (!call.has("id")) {
      throw new JsonRpcException(A2aProtocol.INVALID_REQUEST, "A2A requests need an id: AgentLoop takes no notifications");
    }
    return call;
  }

  /** A2A 1.0 only: a request without a version means 0.3 (specification 3.6.2), which AgentLoop does not speak. */
  private static void requireVersion(HttpServletRequest request) {
    String version = request.getHeader(A2aProtocol.VERSION_HEADER);
    if (version == null || version.isBlank()) {
      version = request.getParameter(A2aProtocol.VERSION_HEADER);
    }
    if (!A2aProtocol.VERSION.equals(version == null ? null : version.strip())) {
      throw new JsonRpcException(A2aProtocol.VERSION_NOT_SUPPORTED, "AgentLoop speaks A2A " + A2aProtocol.VERSION
          + " only: send the header " + A2aProtocol.VERSION_HEADER + ": " + A2aProtocol.VERSION
          + (version == null || version.isBlank() ? " (a request without it means 0.3)" : ", not " + version));
    }
  }

  private String endpoint(HttpServletRequest request, String key) {
    return ServletUriComponentsBuilder.fromContextPath(request).path(settings.path()).pathSegment(key).toUriString();
  }

  private static ResponseEntity<Object> notFound(String key) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
        "there is no agent '" + A2aMessages.abbreviate(key) + "' that you may start");
    return ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
  }
}
