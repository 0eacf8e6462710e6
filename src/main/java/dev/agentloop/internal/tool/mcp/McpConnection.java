package dev.agentloop.internal.tool.mcp;

import dev.agentloop.spi.ToolException;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One connection to an MCP server, from its handshake on: the SDK's client, the transport that can cancel
 * its calls, and the calls, pings and listings that go over it. Apart from {@link McpServer}, which keeps
 * a server connected (supervises it, connects again, says whether it is up), because this is what one
 * connection does on the wire, and it ends with the connection. Thread-safe.
 */
final class McpConnection {

  /** The server's logger, so that what goes wrong on its wire logs where the rest of it does. */
  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);
  private static final McpSchema.Implementation CLIENT = new McpSchema.Implementation("agentloop", "1");

  private final String name;
  private final Duration timeout;
  private final McpAsyncClient client;
  private final CancellingTransport wire;
  private final McpClientTransport sdkTransport;
  private final McpSchema.Implementation serverInfo;

  private McpConnection(String name, Duration timeout, McpAsyncClient client, CancellingTransport wire,
      McpClientTransport sdkTransport, McpSchema.Implementation serverInfo) {
    this.name = name;
    this.timeout = timeout;
    this.client = client;
    this.wire = wire;
    this.sdkTransport = sdkTransport;
    this.serverInfo = serverInfo;
  }

  /**
   * Connects (for stdio: starts the server's process), initializes and lists the tools, waiting up to the
   * {@code startup-timeout}; what was started is closed again when that fails.
   *
   * @param timeout of one request on this connection
   * @param stdout what reads a stdio server's standard output (the server's, across its connections)
   * @param listed told the server's tools once they are listed, and anew whenever the server notifies
   *     {@code notifications/tools/list_changed}
   * @throws RuntimeException when the server could not be reached, initialized or listed
   */
  static McpConnection open(String name, McpServerSettings settings, Duration timeout, StdoutLines stdout,
      Consumer<List<McpSchema.Tool>> listed) {
    McpClientTransport sdkTransport = McpTransports.create(settings, stdout);
    CancellingTransport wire = new CancellingTransport(sdkTransport);
    Duration startup = settings.startupTimeout();
    // the SDK's own limit only bounds what nobody waits for: callers wait with their own time-outs
    McpAsyncClient fresh = McpClient.async(wire)
        .clientInfo(CLIENT)
        .requestTimeout(startup.compareTo(timeout) > 0 ? startup : timeout)
        .initializationTimeout(startup)
        .toolsChangeConsumer(tools -> Mono.fromRunnable(() -> listed.accept(tools)))
        .build();
    try {
      // a node server may take seconds to start on a busy machine: starting has its own time-out
      McpSchema.InitializeResult init = fresh.initialize().block(startup);
      listed.accept(listAll(fresh, startup));
      return new McpConnection(name, timeout, fresh, wire, sdkTransport, init.serverInfo());
    } catch (RuntimeException e) {
      fresh.close();
      throw e;
    }
  }

  /** The server's name and version, as it said in the handshake. */
  McpSchema.Implementation serverInfo() {
    return serverInfo;
  }

  /** The server's process, for a stdio server. */
  Optional<StdioClientTransport> process() {
    return sdkTransport instanceof StdioClientTransport stdio ? Optional.of(stdio) : Optional.empty();
  }

  /** Waits up to the timeout for the server to answer a ping; throws when it does not. */
  void ping() {
    client.ping().block(timeout);
  }

  /**
   * Calls a tool and waits up to the server's {@code timeout}. A call that takes longer is cancelled
   * on the server ({@code notifications/cancelled}) and fails with a {@link TimeoutException}.
   *
   * @param checkSoon told when the call failed on the wire, so that the connection is checked
   */
  McpSchema.CallToolResult call(String toolName, Map<String, Object> arguments, Runnable checkSoon) throws Exception {
    String key = UUID.randomUUID().toString();
    try {
      McpSchema.CallToolResult result = client.callTool(
          new McpSchema.CallToolRequest(toolName, arguments, Map.of(CancellingTransport.CALL_KEY, key)))
          .block(timeout);
      if (result == null) {
        throw new McpServerDownException("MCP server '" + name + "' closed the call without a result");
      }
      return result;
    } catch (McpError e) {
      McpSchema.JSONRPCResponse.JSONRPCError error = e.getJsonRpcError();
      Integer code = error == null ? null : error.code();
      if (code != null && (code == McpSchema.ErrorCodes.INVALID_PARAMS || code == McpSchema.ErrorCodes.METHOD_NOT_FOUND)) {
        // the server answered and refused this call: the model reads why
        throw new ToolException("MCP server '" + name + "' refused the call: " + e.getMessage());
      }
      checkSoon.run();
      throw e;
    } catch (RuntimeException e) {
      if (ConnectFailures.hasTimeout(e) || Thread.currentThread().isInterrupted()) {
        cancel(key, "AgentLoop gave up after " + timeout.toMillis() + " ms");
        throw new TimeoutException("MCP server '" + name + "' did not answer '" + toolName + "' within "
            + ConnectFailures.readable(timeout) + "; the call was cancelled on the server");
      }
      checkSoon.run();
      throw e;
    } finally {
      wire.done(key);
    }
  }

  /** Sends the cancellation without waiting for it: this thread may be interrupted already. */
  private void cancel(String key, String reason) {
    wire.cancel(key, reason).subscribe(null,
        e -> LOG.debug("MCP server '{}': cancelling a call failed: {}", name, ConnectFailures.describe(e)));
  }

  /** Closes the connection; for stdio, ends the server's process. */
  void close() {
    client.close();
  }

  private static List<McpSchema.Tool> listAll(McpAsyncClient client, Duration wait) {
    List<McpSchema.Tool> all = new ArrayList<>();
    String cursor = null;
    do {
      McpSchema.ListToolsResult page = client.listTools(cursor).block(wait);
      if (page == null || page.tools() == null) {
        break;
      }
      all.addAll(page.tools());
      cursor = page.nextCursor();
    } while (cursor != null && !cursor.isEmpty());
    return all;
  }
}
