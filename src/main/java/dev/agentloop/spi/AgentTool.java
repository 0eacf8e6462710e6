package dev.agentloop.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Optional;

/**
 * A tool the model can call. Register one as a Spring bean and list its name in an agent's
 * {@code allowedTools}. Arguments are checked against {@link #parameters()} before
 * {@link #execute(JsonNode)} is called, so an implementation may rely on their shape.
 *
 * <p>Implementations must be thread-safe: one instance serves all runs. {@code execute} runs on
 * the tool pool with a timeout and is interrupted when the timeout passes.
 */
public interface AgentTool {

  /** Unique, as the model sees it: letters, digits, '_' and '-', at most 64 characters. */
  String name();

  /** What the tool does and when to use it, for the model. */
  String description();

  /** JSON Schema (draft 2020-12) of the arguments object. */
  JsonNode parameters();

  /**
   * Whether a call changes the world (sends, writes, books). Side-effecting calls need a person's
   * approval by default and are never repeated silently after an edit. Default: {@code false}.
   */
  default boolean sideEffects() {
    return false;
  }

  /**
   * Whether the tool treats text arguments without regard to case, so that {@code "Berlin"} and
   * {@code "berlin"} are the same call (loop detection compares calls by their normalised arguments).
   * Default: {@code false}.
   */
  default boolean caseInsensitiveArguments() {
    return false;
  }

  /**
   * The MCP server whose tool this is; empty for a tool of this application. All tools of one server
   * share one circuit breaker, since they fail together when the server is down. Default: empty.
   */
  default Optional<String> mcpServer() {
    return Optional.empty();
  }

  /**
   * How long one call may take, when the tool has a limit of its own (an MCP server's {@code timeout});
   * empty for {@code agentloop.tools.timeout}. Default: empty.
   */
  default Optional<Duration> timeout() {
    return Optional.empty();
  }

  /**
   * Runs the tool.
   *
   * @return the observation the model will see
   * @throws ToolException for a failure the model should read and work around
   * @throws Exception for anything else; the message reaches the model as an error observation
   */
  String execute(JsonNode arguments) throws Exception;
}
