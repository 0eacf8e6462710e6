package dev.agentloop.internal.resilience;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * How many model calls are under way at once: as many as the model has threads
 * ({@code agentloop.llm.max-concurrent-calls}). A call beyond that waits here, in order, holding no
 * thread, until one ends; only then does it enter its guard, whose time-out and breaker so measure the
 * endpoint, never the queue in front of it. Without this, a call that waited for a pool thread longer
 * than the time-out counted as the endpoint's failure (the breaker opened on a model that answered every
 * request), and its attempt was still sent later, paid for and counted by no run. Thread-safe.
 */
final class CallSlots {

  private final int capacity;
  private final Deque<CompletableFuture<Void>> waiting = new ArrayDeque<>();
  private int taken;

  CallSlots(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  /** Runs {@code call} once a slot is free, and frees the slot when the stage it returned completes. */
  <R> CompletionStage<R> run(Supplier<CompletionStage<R>> call) {
    return take().thenCompose(free -> {
      try {
        return call.get();
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }).whenComplete((result, error) -> free());
  }

  /** The calls waiting for a slot now. */
  synchronized int waiting() {
    return waiting.size();
  }

  private synchronized CompletableFuture<Void> take() {
    if (taken < capacity) {
      taken++;
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> turn = new CompletableFuture<>();
    waiting.add(turn);
    return turn;
  }

  /** Hands the slot to the longest-waiting call, outside the lock, since that call starts on this thread. */
  private void free() {
    CompletableFuture<Void> next;
    synchronized (this) {
      next = waiting.poll();
      if (next == null) {
        taken--;
        return;
      }
    }
    next.complete(null);
  }
}
