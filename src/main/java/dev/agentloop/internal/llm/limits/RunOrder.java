package dev.agentloop.internal.llm.limits;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The order in which runs first came to the queue: a run keeps its place for all its calls, so that an older
 * run's next call goes before a newer run's, and runs finish from the first on instead of all at the end.
 * Remembers the most recent runs only (least recently seen forgotten first); a forgotten run that comes back
 * queues as a new one. Not thread-safe: the queue's lock guards it.
 */
final class RunOrder {

  private final Map<String, Long> places;
  private long next;

  RunOrder(int capacity) {
    this.places = new LinkedHashMap<>(1024, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The run's place; a call of no known run ({@code null}) gets a place of its own. */
  long of(String runId) {
    if (runId == null) {
      return next++;
    }
    return places.computeIfAbsent(runId, id -> next++);
  }
}
