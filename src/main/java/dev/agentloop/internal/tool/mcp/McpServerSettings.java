package dev.agentloop.internal.tool.mcp;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One MCP server, as declared in {@code agentloop.tools.mcp.<server>}: either a {@code command} that
 * AgentLoop starts and talks to over stdio, or the {@code url} of a server that runs elsewhere.
 * Immutable.
 *
 * @param command the program to start (stdio), e.g. {@code npx}; found on the PATH
 * @param args its arguments
 * @param env environment variables for it, besides PATH, HOME and the like; the server never sees
 *     the rest of AgentLoop's environment (no API keys leak to it)
 * @param workingDirectory where it starts; default: AgentLoop's working directory
 * @param url the server's endpoint (streamable HTTP or SSE), e.g. {@code https://mcp.example.com/mcp}
 * @param headers sent with every HTTP request, e.g. {@code Authorization: Bearer ${FILES_MCP_TOKEN}}
 *     (take secrets from the environment with a placeholder)
 * @param transport how to talk to a {@code url}: {@code streamable-http} (default) or {@code sse}, the
 *     older HTTP+SSE transport of servers that offer only that
 * @param timeout how long one request may take; default: {@code agentloop.tools.timeout}
 * @param startupTimeout how long starting, initialising and listing the tools may take. Default 60 s
 * @param pingInterval how often the connection is checked (and a dead server restarted). Default 10 s
 */
public record McpServerSettings(
    String command,
    List<String> args,
    Map<String, String> env,
    String workingDirectory,
    String url,
    Map<String, String> headers,
    Transport transport,
    Duration timeout,
    Duration startupTimeout,
    Duration pingInterval) {

  /** How AgentLoop talks to the server. */
  public enum Transport { STDIO, STREAMABLE_HTTP, SSE }

  public McpServerSettings {
    boolean stdio = command != null && !command.isBlank();
    boolean http = url != null && !url.isBlank();
    if (stdio == http) {
      throw new IllegalArgumentException("an MCP server needs either a command (stdio) or a url (HTTP), not "
          + (stdio ? "both" : "neither"));
    }
    if (http) {
      URI uri = URI.create(url);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
        throw new IllegalArgumentException("url '" + url + "' must be http or https");
      }
    }
    if (transport == Transport.STDIO && http || transport != null && transport != Transport.STDIO && stdio) {
      throw new IllegalArgumentException("transport " + transport + " does not fit a " + (stdio ? "command" : "url"));
    }
    transport = stdio ? Transport.STDIO : transport == null ? Transport.STREAMABLE_HTTP : transport;
    args = args == null ? List.of() : List.copyOf(args);
    env = env == null ? Map.of() : Map.copyOf(env);
    headers = headers == null ? Map.of() : Map.copyOf(headers);
    requirePositive(timeout, "timeout");
    startupTimeout = requirePositive(startupTimeout, "startup-timeout") == null ? Duration.ofSeconds(60) : startupTimeout;
    pingInterval = requirePositive(pingInterval, "ping-interval") == null ? Duration.ofSeconds(10) : pingInterval;
  }

  /** A stdio server. */
  public static McpServerSettings stdio(String command, List<String> args) {
    return new McpServerSettings(command, args, null, null, null, null, null, null, null, null);
  }

  /** A streamable HTTP server. */
  public static McpServerSettings http(String url) {
    return new McpServerSettings(null, null, null, null, url, null, null, null, null, null);
  }

  private static Duration requirePositive(Duration duration, String name) {
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException(name + " must be positive, not " + duration);
    }
    return duration;
  }
}
