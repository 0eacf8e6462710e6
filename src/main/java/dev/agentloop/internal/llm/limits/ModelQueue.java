package dev.agentloop.internal.llm.limits;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls to the model endpoint, within the limits its provider sets: at most {@code maxInFlight} under way
 * at once, optionally at most so many requests and tokens per minute, and none while the provider asked to
 * wait ({@link #answered}: {@code Retry-After}, rate-limit headers). A call beyond them waits here, holding no
 * thread, and only once admitted does its guard start, whose time-out and breaker so measure the endpoint,
 * never the queue in front of it.
 *
 * <p>Waiting calls go in the order of their runs ({@link RunOrder}): the run that came first goes first, so that
 * a thousand runs on a slow model do not advance in lockstep, each step behind all the others', but finish from
 * the first on. A call that waited is asked before it is sent whether its step still wants it
 * ({@link CallTicket#stillWanted}); one that does not is never sent ({@link CallNotSent}). How many wait is a gauge
 * and each run's place is shown in its live line ({@link #ahead}); the worker takes no more steps than there is
 * {@link #room} for, so that the rest waits in the database where any node can take it. Thread-safe.
 */
public final class ModelQueue {

  private static final Logger LOG = LoggerFactory.getLogger(ModelQueue.class);
  /** A call admitted within this of its arrival did not wait: the step that made it is as current as then. */
  private static final long WAITED_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final EndpointLimits limits;
  private final AdmissionPump pump;
  private final LongSupplier clock;
  private final WaitingLine waiting = new WaitingLine();
  private final RoomSignal roomSignal = new RoomSignal(this::room);
  private volatile String endpoint = "the model endpoint";

  /**
   * @param maxInFlight calls under way at once; 0: no limit
   * @param requestsPerMinute 0: no limit
   * @param tokensPerMinute 0: no limit
   * @param timer wakes the queue when a pause or a window ends
   */
  public ModelQueue(int maxInFlight, int requestsPerMinute, int tokensPerMinute, ScheduledExecutorService timer) {
    this(maxInFlight, requestsPerMinute, tokensPerMinute, timer, System::nanoTime);
  }

  ModelQueue(int maxInFlight, int requestsPerMinute, int tokensPerMinute, ScheduledExecutorService timer,
      LongSupplier clock) {
    this.limits = new EndpointLimits(maxInFlight, requestsPerMinute, tokensPerMinute);
    this.pump = new AdmissionPump(Objects.requireNonNull(timer, "timer"), () -> admit().forEach(this::start));
    this.clock = clock;
  }

  /** Stops the timer; calls still waiting then wait for a call under way to end. */
  public void close() {
    pump.close();
  }

  /** Names the endpoint in the queue's log lines. */
  public void named(String endpoint) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
  }

  /** Sends {@code call} once admitted; cancelling the stage takes a waiting call out, or aborts one under way. */
  public <R> CompletionStage<R> run(CallTicket ticket, Function<CallTicket.Admission, CompletionStage<R>> call) {
    QueuedCall<R> queued;
    synchronized (this) {
      queued = waiting.add(ticket, call, clock.getAsLong());
    }
    queued.cancellableIn(this);
    pump.pump();
    return queued.result;
  }

  /** What an answer of the endpoint said about its limits: a wait it asks for pauses every call. */
  public void answered(int status, Map<String, List<String>> headers) {
    Duration pause = RateLimitHeaders.pause(status, headers, Instant.now());
    if (pause == null || pause.isZero()) {
      return;
    }
    long now = clock.getAsLong();
    int queued;
    synchronized (this) {
      if (!limits.pauseUntil(now + pause.toNanos(), now)) {
        return;
      }
      queued = waiting.size();
    }
    LOG.warn("AGENTLOOP-201 {} asked to wait {} ms (HTTP {}, its Retry-After or rate-limit headers): no call is"
        + " sent until then, {} wait holding no thread. If this recurs, set agentloop.llm.limits.requests-per-minute"
        + " and tokens-per-minute to the provider's limits", endpoint, pause.toMillis(), status, queued);
  }

  /**
   * Asks the run's waiting calls again whether they are still wanted, now rather than when their turn comes: a
   * person stopped the run, and what it waited for should neither wait nor count in the queue any longer.
   */
  public void recheck(String runId) {
    List<QueuedCall<?>> ofRun;
    synchronized (this) {
      ofRun = waiting.ofRun(runId);
    }
    for (QueuedCall<?> call : ofRun) {
      if (!call.stillWanted()) {
        boolean again;
        synchronized (this) {
          again = waiting.remove(call) && roomSignal.roomAgain();
        }
        call.result.completeExceptionally(call.notSent(clock.getAsLong(), endpoint));
        roomSignal.tell(again);
      }
    }
  }

  /**
   * How many more calls could start now: {@link Integer#MAX_VALUE} with no limit and none waiting, 0 while the
   * provider asked to wait or calls wait already.
   */
  public synchronized int room() {
    return limits.room(waiting.size(), clock.getAsLong());
  }

  /** Told when there is room again after there was none. */
  public void onRoom(Runnable listener) {
    roomSignal.onRoom(listener);
  }

  public synchronized int waiting() {
    return waiting.size();
  }

  public synchronized int inFlight() {
    return limits.inFlight();
  }

  /** How many waiting calls go before the run's waiting call; empty when the run has no call waiting here. */
  public synchronized OptionalInt ahead(String runId) {
    return waiting.ahead(runId);
  }

  /** Admits what the limits allow, in the order of the line. */
  private synchronized List<QueuedCall<?>> admit() {
    List<QueuedCall<?>> admitted = new ArrayList<>();
    long now = clock.getAsLong();
    while (limits.slotFree() && !waiting.isEmpty()) {
      QueuedCall<?> head = waiting.first();
      long wait = limits.blockedFor(now, head.ticket.tokens());
      if (wait > 0) {
        pump.wakeIn(now, wait);
        break;
      }
      waiting.removeFirst();
      head.waited = now - head.queuedAt >= WAITED_NANOS;
      limits.admit(head, now);
      admitted.add(head);
    }
    roomSignal.noteFull();
    return admitted;
  }

  private <R> void start(QueuedCall<R> queued) {
    if (queued.result.isDone() || (queued.waited && !queued.stillWanted())) {
      release(queued, true);
      queued.result.completeExceptionally(queued.notSent(clock.getAsLong(), endpoint));
      return;
    }
    queued.send(this);
  }

  /** Gives the call's slot back: it ended, or was never sent ({@code unsent}). */
  void release(QueuedCall<?> queued, boolean unsent) {
    boolean again;
    synchronized (this) {
      limits.release(queued, unsent);
      again = roomSignal.roomAgain();
    }
    pump.pump();
    roomSignal.tell(again);
  }

  /** What the call's reply said it cost: its tokens are counted as that. */
  synchronized void used(QueuedCall<?> queued, long used) {
    limits.used(queued, used);
  }

  /** Takes a call its caller cancelled out of the line; whether it was waiting there. */
  synchronized boolean takeOut(QueuedCall<?> queued) {
    return waiting.remove(queued);
  }
}
