package dev.agentloop.internal.llm.limits;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call in the {@link ModelQueue}: what to send once admitted, its place (its run's, then its own arrival),
 * and the result its caller holds. Cancelling that result takes a waiting call out of the queue, and cancels a
 * call under way (its HTTP exchange is aborted). Its fields change under the queue's lock only.
 */
final class QueuedCall<R> implements Comparable<QueuedCall<?>> {

  /** The queue's logger: what befalls a call logs where the rest of the queue does. */
  private static final Logger LOG = LoggerFactory.getLogger(ModelQueue.class);

  final CallTicket ticket;
  final Function<CallTicket.Admission, CompletionStage<R>> call;
  final long runPlace;
  final long arrival;
  final long queuedAt;
  final CompletableFuture<R> result = new CompletableFuture<>();
  /** Set when admitted: what it counts against the windows, corrected when the reply says what it cost. */
  RateWindow.Entry request;
  RateWindow.Entry tokens;
  boolean waited;
  volatile CompletionStage<R> running;

  QueuedCall(CallTicket ticket, Function<CallTicket.Admission, CompletionStage<R>> call, long runPlace,
      long arrival, long queuedAt) {
    this.ticket = ticket;
    this.call = call;
    this.runPlace = runPlace;
    this.arrival = arrival;
    this.queuedAt = queuedAt;
  }

  @Override
  public int compareTo(QueuedCall<?> other) {
    int byRun = Long.compare(runPlace, other.runPlace);
    return byRun != 0 ? byRun : Long.compare(arrival, other.arrival);
  }

  /** Sends the admitted call; once it ended, its slot goes back to {@code queue} and its outcome to the caller. */
  void send(ModelQueue queue) {
    CompletionStage<R> stage;
    try {
      stage = call.apply(used -> queue.used(this, used));
    } catch (RuntimeException e) {
      stage = CompletableFuture.failedFuture(e);
    }
    running = stage;
    stage.whenComplete((reply, error) -> {
      queue.release(this, false);
      settle(reply, error);
    });
    if (result.isCancelled()) {
      abort();
    }
  }

  /** Once its caller cancels the call, takes it out of {@code queue}'s line, or aborts it if it is under way. */
  void cancellableIn(ModelQueue queue) {
    result.whenComplete((reply, error) -> {
      if (result.isCancelled() && !queue.takeOut(this)) {
        abort();
      }
    });
  }

  /** Hands the outcome of the call under way to the caller. */
  void settle(R reply, Throwable error) {
    if (error == null) {
      result.complete(reply);
    } else {
      result.completeExceptionally(error);
    }
  }

  /** Aborts the call under way, if any: its caller gave up on it. */
  void abort() {
    CompletionStage<R> stage = running;
    if (stage != null) {
      stage.toCompletableFuture().cancel(true);
    }
  }

  /** Whether the step that made the call still wants it sent; when that cannot be told, it is sent. */
  boolean stillWanted() {
    try {
      return ticket.stillWanted().getAsBoolean();
    } catch (RuntimeException e) {
      LOG.debug("whether a waiting call is still wanted could not be told; it is sent: {}", e.getMessage());
      return true;
    }
  }

  /** Why the call is not sent, {@code now} (the queue's clock) after it came, to {@code endpoint}. */
  CallNotSent notSent(long now, String endpoint) {
    return new CallNotSent("not sent: the step it was for no longer needs it (its run left its loop, or another"
        + " node took the step over) after it waited " + TimeUnit.NANOSECONDS.toMillis(now - queuedAt) + " ms for "
        + endpoint);
  }
}
