package dev.agentloop.internal.tool.mcp;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The log of one MCP server that is down, kept short: the first failure and every new cause are
 * logged at once, the same cause again at most once per {@code every}, with how many attempts failed
 * since; never with a stack trace, since the cause is the server's, not AgentLoop's. Thread-safe.
 */
final class DownLog {

  private final Logger log;
  private final String server;
  private final Duration every;
  private final LongSupplier nanos;
  private String cause;
  private long loggedAt;
  private int unlogged;

  DownLog(Logger log, String server, Duration every, LongSupplier nanos) {
    this.log = log;
    this.server = server;
    this.every = every;
    this.nanos = nanos;
  }

  /** An attempt to reach the server failed with this cause. */
  synchronized void failed(String why) {
    long now = nanos.getAsLong();
    if (!why.equals(cause)) {
      cause = why;
      loggedAt = now;
      unlogged = 0;
      log.warn("AGENTLOOP-014 MCP server '{}' is not connected: {}; trying again in the background. Start the"
          + " server, or correct agentloop.tools.mcp.{}", server, why, server);
    } else if (now - loggedAt >= every.toNanos()) {
      log.warn("AGENTLOOP-014 MCP server '{}' is still not connected ({} more attempts failed): {}", server,
          unlogged + 1, why);
      loggedAt = now;
      unlogged = 0;
    } else {
      unlogged++;
    }
  }

  /** The server is connected (again): the next failure is news. */
  synchronized void connected() {
    cause = null;
    unlogged = 0;
  }
}
