package dev.agentloop.internal.web.a2a;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.resume.InvalidEditException;
import dev.agentloop.internal.resume.ResumeConflictException;
import dev.agentloop.internal.review.ReviewException;
import dev.agentloop.internal.review.TaskDecidedException;
import dev.agentloop.internal.tool.a2a.A2aProtocol;
import java.util.concurrent.CompletionException;
import org.camunda.bpm.engine.AuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * JSON-RPC 2.0 responses of the A2A server, a result or an error, and the error a failure is to the caller: every
 * failure an A2A request may meet, in words, with the code A2A gives it.
 */
final class JsonRpcResponses {

  private static final Logger LOG = LoggerFactory.getLogger(JsonRpcResponses.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonRpcResponses() {
  }

  /** What a failure means to the caller, in words; one AgentLoop did not foresee is logged and said to be internal. */
  static JsonRpcException asJsonRpc(Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    if (cause instanceof JsonRpcException known) {
      return known;
    }
    if (cause instanceof ReviewException || cause instanceof InvalidEditException) {
      return new JsonRpcException(A2aProtocol.INVALID_PARAMS, cause.getMessage());
    }
    if (cause instanceof TaskDecidedException || cause instanceof ResumeConflictException) {
      return new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, cause.getMessage());
    }
    if (cause instanceof AuthorizationException) {
      return new JsonRpcException(A2aProtocol.UNSUPPORTED_OPERATION, "not allowed: " + cause.getMessage());
    }
    LOG.error("AGENTLOOP-610: an A2A request failed; the caller was told of an internal error", cause);
    return new JsonRpcException(A2aProtocol.INTERNAL_ERROR, "internal error (AGENTLOOP-610 in the server's log)");
  }

  static ResponseEntity<Object> ok(Object id, ObjectNode result) {
    ObjectNode response = response(id);
    response.set("result", result);
    return body(response);
  }

  static ResponseEntity<Object> error(Object id, JsonRpcException e) {
    ObjectNode response = response(id);
    response.putObject("error").put("code", e.code()).put("message", e.getMessage());
    return body(response);
  }

  private static ObjectNode response(Object id) {
    ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0");
    response.set("id", JSON.valueToTree(id));
    return response;
  }

  private static ResponseEntity<Object> body(ObjectNode response) {
    return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(response.toString());
  }
}
