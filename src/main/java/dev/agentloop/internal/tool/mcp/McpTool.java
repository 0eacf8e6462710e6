package dev.agentloop.internal.tool.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One tool of an MCP server as AgentLoop's tool {@code <server>__<tool>}: the model sees the server's
 * description and {@code inputSchema}, which AgentLoop checks the arguments against before the call
 * leaves. Its annotations decide whether it has side effects: only {@code readOnlyHint: true} says it
 * has none ({@code destructiveHint}, or no hint at all, counts as side effects, so approval and the
 * gating of repeated calls apply). Immutable.
 */
final class McpTool implements AgentTool {

  /** Between the server's name and the tool's: model tool names allow no '.', and server names no '_'. */
  static final String SEPARATOR = "__";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final McpServer server;
  private final String toolName;
  private final String name;
  private final String description;
  private final JsonNode parameters;
  private final boolean sideEffects;

  McpTool(McpServer server, McpSchema.Tool tool) {
    this.server = server;
    this.toolName = tool.name();
    this.name = server.name() + SEPARATOR + tool.name();
    String text = tool.description() == null || tool.description().isBlank() ? tool.title() : tool.description();
    this.description = text == null || text.isBlank() ? tool.name() + " (MCP server " + server.name() + ")" : text;
    this.parameters = tool.inputSchema() == null ? JSON.createObjectNode().put("type", "object")
        : JSON.valueToTree(tool.inputSchema());
    McpSchema.ToolAnnotations hints = tool.annotations();
    this.sideEffects = hints == null || !Boolean.TRUE.equals(hints.readOnlyHint());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public JsonNode parameters() {
    return parameters;
  }

  @Override
  public boolean sideEffects() {
    return sideEffects;
  }

  @Override
  public Optional<String> mcpServer() {
    return Optional.of(server.name());
  }

  /** The server's own {@code timeout}, which the call waits for and then cancels the call on the server. */
  @Override
  public Optional<Duration> timeout() {
    return Optional.of(server.timeout());
  }

  /** @throws ToolException when the server answers {@code isError: true}: the model reads its message */
  @Override
  public String execute(JsonNode arguments) throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> values = arguments == null || arguments.isNull() ? Map.of()
        : JSON.convertValue(arguments, Map.class);
    McpSchema.CallToolResult result = server.call(toolName, values);
    String observation = McpResults.observation(result);
    if (Boolean.TRUE.equals(result.isError())) {
      throw new ToolException("'" + name + "' reported an error: " + observation);
    }
    return observation;
  }

  @Override
  public String toString() {
    return name;
  }
}
