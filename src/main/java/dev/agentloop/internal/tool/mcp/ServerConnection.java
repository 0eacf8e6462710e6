package dev.agentloop.internal.tool.mcp;

import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one {@link McpServer}'s connection is kept: checked by a ping, made anew when there is none or it does not
 * answer (for stdio: the process started again), at once when a stdio server's process ends or a call failed on the
 * wire. Apart from the server, which is the source of tools the registry sees, because this is the part that talks to
 * the process and the network. One attempt at a time; a check while another runs is skipped. Thread-safe.
 */
final class ServerConnection {

  /** The server's logger: an operator filters one logger for all a server says of itself. */
  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);

  private final McpServer server;
  private final ServerAvailability availability;
  private final Consumer<List<McpSchema.Tool>> onList;
  private final Executor supervisor;
  private final StdoutLines stdout;
  private final ReentrantLock connecting = new ReentrantLock();
  private volatile McpConnection connection;
  /** The connection whose stdio process ended, so that the supervisor connects anew without a ping first. */
  private volatile McpConnection exited;

  /**
   * @param onList told the tools the server lists, on every connection and whenever it lists them anew
   * @param supervisor where a reconnection asked for by a failed call runs
   */
  ServerConnection(McpServer server, ServerAvailability availability, Consumer<List<McpSchema.Tool>> onList,
      Executor supervisor) {
    this.server = server;
    this.availability = availability;
    this.onList = onList;
    this.supervisor = supervisor;
    this.stdout = new StdoutLines(McpJsonDefaults.getMapper(), LOG, server.name(), McpServers.DOWN_LOG_EVERY,
        System::nanoTime);
  }

  boolean connected() {
    return connection != null;
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
      McpConnection current = connection;
      if (current != null && current == exited) {
        disconnect("its process exited");
      } else if (current != null) {
        try {
          current.ping();
          return;
        } catch (RuntimeException e) {
          disconnect("it stopped answering pings: " + ConnectFailures.describe(e));
          availability.logFailure();
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
    McpConnection current = connection;
    if (current == null) {
      throw new McpServerDownException(availability.notConnected());
    }
    return current.call(toolName, arguments, this::checkSoon);
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
    connecting.lock();
    try {
      disconnect("it was stopped");
    } finally {
      connecting.unlock();
    }
  }

  private void connect() {
    McpServerSettings settings = server.settings();
    Optional<String> missing =
        ConnectFailures.missingCommand(settings).or(() -> ConnectFailures.unreachable(settings));
    if (missing.isPresent()) {
      availability.failed(missing.get());
      return;
    }
    McpConnection fresh = null;
    try {
      fresh = McpConnection.open(server.name(), settings, server.timeout(), stdout, onList);
      connection = fresh;
      Optional<StdioClientTransport> process = fresh.process();
      if (process.isPresent()) {
        watchExit(process.get(), fresh);
      }
      LOG.info("MCP server '{}' ({} {}) connected over {}: tools {}", server.name(), fresh.serverInfo().name(),
          fresh.serverInfo().version(), settings.transport(), server.tools().keySet());
      availability.connected();
    } catch (RuntimeException e) {
      if (fresh != null) {
        fresh.close();
      }
      availability.failed(ConnectFailures.describe(settings, e));
    }
  }

  /**
   * Restarts a stdio server as soon as its process ends, rather than at the next failed ping, which
   * would wait for the request time-out. One waiting daemon thread per stdio server.
   */
  private void watchExit(StdioClientTransport process, McpConnection watched) {
    Thread watcher = new Thread(() -> {
      try {
        process.awaitForExit();
      } catch (RuntimeException e) {
        return; // interrupted: the application stops
      }
      exited = watched;
      if (connection == watched) {
        availability.died("its process exited"); // a server that keeps crashing says so at a bounded rate
        checkSoon();
      }
    }, "agentloop-mcp-" + server.name() + "-exit");
    watcher.setDaemon(true);
    watcher.start();
  }

  private void disconnect(String why) {
    McpConnection current = connection;
    connection = null;
    availability.lost(why, current != null);
    if (current != null) {
      try {
        current.close();
      } catch (RuntimeException e) {
        LOG.debug("closing MCP server '{}' failed", server.name(), e);
      }
    }
  }
}
