package dev.agentloop.internal.llm.limits;

/**
 * The endpoint's limits and what is used of them: calls under way against {@code maxInFlight}, requests and
 * tokens in the last minute against their limits, and the pause the provider asked for. Which call may go next
 * is the {@link ModelQueue}'s; whether one may go now, and from when on, is this class's. Not thread-safe: the
 * queue's lock guards it.
 */
final class EndpointLimits {

  private final int maxInFlight;
  private final RateWindow requests;
  private final RateWindow tokens;
  private int inFlight;
  private long pausedUntil;

  /** @param maxInFlight 0: no limit; @param requestsPerMinute 0: none; @param tokensPerMinute 0: none */
  EndpointLimits(int maxInFlight, int requestsPerMinute, int tokensPerMinute) {
    if (maxInFlight < 0 || requestsPerMinute < 0 || tokensPerMinute < 0) {
      throw new IllegalArgumentException("limits must not be negative (0: none), were max-in-flight " + maxInFlight
          + ", requests-per-minute " + requestsPerMinute + ", tokens-per-minute " + tokensPerMinute);
    }
    this.maxInFlight = maxInFlight == 0 ? Integer.MAX_VALUE : maxInFlight;
    this.requests = requestsPerMinute == 0 ? null : new RateWindow(requestsPerMinute);
    this.tokens = tokensPerMinute == 0 ? null : new RateWindow(tokensPerMinute);
  }

  boolean slotFree() {
    return inFlight < maxInFlight;
  }

  int inFlight() {
    return inFlight;
  }

  /** How long from {@code now} until a call of {@code callTokens} may go, in nanoseconds; 0: now. */
  long blockedFor(long now, long callTokens) {
    long wait = Math.max(0, pausedUntil - now);
    if (requests != null) {
      wait = Math.max(wait, requests.waitFor(now, 1));
    }
    if (tokens != null) {
      wait = Math.max(wait, tokens.waitFor(now, callTokens));
    }
    return wait;
  }

  /** Counts the call as under way, sent at {@code now}. */
  void admit(QueuedCall<?> call, long now) {
    inFlight++;
    call.request = requests == null ? null : requests.add(now, 1);
    call.tokens = tokens == null ? null : tokens.add(now, call.ticket.tokens());
  }

  /** The call ended; one that was not sent after all counts for nothing. */
  void release(QueuedCall<?> call, boolean unsent) {
    inFlight--;
    if (unsent) {
      if (call.request != null) {
        requests.correct(call.request, 0);
      }
      used(call, 0);
    }
  }

  /** What the reply said the call cost in tokens. */
  void used(QueuedCall<?> call, long used) {
    if (call.tokens != null) {
      tokens.correct(call.tokens, used);
    }
  }

  /** @return whether this starts a pause (rather than lengthening one) */
  boolean pauseUntil(long until, long now) {
    boolean starts = pausedUntil - now <= 0;
    if (until - pausedUntil > 0) {
      pausedUntil = until;
      return starts;
    }
    return false;
  }

  /** How many more calls could start now, with {@code waiting} calls in the queue. */
  int room(int waiting, long now) {
    if (pausedUntil - now > 0) {
      return 0;
    }
    if (maxInFlight == Integer.MAX_VALUE) {
      return waiting == 0 ? Integer.MAX_VALUE : 0;
    }
    return Math.max(0, maxInFlight - inFlight - waiting);
  }
}
