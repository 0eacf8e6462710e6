package dev.agentloop.resilience;

import dev.agentloop.resilience.ResilienceMetrics.Outcome;
import dev.agentloop.tool.AgentTool;
import dev.agentloop.tool.ToolCallGuard;
import dev.agentloop.tool.ToolUnavailableException;
import dev.failsafe.CircuitBreaker;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
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
class GuardedToolCalls implements ToolCallGuard {

  private final Breakers breakers;
  private final ErrorClassifier classifier;
  private final RetrySettings retry;
  private final ResilienceMetrics metrics;
  private final ScheduledExecutorService scheduler;
  private final Map<String, RetryPolicy<String>> retries = new ConcurrentHashMap<>();

  GuardedToolCalls(Breakers breakers, ErrorClassifier classifier, RetrySettings retry, ResilienceMetrics metrics,
      ScheduledExecutorService scheduler) {
    this.breakers = breakers;
    this.classifier = classifier;
    this.retry = retry;
    this.metrics = metrics;
    this.scheduler = scheduler;
  }

  @Override
  public CompletionStage<String> call(AgentTool tool, Supplier<CompletionStage<String>> attempt) {
    Breakers.Kind kind = tool.mcpServer().isPresent() ? Breakers.Kind.MCP : Breakers.Kind.TOOL;
    String target = tool.mcpServer().orElse(tool.name());
    CircuitBreaker<String> breaker = kind == Breakers.Kind.MCP ? breakers.mcpServer(target) : breakers.tool(target);
    long start = System.nanoTime();
    Supplier<CompletionStage<String>> counted = () -> attempt.get().whenComplete((result, error) -> {
      if (error != null && !(ErrorClassifier.unwrap(error) instanceof CircuitBreakerOpenException)) {
        metrics.toolFailure(tool.name(), classifier.classify(error));
        breakers.noteFailure(kind, target, error);
      }
    });
    return Failsafe.with(retryPolicy(tool), breaker).with(scheduler).getStageAsync(counted::get).handle((result, error) -> {
      Duration latency = Duration.ofNanos(System.nanoTime() - start);
      if (error == null) {
        metrics.toolCall(tool.name(), latency, Outcome.SUCCESS);
        return result;
      }
      Throwable failure = ErrorClassifier.unwrap(error);
      if (failure instanceof CircuitBreakerOpenException open) {
        metrics.toolCall(tool.name(), latency, Outcome.REJECTED);
        throw new CompletionException(unavailable(tool.name(), open.getCircuitBreaker().getRemainingDelay(),
            breakers.lastFailure(kind, target)));
      }
      metrics.toolCall(tool.name(), latency, Outcome.FAILURE);
      throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
    });
  }

  private RetryPolicy<String> retryPolicy(AgentTool tool) {
    return retries.computeIfAbsent(tool.name(), name -> !tool.sideEffects() || retry.sideEffects()
        ? RetryPolicies.transientErrors(retry, classifier) : RetryPolicies.noRetries());
  }

  static ToolUnavailableException unavailable(String tool, Duration retryIn, String lastFailure) {
    return new ToolUnavailableException("'" + tool + "' is unavailable: it failed too often lately"
        + (lastFailure == null ? "" : " (last error: " + lastFailure + ")") + ", so AgentLoop does not call it for"
        + " now (circuit breaker open; next try in about " + Math.max(1, retryIn.toSeconds()) + " s). Use another"
        + " tool, or answer with what you have.");
  }
}
