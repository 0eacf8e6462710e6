package dev.agentloop.internal.resilience;

import dev.agentloop.internal.resilience.ResilienceMetrics.Outcome;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolCallGuard;
import dev.agentloop.internal.tool.ToolUnavailableException;
import dev.failsafe.CircuitBreaker;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * The tools' {@link ToolCallGuard}: retry (transient errors; tools with side effects only when
 * {@code retry.side-effects} allows) → the tool's circuit breaker (its MCP server's, for a tool of
 * an MCP server) → the attempt, which runs the tool
 * under the tool time-out. An open breaker fails the call at once with a
 * {@link ToolUnavailableException}, without calling the tool. Attempts and retry delays run on the given
 * scheduler (AgentLoop's threads), never on the JDK's common pool. Thread-safe.
 */
class ToolGuard implements ToolCallGuard {

  private final Breakers breakers;
  private final ErrorClassifier classifier;
  private final RetrySettings retry;
  private final ResilienceMetrics metrics;
  private final CallPipeline calls;
  private final Map<String, RetryPolicy<String>> retries = new ConcurrentHashMap<>();

  ToolGuard(Breakers breakers, ErrorClassifier classifier, RetrySettings retry, ResilienceMetrics metrics,
      ScheduledExecutorService scheduler) {
    this.breakers = breakers;
    this.classifier = classifier;
    this.retry = retry;
    this.metrics = metrics;
    this.calls = new CallPipeline(breakers, classifier, scheduler);
  }

  @Override
  public CompletionStage<String> call(AgentTool tool, Supplier<CompletionStage<String>> attempt) {
    Breakers.Kind kind = tool.mcpServer().isPresent() ? Breakers.Kind.MCP : Breakers.Kind.TOOL;
    String target = tool.mcpServer().orElse(tool.name());
    CircuitBreaker<String> breaker = kind == Breakers.Kind.MCP ? breakers.mcpServer(target) : breakers.tool(target);
    return calls.call(calls.pipeline(retryPolicy(tool), breaker), new ToolCall(tool.name(), kind, target), attempt);
  }

  /**
   * A tool with side effects is retried only when {@code retry.side-effects} allows, and never after an
   * attempt timed out: that attempt may still run where the tool runs (an MCP server that has not
   * stopped it yet), and a second one would do the same thing twice.
   */
  private RetryPolicy<String> retryPolicy(AgentTool tool) {
    return retries.computeIfAbsent(tool.name(), name -> !tool.sideEffects()
        ? RetryPolicies.transientErrors(retry, classifier)
        : retry.sideEffects() ? RetryPolicies.transientErrorsUntilTimeout(retry, classifier) : RetryPolicies.noRetries());
  }

  /** One call of a tool, guarded by the tool's breaker or its MCP server's ({@code target}). */
  private final class ToolCall implements CallPipeline.Call<String> {

    private final String tool;
    private final Breakers.Kind kind;
    private final String target;

    ToolCall(String tool, Breakers.Kind kind, String target) {
      this.tool = tool;
      this.kind = kind;
      this.target = target;
    }

    @Override
    public Breakers.Kind kind() {
      return kind;
    }

    @Override
    public String target() {
      return target;
    }

    @Override
    public void attemptFailed(ErrorClass errorClass) {
      metrics.toolFailure(tool, errorClass);
    }

    @Override
    public void finished(String result, Outcome outcome, Duration latency) {
      metrics.toolCall(tool, latency, outcome);
    }

    @Override
    public Throwable refused(long openForSeconds, String lastFailure) {
      if (kind == Breakers.Kind.MCP && lastFailure != null
          && lastFailure.startsWith("MCP server '" + target + "' is not connected")) {
        // not a tool that failed too often: its server is down, and that says why
        return new ToolUnavailableException("'" + tool + "' is unavailable: " + lastFailure + " (circuit breaker open;"
            + " next try in about " + openForSeconds + " s). Use another tool, or answer with what you have.");
      }
      return new ToolUnavailableException("'" + tool + "' is unavailable: " + CallPipeline.FAILED_TOO_OFTEN
          + (lastFailure == null ? "" : " (last error: " + lastFailure + ")") + ", so AgentLoop does not call it for"
          + " now (circuit breaker open; next try in about " + openForSeconds + " s). Use another"
          + " tool, or answer with what you have.");
    }
  }
}
