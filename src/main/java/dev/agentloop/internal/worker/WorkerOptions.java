package dev.agentloop.internal.worker;

import java.time.Duration;
import java.util.Objects;

/**
 * How the worker fetches, locks and retries. Validated here so that a bad setting fails the start
 * with a message naming it.
 */
public record WorkerOptions(
    String workerId,
    int maxConcurrency,
    int maxTasksPerFetch,
    Duration lockDuration,
    Duration idleWait,
    int retries,
    Duration retryBackoff,
    int threads,
    Duration shutdownGrace,
    Duration maxTaskTime) {

  public WorkerOptions {
    Objects.requireNonNull(workerId, "workerId");
    positive(maxConcurrency, "maxConcurrency");
    positive(maxTasksPerFetch, "maxTasksPerFetch");
    positive(threads, "threads");
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be >= 0, was " + retries);
    }
    for (Duration d : new Duration[] {lockDuration, idleWait, retryBackoff, shutdownGrace, maxTaskTime}) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(
            "durations must be positive: lockDuration, idleWait, retryBackoff, shutdownGrace, maxTaskTime");
      }
    }
    if (lockDuration.toMillis() < 3) {
      throw new IllegalArgumentException("lockDuration must be at least 3 ms (extended every third), was " + lockDuration);
    }
  }

  /**
   * The back-off after the {@code failures}-th failure (1 for the first), before the next attempt:
   * {@code retryBackoff}, then doubled per further failure (5, 10, 20 s by default), at most 1,024 times it.
   * Not capped by the lock: locks are short and extended while a task runs, a back-off need not fit in one.
   */
  Duration backoffAfter(int failures) {
    return Duration.ofMillis(retryBackoff.toMillis() << Math.min(Math.max(failures - 1, 0), 10));
  }

  private static void positive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, was " + value);
    }
  }
}
