package dev.agentloop.internal.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import dev.agentloop.internal.tool.ToolOutcome.FailureKind;
import dev.failsafe.Failsafe;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one tool call: finds the tool, checks the arguments against its schema, executes it on the
 * tool threads under a timeout that interrupts a hanging tool. Each tool runs at most
 * {@code callsPerTool} calls at once ({@link ToolLane}, a bulkhead per tool): a tool whose calls hang
 * holds its own share of the threads, and every other tool's calls still run at once. The {@link ToolCallGuard} wraps
 * the attempts (retries, circuit breaker); the time-out applies to each attempt. A tool with a limit
 * of its own ({@link AgentTool#timeout()}, an MCP server's) keeps to it, and its
 * {@link java.util.concurrent.TimeoutException} counts as timed out. Never throws and
 * never completes exceptionally: every problem becomes a {@link ToolOutcome} failure the model can read.
 */
public class ToolRunner {

  private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);
  /** How long past its time-out a call that ignores the interrupt is waited for before it is given up. */
  private static final long STUBBORN_GRACE_MILLIS = 250;

  private final ToolRegistry registry;
  private final ExecutorService pool;
  private final int callsPerTool;
  private final Map<String, ToolLane> lanes = new ConcurrentHashMap<>();
  private final Timeout<String> timeout;
  private final Duration timeoutDuration;
  private final int maxResultChars;
  private final ToolCallGuard guard;

  /** Calls run on {@code pool} with no bulkhead per tool: the pool's size bounds them all together. */
  public ToolRunner(ToolRegistry registry, ExecutorService pool, Duration timeout, int maxResultChars) {
    this(registry, pool, timeout, Integer.MAX_VALUE, maxResultChars, ToolCallGuard.NONE);
  }

  /**
   * @param pool the tool threads; with a bulkhead per tool an elastic pool, which the lanes bound
   * @param callsPerTool calls of one tool at once, the others wait without a thread
   */
  public ToolRunner(ToolRegistry registry, ExecutorService pool, Duration timeout, int callsPerTool,
      int maxResultChars, ToolCallGuard guard) {
    this.guard = guard;
    this.registry = registry;
    this.pool = pool;
    this.callsPerTool = callsPerTool;
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
    ExecutorService lane = callsPerTool == Integer.MAX_VALUE ? pool
        : lanes.computeIfAbsent(toolName, name -> new ToolLane(pool, callsPerTool));
    return guard.call(tool, () -> attempt(tool, lane, arguments))
        .handleAsync((result, error) -> error == null ? success(toolName, result) : failure(tool, error), pool);
  }

  /**
   * One attempt under the time-out. Failsafe interrupts the call at its time-out but then waits for it
   * to return: a tool that ignores the interrupt keeps its thread (and its slot in its tool's lane),
   * but not the run, whose call ends at the time-out all the same. A tool with a limit of its own (an
   * MCP server's timeout) enforces it, and cancels on its side; ours then only catches a tool that fails
   * to, a second later.
   */
  private CompletableFuture<String> attempt(AgentTool tool, ExecutorService lane, JsonNode arguments) {
    Duration limit = tool.timeout().map(own -> own.plusSeconds(1)).orElse(timeoutDuration);
    Timeout<String> policy = tool.timeout().isEmpty() ? timeout : Timeout.<String>builder(limit).withInterrupt().build();
    return Failsafe.with(policy).with(lane).getAsync(() -> tool.execute(arguments)).copy()
        .orTimeout(limit.toMillis() + STUBBORN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
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
    // Failsafe's time-out, or ours for a tool that ignores its interrupt (a TimeoutException without words)
    if (cause instanceof TimeoutExceededException || cause instanceof TimeoutException && cause.getMessage() == null) {
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
    if (cause instanceof InputRequiredException) {
      return ToolOutcome.failure(FailureKind.INPUT_REQUIRED, cause.getMessage());
    }
    if (cause instanceof ToolException) {
      return ToolOutcome.failure(FailureKind.FAILED, cause.getMessage());
    }
    if (tool.mcpServer().isPresent()) {
      // the server's failure (down, gone mid-call, an error of its own), not a fault here: its cause in a line,
      // the stack trace only for who asks; the server's own log says why it is down
      LOG.warn("AGENTLOOP-902 tool '{}' of MCP server '{}' failed: {}", toolName, tool.mcpServer().get(),
          describe(cause));
      LOG.debug("tool '{}' failed", toolName, cause);
    } else {
      LOG.warn("AGENTLOOP-013 tool '{}' failed (the model read why); fix the tool if the stack trace shows a fault"
          + " of its own", toolName, cause);
    }
    return ToolOutcome.failure(FailureKind.FAILED, "'" + toolName + "' failed: " + describe(cause));
  }

  private static String readable(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
  }

  private static String describe(Throwable cause) {
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
