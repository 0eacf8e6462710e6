package dev.agentloop.internal.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * The escape thresholds of one agent: its budgets beyond {@code maxSteps}, the run time of its agent
 * loop (read by the loop's boundary timer) and its loop-detection limits.
 *
 * @param maxTokens 0: no token budget
 */
public record EscapeLimits(int maxModelCalls, int maxToolCalls, long maxTokens, Duration maxRunTime,
    LoopDetector.Limits loop) {

  /** No limit that could matter: for code that builds settings by hand. */
  public static final EscapeLimits NONE = new EscapeLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, 0,
      Duration.ofDays(3650), new LoopDetector.Limits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));

  public EscapeLimits {
    Objects.requireNonNull(maxRunTime, "maxRunTime");
    Objects.requireNonNull(loop, "loop");
  }

  public Budget budget(int maxSteps) {
    return new Budget(maxSteps, maxModelCalls, maxToolCalls, maxTokens);
  }
}
