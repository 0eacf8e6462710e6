package dev.agentloop.internal.tool.mcp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * Whether one MCP server can be called, as its listeners (the tool registry) and the log are told: why it
 * is not connected, whether its first attempt ended, how many attempts failed. Apart from {@link ServerConnection},
 * which connects, because this is what the rest of the application learns of its ups and downs.
 * Thread-safe.
 */
final class ServerAvailability {

  private final String name;
  private final DownLog downLog;
  private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicInteger failedAttempts = new AtomicInteger();
  private volatile String lastError = "it is still connecting (first attempt)";
  private volatile boolean attempted;
  /** Whether the server is connected, as the listeners were last told. */
  private boolean up;

  ServerAvailability(String name, Logger log) {
    this.name = name;
    this.downLog = new DownLog(log, name, McpServers.DOWN_LOG_EVERY, System::nanoTime);
  }

  /** Whether the first attempt to connect has ended, either way. */
  boolean attempted() {
    return attempted;
  }

  /** How many attempts to connect have failed so far. */
  int failedAttempts() {
    return failedAttempts.get();
  }

  /** Why the server is not connected, or what last went wrong. */
  String lastError() {
    return lastError;
  }

  /** "MCP server 'x' is not connected: why". */
  String notConnected() {
    return "MCP server '" + name + "' is not connected: " + lastError;
  }

  /**
   * Tells the listener of every change: {@code null} when the server is connected, else why not; and at once
   * why not, when it is not connected now (still connecting for the first time included), so that the breaker
   * panel says what the health says from the start on. Ordered with the changes: a listener never hears of
   * an earlier state after a later one.
   */
  synchronized void listen(Consumer<String> listener) {
    listeners.add(listener);
    if (!up) {
      listener.accept(notConnected());
    }
  }

  /** Stopping is no failure: nobody hears of it. */
  void stopListening() {
    listeners.clear();
  }

  /** An attempt to connect succeeded. */
  synchronized void connected() {
    attempted = true;
    up = true;
    downLog.connected();
    listeners.forEach(listener -> listener.accept(null));
  }

  /** An attempt to connect failed. */
  synchronized void failed(String why) {
    lastError = why;
    up = false;
    attempted = true;
    failedAttempts.incrementAndGet();
    downLog.failed(why);
    tellDown();
  }

  /**
   * The connection is gone (or going) for this reason.
   *
   * @param wasConnected whether there was a connection to lose, which the listeners then hear of
   */
  synchronized void lost(String why, boolean wasConnected) {
    lastError = why;
    up = false;
    if (wasConnected) {
      tellDown();
    }
  }

  /** The connected server died (its process ended): logged at a bounded rate, and the listeners hear of it. */
  synchronized void died(String why) {
    lastError = why;
    up = false;
    downLog.failed(why);
    tellDown();
  }

  /** Logs the last error as an attempt to reach the server that failed (at a bounded rate). */
  void logFailure() {
    downLog.failed(lastError);
  }

  private void tellDown() {
    listeners.forEach(listener -> listener.accept(notConnected()));
  }
}
