package dev.agentloop.internal.tool.a2a;

import dev.agentloop.spi.ToolException;

/**
 * A remote A2A agent answered, but not with what the call needs: a JSON-RPC error, a task it failed,
 * rejected or cancelled, or something that is not A2A at all. Persistent: asking again would get the same,
 * so it is neither retried nor counted against the tool's breaker; the model reads the message.
 */
class A2aPeerException extends ToolException {

  A2aPeerException(String message) {
    super(message);
  }
}
