package dev.agentloop.internal.async;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * Passes a cancellation back up a chain of futures. A {@code CompletableFuture}'s dependents do not: cancelling
 * what {@code thenApply} returned leaves the stage it depends on running. So a model call whose attempt timed
 * out, or whose run was stopped, would go on at the provider, be paid for, and its reply be thrown away.
 */
public final class Cancellations {

  private Cancellations() {}

  /** Returns {@code dependent}, which, when cancelled, cancels {@code source} (interrupting it, if it can be). */
  public static <T> CompletableFuture<T> passedBack(CompletableFuture<T> dependent, Future<?> source) {
    dependent.whenComplete((result, error) -> {
      if (dependent.isCancelled()) {
        source.cancel(true);
      }
    });
    return dependent;
  }
}
