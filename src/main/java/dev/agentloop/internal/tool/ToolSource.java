package dev.agentloop.internal.tool;

import dev.agentloop.spi.AgentTool;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Tools that come and go while the application runs, such as those of an MCP server: listed when
 * the server has been reached, listed anew when it says its tools changed. The {@link ToolRegistry}
 * asks a source for its current tools on every look-up. Implementations are thread-safe.
 */
public interface ToolSource {

  /** The source's name, e.g. the MCP server's: its tools share one circuit breaker named after it. */
  String name();

  /**
   * The tools offered now, by name. Returns the same map instance for as long as the tools have not
   * changed, so that the registry compiles their schemas once per listing.
   */
  Map<String, AgentTool> tools();

  /**
   * Whether a tool name is this source's to list, even while the source has not listed it (yet):
   * a name that start-up and deploy-time checks must not reject as unknown while the source is down.
   */
  boolean claims(String toolName);

  /** Whether the source has listed its tools at least once, so that {@link #tools()} is complete. */
  boolean listed();

  /** Why the source cannot serve calls now (e.g. "MCP server 'x' is not connected: …"); empty when it can. */
  default Optional<String> unavailable() {
    return Optional.empty();
  }

  /**
   * Registers a listener told whenever the source becomes unavailable (with {@link #unavailable()}'s
   * text) or available again ({@code null}), e.g. to keep its circuit breaker in step; told at once
   * when the source is not available now (an MCP server still connecting for the first time too).
   * Default: never told.
   */
  default void onAvailabilityChange(Consumer<String> listener) {}

  /**
   * What to offer for a tool this source claims but has never listed (it was never reached): a tool
   * whose calls fail with why, so that an agent allowing it is not silently left without it. Empty once
   * the source has listed its tools, or for a name it does not claim. Default: empty.
   */
  default Optional<AgentTool> placeholder(String toolName) {
    return Optional.empty();
  }
}
