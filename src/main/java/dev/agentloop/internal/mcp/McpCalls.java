package dev.agentloop.internal.mcp;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tool calls in flight on this node, by MCP session and JSON-RPC request id: what {@code notifications/cancelled}
 * names. A session lives on the node that created it (streamable HTTP keeps it in memory), so its cancellations
 * arrive here too. Thread-safe.
 */
final class McpCalls {

  /** A call in flight: which run answers it, who made it, and how to cancel it. */
  record Call(String runId, String userId, Runnable cancel) {}

  private final Map<String, Call> calls = new ConcurrentHashMap<>();

  void add(String sessionId, Object requestId, Call call) {
    if (sessionId != null && requestId != null) {
      calls.put(key(sessionId, requestId), call);
    }
  }

  void remove(String sessionId, Object requestId) {
    if (sessionId != null && requestId != null) {
      calls.remove(key(sessionId, requestId));
    }
  }

  /**
   * Cancels the call, when it is in flight and {@code userId} made it; a request id that names nothing is ignored,
   * as MCP says (the call may have finished meanwhile).
   *
   * @return whether a call was cancelled
   */
  boolean cancel(String sessionId, Object requestId, String userId) {
    if (sessionId == null || requestId == null) {
      return false;
    }
    Call call = calls.get(key(sessionId, requestId));
    if (call == null || !Objects.equals(call.userId(), userId)) {
      return false;
    }
    calls.remove(key(sessionId, requestId));
    call.cancel().run();
    return true;
  }

  int inFlight() {
    return calls.size();
  }

  /** JSON-RPC ids are strings or numbers: 7 and "7" are different requests. */
  private static String key(String sessionId, Object requestId) {
    return sessionId + "\u0000" + requestId.getClass().getSimpleName() + ":" + requestId;
  }
}
