package dev.agentloop.internal.tool.mcp;

import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolSource;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MCP server: its connection and the tools it lists. Connected once per node, in the background;
 * supervised by {@link McpServers}, which pings it and connects again (for stdio: starts the process
 * again) when it died, a stdio server at once when its process ends; never started per call. A call
 * while it is down fails at once with a transient {@link McpServerDownException} "MCP server 'x' is not
 * connected: why"; a call that fails on the wire asks for a check of the connection. Starting
 * (initialize, list) waits up to the {@code startup-timeout}, a call or ping up to the server's
 * {@code timeout}; a call that takes longer is cancelled on the server. The tools are listed on every
 * connection and whenever the server notifies {@code notifications/tools/list_changed}; the last list
 * stays while the server is down, so that calls of its tools fail as not connected (and count against
 * its breaker) instead of as unknown tools; before the first list, the tools agents name are offered as
 * {@link UnreachableTool}s. Why it is down is logged through a {@link DownLog}: once, then at a bounded
 * rate. One connection's handshake and wire are a {@link McpConnection}; how the connection is kept, its
 * {@link ServerConnection}; what listeners and the log learn of the server's ups and downs, its
 * {@link ServerAvailability}. Thread-safe.
 */
final class McpServer implements ToolSource {

  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);

  private final String name;
  private final McpServerSettings settings;
  private final Duration timeout;
  private volatile Map<String, AgentTool> tools = Map.of();
  private volatile boolean listed;
  private final ServerAvailability availability;
  private final ServerConnection connection;

  /**
   * @param timeout of one request, when the settings name none
   * @param supervisor where a reconnection asked for by a failed call runs
   */
  McpServer(String name, McpServerSettings settings, Duration timeout, Executor supervisor) {
    this.name = name;
    this.settings = settings;
    this.timeout = settings.timeout() == null ? timeout : settings.timeout();
    this.availability = new ServerAvailability(name, LOG);
    this.connection = new ServerConnection(this, availability, this::listed, supervisor);
  }

  @Override
  public String name() {
    return name;
  }

  McpServerSettings settings() {
    return settings;
  }

  /** How long a call may take: the server's {@code timeout}, else {@code agentloop.tools.timeout}. */
  Duration timeout() {
    return timeout;
  }

  @Override
  public Map<String, AgentTool> tools() {
    return tools;
  }

  @Override
  public boolean claims(String toolName) {
    return toolName.startsWith(name + McpTool.SEPARATOR);
  }

  @Override
  public boolean listed() {
    return listed;
  }

  boolean connected() {
    return connection.connected();
  }

  /** How many attempts to connect have failed so far. */
  int failedAttempts() {
    return availability.failedAttempts();
  }

  /** {@code connecting} until the first attempt ends, then {@code connected} or {@code down}. */
  String state() {
    return connected() ? "connected" : availability.attempted() ? "down" : "connecting";
  }

  @Override
  public Optional<String> unavailable() {
    return connected() ? Optional.empty() : Optional.of(notConnected());
  }

  @Override
  public void onAvailabilityChange(Consumer<String> listener) {
    availability.listen(listener);
  }

  /**
   * A tool this server claims while it has never listed its tools: offered to the model with a schema
   * that takes any object, so that an agent that allows it is not silently left without it; its calls
   * fail as not connected until the server lists its real tools.
   */
  @Override
  public Optional<AgentTool> placeholder(String toolName) {
    return listed || !claims(toolName) ? Optional.empty() : Optional.of(new UnreachableTool(this, toolName));
  }

  /** "MCP server 'x' is not connected: why". */
  String notConnected() {
    return availability.notConnected();
  }

  /** Why the server is not connected, or what last went wrong. */
  String lastError() {
    return availability.lastError();
  }

  /**
   * Checks the connection and makes a new one when there is none or it does not answer a ping.
   * Skips when another thread is at it.
   */
  void supervise() {
    connection.supervise();
  }

  /**
   * Calls a tool and waits up to the server's {@code timeout}. A call that takes longer is cancelled
   * on the server ({@code notifications/cancelled}) and fails with a {@link TimeoutException}.
   */
  McpSchema.CallToolResult call(String toolName, Map<String, Object> arguments) throws Exception {
    return connection.call(toolName, arguments);
  }

  void close() {
    availability.stopListening();
    connection.close();
  }

  private void listed(List<McpSchema.Tool> list) {
    Map<String, AgentTool> byName = new LinkedHashMap<>();
    list.forEach(tool -> {
      McpTool mcpTool = new McpTool(this, tool);
      byName.put(mcpTool.name(), mcpTool);
    });
    tools = Collections.unmodifiableMap(byName);
    if (listed) {
      LOG.info("MCP server '{}' lists its tools anew: {}", name, byName.keySet());
    }
    listed = true;
  }
}
