package dev.agentloop.internal.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.impl.identity.Authentication;

/**
 * The Camunda user an MCP request came from, as the API's authentication filter set it on the request's thread.
 * The SDK handles a request on threads of its own, so the caller travels in the request's transport context and
 * is set on the thread that acts for it ({@link #run}), and cleared after.
 */
record McpCaller(String userId, List<String> groupIds, List<String> tenantIds) {

  /** The transport context's key of the caller. */
  static final String KEY = "agentloop.caller";
  /** The transport context's key of the JSON-RPC id of the request, for cancellation. */
  static final String REQUEST_ID = "agentloop.requestId";

  McpCaller {
    Objects.requireNonNull(userId, "userId");
    groupIds = groupIds == null ? List.of() : List.copyOf(groupIds);
    tenantIds = tenantIds == null ? List.of() : List.copyOf(tenantIds);
  }

  /** The caller of the request being handled on this thread; {@code null} where the filter set none. */
  static McpCaller current(IdentityService identity) {
    Authentication user = identity.getCurrentAuthentication();
    return user == null ? null : new McpCaller(user.getUserId(), user.getGroupIds(), user.getTenantIds());
  }

  /** The transport context of a request: its caller and JSON-RPC id. */
  static McpTransportContext context(McpCaller caller, Object requestId) {
    return McpTransportContext.create(requestId == null ? Map.of(KEY, caller) : Map.of(KEY, caller, REQUEST_ID,
        requestId));
  }

  /** @throws IllegalStateException when the context has no caller: the authentication filter did not run */
  static McpCaller of(McpTransportContext context) {
    Object caller = context == null ? null : context.get(KEY);
    if (!(caller instanceof McpCaller known)) {
      throw new IllegalStateException("an MCP request without an authenticated caller: AgentLoop's authentication"
          + " must cover the MCP path");
    }
    return known;
  }

  /** Runs {@code action} as this caller: Camunda's authorization decides what it may do. */
  <T> T run(IdentityService identity, Supplier<T> action) {
    identity.setAuthentication(userId, groupIds, tenantIds);
    try {
      return action.get();
    } finally {
      identity.clearAuthentication();
    }
  }
}
