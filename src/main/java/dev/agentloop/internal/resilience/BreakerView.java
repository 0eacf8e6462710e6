package dev.agentloop.internal.resilience;

import java.util.Objects;

/**
 * A circuit breaker as the API, the health check and the agentStuck task show it.
 *
 * @param name {@code tool:<tool name>}, {@code mcp:<server>} or {@code model:<endpoint>}
 * @param kind {@code tool}, {@code mcp} (an MCP server, for all its tools) or {@code model}
 * @param target the tool's name, the MCP server's name or the model endpoint
 * @param state {@code CLOSED}, {@code OPEN} or {@code HALF_OPEN}. An open breaker stays OPEN until the
 *     first call after its delay, which it lets through as a trial (then HALF_OPEN)
 */
public record BreakerView(String name, String kind, String target, String state) {

  public BreakerView {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(state, "state");
  }

  /** Not a bean property, so that the JSON has exactly the four fields. */
  public boolean closed() {
    return "CLOSED".equals(state);
  }
}
