package dev.agentloop.internal.resilience;

import dev.agentloop.internal.budget.Budget;
import java.time.Duration;
import java.util.Objects;

/**
 * The escape thresholds of one agent: its budget, the run time of its agent loop (read by the loop's boundary timer)
 * and its loop-detection limits.
 */
public record EscapeLimits(Budget budget, Duration maxRunTime, LoopDetector.Limits loop) {

  /** No limit that could matter: for code that builds settings by hand. */
  public static final EscapeLimits NONE = new EscapeLimits(Budget.NONE, Duration.ofDays(3650),
      new LoopDetector.Limits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));

  public EscapeLimits {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(maxRunTime, "maxRunTime");
    Objects.requireNonNull(loop, "loop");
  }

  /** These limits with a budget of {@code steps} model turns. */
  public EscapeLimits withMaxSteps(int steps) {
    return new EscapeLimits(budget.withMaxSteps(steps), maxRunTime, loop);
  }
}
