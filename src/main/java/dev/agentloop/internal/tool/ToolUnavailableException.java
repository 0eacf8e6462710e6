package dev.agentloop.internal.tool;

import dev.agentloop.spi.ToolException;

/** The tool was not called: it failed too often lately and its circuit breaker is open. */
public class ToolUnavailableException extends ToolException {

  public ToolUnavailableException(String message) {
    super(message);
  }
}
