package dev.agentloop.internal.tool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.AgentTool;
import java.util.Optional;

/**
 * A tool of an MCP server that has never been reached, so that its description and schema are
 * unknown: what an agent that allows it is offered instead of nothing. It takes any arguments
 * object, counts as having side effects (nothing says it is read-only, so approval applies), and
 * each call fails as "MCP server 'x' is not connected: why" — a transient failure that counts against
 * the server's breaker. Immutable.
 */
final class UnreachableTool implements AgentTool {

  private static final JsonNode ANY_OBJECT = new ObjectMapper().createObjectNode().put("type", "object");

  private final McpServer server;
  private final String name;

  UnreachableTool(McpServer server, String name) {
    this.server = server;
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return "A tool of MCP server '" + server.name() + "', which has not been reached yet, so its description is"
        + " unknown; calls fail until it is connected.";
  }

  @Override
  public JsonNode parameters() {
    return ANY_OBJECT;
  }

  @Override
  public boolean sideEffects() {
    return true;
  }

  @Override
  public Optional<String> mcpServer() {
    return Optional.of(server.name());
  }

  @Override
  public String execute(JsonNode arguments) throws McpServerDownException {
    throw new McpServerDownException(server.notConnected());
  }

  @Override
  public String toString() {
    return name;
  }
}
