package dev.agentloop.internal.tool.mcp;

import dev.agentloop.internal.tool.ToolSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The MCP servers of this node, from {@code agentloop.tools.mcp}. {@link #start} returns at once and
 * connects every server in the background, in parallel (a stdio server's process is started there,
 * once per node), so that no server holds up the application's start; it then supervises them on a
 * small pool of their own: every {@code ping-interval} a connected server is pinged, and one that is down
 * (never reached, died, stopped answering) is connected again, so a dead stdio server is restarted
 * and its tools listed anew. {@link #close} stops them all, stdio processes included.
 *
 * <p>Thread model: calls run on the tool pool and only read a server's current connection; connecting
 * and pinging run on the supervisor threads, at most one per server at a time. Thread-safe.
 */
public final class McpServers implements AutoCloseable {

  /** Server names: no '_', so that {@code <server>__<tool>} tells server and tool apart. */
  private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9-]{1,32}");

  /** While a server stays down with the same cause, its log says so at most this often. */
  static final Duration DOWN_LOG_EVERY = Duration.ofMinutes(5);

  private final Map<String, McpServer> servers;
  private final ScheduledExecutorService supervisor;

  private McpServers(Map<String, McpServer> servers, ScheduledExecutorService supervisor) {
    this.servers = servers;
    this.supervisor = supervisor;
  }

  /**
   * Starts connecting every server in the background, each within its {@code startup-timeout}, and
   * returns without waiting; a server that cannot be reached does not stop the start (its tools are
   * listed once it is), it is tried again every ping interval.
   *
   * @param timeout of one request to a server that sets none
   * @throws IllegalArgumentException naming the server when its name is not allowed
   */
  public static McpServers start(Map<String, McpServerSettings> settings, Duration timeout) {
    settings.keySet().stream().filter(name -> !SERVER_NAME.matcher(name).matches()).findFirst().ifPresent(name -> {
      throw new IllegalArgumentException("agentloop.tools.mcp." + name + ": a server's name must match " + SERVER_NAME
          + " (its tools are called <server>__<tool>)");
    });
    CustomizableThreadFactory threads = new CustomizableThreadFactory("agentloop-mcp-");
    threads.setDaemon(true);
    // no thread at all in an application without MCP servers; up to eight servers connect side by side
    ScheduledExecutorService supervisor = Executors.newScheduledThreadPool(Math.min(8, settings.size()), threads);
    Map<String, McpServer> servers = new LinkedHashMap<>();
    settings.forEach((name, server) -> servers.put(name, new McpServer(name, server, timeout, supervisor)));
    servers.values().forEach(server -> {
      long every = server.settings().pingInterval().toMillis();
      supervisor.scheduleWithFixedDelay(server::supervise, 0, every, TimeUnit.MILLISECONDS);
    });
    return new McpServers(servers, supervisor);
  }

  /** Every server as a source of tools for the registry. */
  public List<ToolSource> sources() {
    return new ArrayList<>(servers.values());
  }

  /** Whether the server of this name is connected now; empty when there is no such server. */
  public Optional<Boolean> connected(String server) {
    return Optional.ofNullable(servers.get(server)).map(McpServer::connected);
  }

  /** Each server's state now: {@code connecting} (first attempt under way), {@code connected} or {@code down}. */
  public Map<String, String> states() {
    Map<String, String> states = new java.util.TreeMap<>();
    servers.values().forEach(server -> states.put(server.name(), server.state()));
    return states;
  }

  /** The servers that are not connected now, each with why (its last error). */
  public Map<String, String> notConnected() {
    Map<String, String> down = new java.util.TreeMap<>();
    servers.values().stream().filter(server -> !server.connected())
        .forEach(server -> down.put(server.name(), server.lastError()));
    return down;
  }

  /** How many attempts to connect the server have failed so far; 0 for an unknown server. */
  int failedAttempts(String server) {
    McpServer found = servers.get(server);
    return found == null ? 0 : found.failedAttempts();
  }

  /** How many servers are configured. */
  public int size() {
    return servers.size();
  }

  /** Checks every server now, as the supervisor does every ping interval, and waits until done. */
  public void superviseNow() {
    servers.values().forEach(McpServer::supervise);
  }

  @Override
  public void close() {
    supervisor.shutdownNow();
    servers.values().forEach(McpServer::close);
  }
}
