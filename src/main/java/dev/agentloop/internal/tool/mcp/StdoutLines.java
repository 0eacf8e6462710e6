package dev.agentloop.internal.tool.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The JSON mapper of one stdio server's transport, which reads the lines the server writes to its standard
 * output. A server must write only JSON-RPC messages there, yet some print a banner or their logs: the SDK
 * logs such a line as an error with the parser's stack trace and stops reading the server altogether. Here
 * a line that is no JSON-RPC message is ignored instead: the first one is logged as a
 * warning with the line (cut short), the next ones at most once per {@code every} with how many there were,
 * never with a stack trace. One per server, so that a server restarted again and again says it once too. The
 * SDK is handed a logging notification in its place, which it passes to nobody. Everything else is the SDK's
 * own mapper. Thread-safe.
 */
final class StdoutLines implements McpJsonMapper {

  /** What a line is shown by in the log at most. */
  static final int SHOWN_CHARS = 200;

  private final McpJsonMapper json;
  private final Logger log;
  private final String server;
  private final long everyNanos;
  private final LongSupplier nanos;
  private long loggedAt;
  private int ignored;
  private int unlogged;

  StdoutLines(McpJsonMapper json, Logger log, String server, Duration every, LongSupplier nanos) {
    this.json = json;
    this.log = log;
    this.server = server;
    this.everyNanos = every.toNanos();
    this.nanos = nanos;
  }

  @Override
  public <T> T readValue(String content, TypeRef<T> type) throws IOException {
    try {
      T value = json.readValue(content, type);
      if (value instanceof Map<?, ?> message && !isJsonRpc(message)) {
        return ignored(content, type);
      }
      return value;
    } catch (IOException | RuntimeException e) {
      return ignored(content, type);
    }
  }

  /** A request, a notification or a response: what the SDK can take. */
  private static boolean isJsonRpc(Map<?, ?> message) {
    return message.containsKey("method") || message.containsKey("result") || message.containsKey("error");
  }

  private <T> T ignored(String line, TypeRef<T> type) throws IOException {
    note(line);
    Map<String, Object> params = new HashMap<>();
    params.put("level", "debug");
    params.put("logger", "agentloop");
    params.put("data", "ignored a line that is no JSON-RPC message");
    Map<String, Object> stand = new HashMap<>();
    stand.put("jsonrpc", "2.0");
    stand.put("method", "notifications/message");
    stand.put("params", params);
    return json.convertValue(stand, type);
  }

  private synchronized void note(String line) {
    ignored++;
    long now = nanos.getAsLong();
    if (ignored == 1) {
      loggedAt = now;
      log.warn("AGENTLOOP-901 MCP server '{}' wrote a line to its standard output that is no JSON-RPC message;"
          + " it is ignored (a stdio server writes only JSON-RPC there, its own logs to standard error): {}",
          server, shown(line));
    } else if (now - loggedAt >= everyNanos) {
      log.warn("AGENTLOOP-901 MCP server '{}' wrote {} more lines to its standard output that are no JSON-RPC"
          + " messages (ignored), the last: {}", server, unlogged + 1, shown(line));
      loggedAt = now;
      unlogged = 0;
    } else {
      unlogged++;
      log.debug("MCP server '{}': ignored a line that is no JSON-RPC message: {}", server, shown(line));
    }
  }

  private static String shown(String line) {
    String oneLine = line.strip().replaceAll("\\p{Cntrl}", " ");
    return oneLine.length() <= SHOWN_CHARS ? "'" + oneLine + "'" : "'" + oneLine.substring(0, SHOWN_CHARS) + "…'";
  }

  @Override
  public <T> T readValue(String content, Class<T> type) throws IOException {
    return json.readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, Class<T> type) throws IOException {
    return json.readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
    return json.readValue(content, type);
  }

  @Override
  public <T> T convertValue(Object value, Class<T> type) {
    return json.convertValue(value, type);
  }

  @Override
  public <T> T convertValue(Object value, TypeRef<T> type) {
    return json.convertValue(value, type);
  }

  @Override
  public String writeValueAsString(Object value) throws IOException {
    return json.writeValueAsString(value);
  }

  @Override
  public byte[] writeValueAsBytes(Object value) throws IOException {
    return json.writeValueAsBytes(value);
  }
}
