package dev.agentloop.internal.tool.mcp;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Why an MCP server could not be reached, in the words an operator acts on: "No such file or directory"
 * for a stdio command that does not exist, "Connection refused" for a url nobody listens on (both found
 * before the SDK tries, since it reports them only as a time-out of initialize), a hint when a url serves
 * the older SSE transport, and the messages of an error's causes without repeats.
 */
final class ConnectFailures {

  private static final Pattern STATUS_NOT_FOUND_OR_NOT_ALLOWED = Pattern.compile("\\b(404|405)\\b");

  private ConnectFailures() {}

  /** Where the server is and what went wrong, with a hint where the cause is a known mistake. */
  static String describe(McpServerSettings settings, RuntimeException e) {
    String where = settings.transport() == McpServerSettings.Transport.STDIO
        ? "command '" + settings.command() + "'" : settings.transport().name().toLowerCase().replace('_', '-')
        + " url " + settings.url();
    String cause = hasTimeout(e) ? "no answer to initialize within " + readable(settings.startupTimeout())
        + (settings.transport() == McpServerSettings.Transport.STDIO
            ? " (the process runs, but wrote no MCP message on stdout: is it an MCP server over stdio?)" : "")
        : describe(e);
    if (cause.length() > 300) {
      cause = cause.substring(0, 300) + "…"; // an error page's HTML says no more than its status
    }
    String hint = settings.transport() == McpServerSettings.Transport.STREAMABLE_HTTP
        && STATUS_NOT_FOUND_OR_NOT_ALLOWED.matcher(cause).find() && McpTransports.servesSse(settings)
        ? "; this url serves the older HTTP+SSE transport (a GET opens an event stream): set transport: sse" : "";
    return where + ": " + cause + hint;
  }

  /**
   * Why the stdio command cannot be started ("No such file or directory"), before the SDK tries:
   * the SDK reports that only as a time-out of initialize.
   */
  static Optional<String> missingCommand(McpServerSettings settings) {
    if (settings.transport() != McpServerSettings.Transport.STDIO) {
      return Optional.empty();
    }
    String command = settings.command();
    if (command.contains("/") || command.contains(File.separator)) {
      Path path = Path.of(command);
      if (settings.workingDirectory() != null && !settings.workingDirectory().isBlank() && !path.isAbsolute()) {
        path = Path.of(settings.workingDirectory()).resolve(path);
      }
      return Files.isExecutable(path) ? Optional.empty() : Optional.of("command '" + command + "': "
          + (Files.exists(path) ? "Permission denied (not executable)" : "No such file or directory"));
    }
    String pathVariable = settings.env().getOrDefault("PATH", System.getenv().getOrDefault("PATH", ""));
    for (String directory : pathVariable.split(File.pathSeparator)) {
      if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, command))) {
        return Optional.empty();
      }
    }
    return Optional.of("command '" + command + "': No such file or directory (not found on the PATH)");
  }

  /**
   * Why the server's host and port take no connection ("Connection refused"), found in a moment: the
   * SDK's SSE client waits for the whole start-up time-out instead, and its streamable HTTP client names
   * no cause.
   */
  static Optional<String> unreachable(McpServerSettings settings) {
    if (settings.transport() == McpServerSettings.Transport.STDIO) {
      return Optional.empty();
    }
    java.net.URI uri = java.net.URI.create(settings.url());
    int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress(uri.getHost(), port),
          (int) Math.min(settings.startupTimeout().toMillis(), 10_000));
      return Optional.empty();
    } catch (java.io.IOException e) {
      return Optional.of(settings.transport().name().toLowerCase().replace('_', '-') + " url " + settings.url()
          + ": cannot connect to " + uri.getHost() + ":" + port + ": " + describe(e));
    }
  }

  /** The messages of an error and its causes, without repeats: what the log and the model read. */
  static String describe(Throwable error) {
    List<String> parts = new ArrayList<>();
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName()
          : t.getMessage();
      if (parts.stream().noneMatch(part -> part.contains(message))) {
        parts.add(message);
      }
    }
    return String.join(": ", parts);
  }

  static String readable(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
  }

  static boolean hasTimeout(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }
}
