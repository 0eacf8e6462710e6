package dev.agentloop.internal.tool;

import dev.agentloop.spi.AgentTool;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Wraps the attempts of one tool call: the {@link ToolRunner} hands over an attempt (run the tool
 * once, under the tool time-out) and the guard decides how often and whether to make it at all
 * (AgentLoop's is in package {@code resilience}: retries and a circuit breaker per tool).
 * Implementations are thread-safe.
 */
public interface ToolCallGuard {

  /** Makes exactly one attempt. */
  ToolCallGuard NONE = (tool, attempt) -> attempt.get();

  /**
   * @param attempt each call makes one attempt; the stage completes with the tool's result or fails with its error
   * @return the result of the last attempt, or fails with its error, or with a {@link ToolUnavailableException}
   *     when the tool was not called at all
   */
  CompletionStage<String> call(AgentTool tool, Supplier<CompletionStage<String>> attempt);
}
