package dev.agentloop.internal.llm.limits;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One call in the {@link ModelQueue}: what to send once admitted, its place (its run's, then its own arrival),
 * and the result its caller holds. Cancelling that result takes a waiting call out of the queue, and cancels a
 * call under way (its HTTP exchange is aborted). Its fields change under the queue's lock only.
 */
final class QueuedCall<R> implements Comparable<QueuedCall<?>> {

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
}
