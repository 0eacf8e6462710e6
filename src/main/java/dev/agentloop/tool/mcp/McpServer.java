package dev.agentloop.tool.mcp;

import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import dev.agentloop.tool.ToolSource;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

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
 * rate. Thread-safe.
 */
final class McpServer implements ToolSource {

  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);
  private static final McpSchema.Implementation CLIENT = new McpSchema.Implementation("agentloop", "1");

  private final String name;
  private final McpServerSettings settings;
  private final Duration timeout;
  private final Executor supervisor;
  private final ReentrantLock connecting = new ReentrantLock();
  private volatile McpAsyncClient client;
  /** The client whose stdio process ended, so that the supervisor connects anew without a ping first. */
  private volatile McpAsyncClient exited;
  private volatile Map<String, AgentTool> tools = Map.of();
  private volatile boolean listed;
  private volatile String lastError = "it is still connecting (first attempt)";
  private volatile boolean attempted;
  private final AtomicInteger failedAttempts = new AtomicInteger();
  private final DownLog downLog;
  private final List<Consumer<String>> availabilityListeners = new CopyOnWriteArrayList<>();
  /** The transport of the current connection, which can cancel its calls. */
  private volatile CancellingTransport transport;

  /**
   * @param timeout of one request, when the settings name none
   * @param supervisor where a reconnection asked for by a failed call runs
   */
  McpServer(String name, McpServerSettings settings, Duration timeout, Executor supervisor) {
    this.name = name;
    this.settings = settings;
    this.timeout = settings.timeout() == null ? timeout : settings.timeout();
    this.supervisor = supervisor;
    this.downLog = new DownLog(LOG, name, McpServers.DOWN_LOG_EVERY, System::nanoTime);
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
    return client != null;
  }

  /** How many attempts to connect have failed so far. */
  int failedAttempts() {
    return failedAttempts.get();
  }

  /** {@code connecting} until the first attempt ends, then {@code connected} or {@code down}. */
  String state() {
    return connected() ? "connected" : attempted ? "down" : "connecting";
  }

  @Override
  public Optional<String> unavailable() {
    return connected() ? Optional.empty() : Optional.of(notConnected());
  }

  @Override
  public void onAvailabilityChange(Consumer<String> listener) {
    availabilityListeners.add(listener);
    // a server whose first attempt failed before anyone listened
    if (attempted && !connected()) {
      listener.accept(notConnected());
    }
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
    return "MCP server '" + name + "' is not connected: " + lastError;
  }

  /** Why the server is not connected, or what last went wrong. */
  String lastError() {
    return lastError;
  }

  /**
   * Checks the connection and makes a new one when there is none or it does not answer a ping.
   * Skips when another thread is at it.
   */
  void supervise() {
    if (!connecting.tryLock()) {
      return;
    }
    try {
      McpAsyncClient current = client;
      if (current != null && current == exited) {
        disconnect("its process exited");
      } else if (current != null) {
        try {
          current.ping().block(timeout);
          return;
        } catch (RuntimeException e) {
          disconnect("it stopped answering pings: " + ConnectFailures.describe(e));
          downLog.failed(lastError);
        }
      }
      connect();
    } finally {
      connecting.unlock();
    }
  }

  /**
   * Calls a tool and waits up to the server's {@code timeout}. A call that takes longer is cancelled
   * on the server ({@code notifications/cancelled}) and fails with a {@link TimeoutException}.
   */
  McpSchema.CallToolResult call(String toolName, Map<String, Object> arguments) throws Exception {
    McpAsyncClient current = client;
    CancellingTransport wire = transport;
    if (current == null || wire == null) {
      throw new McpServerDownException(notConnected());
    }
    String key = UUID.randomUUID().toString();
    try {
      McpSchema.CallToolResult result = current.callTool(
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
      checkSoon();
      throw e;
    } catch (RuntimeException e) {
      if (ConnectFailures.hasTimeout(e) || Thread.currentThread().isInterrupted()) {
        cancel(wire, key, "AgentLoop gave up after " + timeout.toMillis() + " ms");
        throw new TimeoutException("MCP server '" + name + "' did not answer '" + toolName + "' within "
            + ConnectFailures.readable(timeout) + "; the call was cancelled on the server");
      }
      checkSoon();
      throw e;
    } finally {
      wire.done(key);
    }
  }

  /** Sends the cancellation without waiting for it: this thread may be interrupted already. */
  private void cancel(CancellingTransport wire, String key, String reason) {
    wire.cancel(key, reason).subscribe(null,
        e -> LOG.debug("MCP server '{}': cancelling a call failed: {}", name, ConnectFailures.describe(e)));
  }

  /** Asks the supervisor to check the connection now, rather than at the next ping. */
  private void checkSoon() {
    try {
      supervisor.execute(this::supervise);
    } catch (RejectedExecutionException e) {
      // the application stops: nothing to reconnect
    }
  }

  void close() {
    availabilityListeners.clear(); // stopping is no failure
    connecting.lock();
    try {
      disconnect("it was stopped");
    } finally {
      connecting.unlock();
    }
  }

  private void connect() {
    Optional<String> missing =
        ConnectFailures.missingCommand(settings).or(() -> ConnectFailures.unreachable(settings));
    if (missing.isPresent()) {
      failed(missing.get());
      return;
    }
    McpClientTransport sdkTransport = McpTransports.create(settings);
    CancellingTransport wire = new CancellingTransport(sdkTransport);
    Duration startup = settings.startupTimeout();
    // the SDK's own limit only bounds what nobody waits for: callers wait with their own time-outs
    McpAsyncClient fresh = McpClient.async(wire)
        .clientInfo(CLIENT)
        .requestTimeout(startup.compareTo(timeout) > 0 ? startup : timeout)
        .initializationTimeout(startup)
        .toolsChangeConsumer(tools -> Mono.fromRunnable(() -> listed(tools)))
        .build();
    try {
      // a node server may take seconds to start on a busy machine: starting has its own time-out
      McpSchema.InitializeResult init = fresh.initialize().block(startup);
      listed(listAll(fresh, startup));
      transport = wire;
      client = fresh;
      attempted = true;
      if (sdkTransport instanceof StdioClientTransport stdio) {
        watchExit(stdio, fresh);
      }
      downLog.connected();
      LOG.info("MCP server '{}' ({} {}) connected over {}: tools {}", name, init.serverInfo().name(),
          init.serverInfo().version(), settings.transport(), tools.keySet());
      availabilityListeners.forEach(listener -> listener.accept(null));
    } catch (RuntimeException e) {
      fresh.close();
      failed(ConnectFailures.describe(settings, e));
    }
  }

  private void failed(String why) {
    lastError = why;
    attempted = true;
    failedAttempts.incrementAndGet();
    downLog.failed(why);
    availabilityListeners.forEach(listener -> listener.accept(notConnected()));
  }

  /**
   * Restarts a stdio server as soon as its process ends, rather than at the next failed ping, which
   * would wait for the request time-out. One waiting daemon thread per stdio server.
   */
  private void watchExit(StdioClientTransport transport, McpAsyncClient watched) {
    Thread watcher = new Thread(() -> {
      try {
        transport.awaitForExit();
      } catch (RuntimeException e) {
        return; // interrupted: the application stops
      }
      exited = watched;
      if (client == watched) {
        lastError = "its process exited";
        downLog.failed(lastError); // a server that keeps crashing says so at a bounded rate
        availabilityListeners.forEach(listener -> listener.accept(notConnected()));
        checkSoon();
      }
    }, "agentloop-mcp-" + name + "-exit");
    watcher.setDaemon(true);
    watcher.start();
  }

  private void disconnect(String why) {
    McpAsyncClient current = client;
    client = null;
    transport = null;
    lastError = why;
    if (current != null) {
      availabilityListeners.forEach(listener -> listener.accept(notConnected()));
    }
    if (current != null) {
      try {
        current.close();
      } catch (RuntimeException e) {
        LOG.debug("closing MCP server '{}' failed", name, e);
      }
    }
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
