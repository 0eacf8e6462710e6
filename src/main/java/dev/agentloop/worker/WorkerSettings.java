package dev.agentloop.worker;

import java.time.Duration;
import java.util.Objects;

/**
 * How the worker fetches, locks and retries. Validated here so that a bad setting fails the start
 * with a message naming it.
 */
public record WorkerSettings(
    String workerId,
    int maxConcurrency,
    int maxTasksPerFetch,
    Duration lockDuration,
    Duration idleWait,
    int retries,
    Duration retryBackoff,
    int threads,
    Duration shutdownGrace) {

  public WorkerSettings {
    Objects.requireNonNull(workerId, "workerId");
    positive(maxConcurrency, "maxConcurrency");
    positive(maxTasksPerFetch, "maxTasksPerFetch");
    positive(threads, "threads");
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be >= 0, was " + retries);
    }
    for (Duration d : new Duration[] {lockDuration, idleWait, retryBackoff, shutdownGrace}) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("durations must be positive: lockDuration, idleWait, retryBackoff, shutdownGrace");
      }
    }
  }

  /** The back-off before attempt {@code failures + 1}: doubled per failure, at most the lock duration. */
  Duration backoffAfter(int failures) {
    long millis = retryBackoff.toMillis() << Math.min(Math.max(failures - 1, 0), 20);
    return Duration.ofMillis(Math.min(millis, lockDuration.toMillis()));
  }

  private static void positive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, was " + value);
    }
  }
}
