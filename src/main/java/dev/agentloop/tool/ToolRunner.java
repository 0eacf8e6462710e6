package dev.agentloop.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.async.AsyncFailures;
import dev.agentloop.tool.ToolOutcome.FailureKind;
import dev.failsafe.Failsafe;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one tool call: finds the tool, checks the arguments against its schema, executes it on the
 * bounded tool pool under a timeout that interrupts a hanging tool. The {@link ToolCallGuard} wraps
 * the attempts (retries, circuit breaker); the time-out applies to each attempt. A tool with a limit
 * of its own ({@link AgentTool#timeout()}, an MCP server's) keeps to it, and its
 * {@link java.util.concurrent.TimeoutException} counts as timed out. Never throws and
 * never completes exceptionally: every problem becomes a {@link ToolOutcome} failure the model can read.
 */
public class ToolRunner {

  private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);

  private final ToolRegistry registry;
  private final ExecutorService pool;
  private final Timeout<String> timeout;
  private final Duration timeoutDuration;
  private final int maxResultChars;
  private final ToolCallGuard guard;

  public ToolRunner(ToolRegistry registry, ExecutorService pool, Duration timeout, int maxResultChars) {
    this(registry, pool, timeout, maxResultChars, ToolCallGuard.NONE);
  }

  public ToolRunner(ToolRegistry registry, ExecutorService pool, Duration timeout, int maxResultChars,
      ToolCallGuard guard) {
    this.guard = guard;
    this.registry = registry;
    this.pool = pool;
    this.timeoutDuration = timeout;
    this.timeout = Timeout.<String>builder(timeout).withInterrupt().build();
    this.maxResultChars = maxResultChars;
  }

  public CompletionStage<ToolOutcome> run(String toolName, JsonNode arguments) {
    Optional<ToolOutcome.Failure> refusal = registry.refusal(toolName, arguments, null);
    if (refusal.isPresent()) {
      return CompletableFuture.completedFuture(ToolOutcome.failure(refusal.get().kind(), refusal.get().message()));
    }
    AgentTool tool = registry.find(toolName).orElseThrow();
    // a tool with a limit of its own (an MCP server's timeout) enforces it, and cancels on its side;
    // ours then only catches a tool that fails to, a second later
    Timeout<String> limit = tool.timeout()
        .map(own -> Timeout.<String>builder(own.plusSeconds(1)).withInterrupt().build()).orElse(timeout);
    return guard.call(tool, () -> Failsafe.with(limit).with(pool).getAsync(() -> tool.execute(arguments)))
        .handle((result, error) -> error == null ? success(toolName, result) : failure(tool, error));
  }

  private ToolOutcome success(String toolName, String result) {
    if (result == null) {
      return ToolOutcome.success("");
    }
    if (result.length() > maxResultChars) {
      return ToolOutcome.success(result.substring(0, maxResultChars)
          + "\n[cut: " + (result.length() - maxResultChars) + " more characters]");
    }
    return ToolOutcome.success(result);
  }

  private ToolOutcome failure(AgentTool tool, Throwable error) {
    String toolName = tool.name();
    Throwable cause = AsyncFailures.unwrap(error);
    if (cause instanceof TimeoutExceededException) {
      return ToolOutcome.failure(FailureKind.TIMED_OUT,
          "'" + toolName + "' did not finish within " + readable(tool.timeout().orElse(timeoutDuration)));
    }
    if (cause instanceof TimeoutException) {
      // the tool's own limit (an MCP server's timeout), with its own words
      return ToolOutcome.failure(FailureKind.TIMED_OUT, "'" + toolName + "' timed out: " + describe(cause));
    }
    if (cause instanceof ToolUnavailableException) {
      return ToolOutcome.failure(FailureKind.UNAVAILABLE, cause.getMessage());
    }
    if (cause instanceof ToolException) {
      return ToolOutcome.failure(FailureKind.FAILED, cause.getMessage());
    }
    LOG.warn("tool '{}' failed", toolName, cause);
    return ToolOutcome.failure(FailureKind.FAILED, "'" + toolName + "' failed: " + describe(cause));
  }

  private static String readable(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
  }

  private static String describe(Throwable cause) {
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
