package dev.agentloop.internal.llm.limits;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * What went out to the endpoint in the last minute, requests or tokens, against a limit per minute: a
 * sliding window, so that a burst at the start of a minute is not followed by a second one at its end, as a
 * fixed window would allow. An entry can be corrected when the reply says what a call really cost. Not
 * thread-safe: the queue's lock guards it.
 */
final class RateWindow {

  static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

  /** One call's amount, sent at {@code at} ({@link System#nanoTime}). */
  static final class Entry {

    private final long at;
    private long amount;
    private boolean counted = true;

    private Entry(long at, long amount) {
      this.at = at;
      this.amount = amount;
    }
  }

  private final long limit;
  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private long sum;

  /** @param limit per minute, at least 1 */
  RateWindow(long limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a limit per minute must be at least 1, was " + limit);
    }
    this.limit = limit;
  }

  Entry add(long now, long amount) {
    Entry entry = new Entry(now, Math.max(0, amount));
    entries.addLast(entry);
    sum += entry.amount;
    return entry;
  }

  /** What the call really cost, once known; 0 for a call that was not sent after all. */
  void correct(Entry entry, long actual) {
    if (entry.counted) {
      long amount = Math.max(0, actual);
      sum += amount - entry.amount;
      entry.amount = amount;
    }
  }

  /**
   * How long from {@code now} until {@code amount} more fits into the window, in nanoseconds; 0 when it fits
   * now. A call larger than the whole limit goes alone, once the window is empty, rather than never.
   */
  long waitFor(long now, long amount) {
    expire(now);
    if (sum == 0 || sum + amount <= limit) {
      return 0;
    }
    long left = sum;
    for (Entry entry : entries) {
      left -= entry.amount;
      if (left == 0 || left + amount <= limit) {
        return Math.max(1, entry.at + MINUTE - now);
      }
    }
    return Math.max(1, entries.getLast().at + MINUTE - now);
  }

  private void expire(long now) {
    while (!entries.isEmpty() && now - entries.peekFirst().at >= MINUTE) {
      Entry gone = entries.pollFirst();
      gone.counted = false;
      sum -= gone.amount;
    }
  }
}
