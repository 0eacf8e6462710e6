package dev.agentloop.internal.tool.mcp;

import java.io.IOException;

/**
 * An MCP server is not connected (not started yet, died, unreachable): a transient failure, so the
 * call is retried and counts against the server's circuit breaker.
 */
class McpServerDownException extends IOException {

  McpServerDownException(String message) {
    super(message);
  }
}
