package dev.agentloop.internal.mcp;

/** A tool call that cannot be served as asked; its message goes to the client as the call's error result. */
final class McpCallException extends RuntimeException {

  McpCallException(String message) {
    super(message);
  }
}
