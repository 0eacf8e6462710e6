package dev.agentloop.internal.llm.limits;

import java.util.List;
import java.util.OptionalInt;
import java.util.PriorityQueue;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The calls waiting in the {@link ModelQueue}, in the order of their runs ({@link RunOrder}), then of their arrival:
 * who goes next, and how many go before a run's call. Not thread-safe: the queue's lock guards it.
 */
final class WaitingLine {

  private static final int REMEMBERED_RUNS = 65_536;

  private final PriorityQueue<QueuedCall<?>> waiting = new PriorityQueue<>();
  private final RunOrder runs = new RunOrder(REMEMBERED_RUNS);
  private long arrivals;

  /** Puts a call in line behind the waiting calls of earlier runs and its own run's earlier calls. */
  <R> QueuedCall<R> add(CallTicket ticket, Function<CallTicket.Admission, CompletionStage<R>> call, long now) {
    QueuedCall<R> queued = new QueuedCall<>(ticket, call, runs.of(ticket.runId()), arrivals++, now);
    waiting.add(queued);
    return queued;
  }

  /** The call whose turn it is; {@code null} when none waits. */
  QueuedCall<?> first() {
    return waiting.peek();
  }

  void removeFirst() {
    waiting.poll();
  }

  /** Takes a call out of line; whether it was waiting. */
  boolean remove(QueuedCall<?> call) {
    return waiting.remove(call);
  }

  boolean isEmpty() {
    return waiting.isEmpty();
  }

  int size() {
    return waiting.size();
  }

  /** The run's waiting calls. */
  List<QueuedCall<?>> ofRun(String runId) {
    return waiting.stream().filter(call -> runId.equals(call.ticket.runId())).toList();
  }

  /** How many waiting calls go before the run's first waiting call; empty when the run has no call waiting. */
  OptionalInt ahead(String runId) {
    QueuedCall<?> own = waiting.stream().filter(call -> runId.equals(call.ticket.runId())).min(QueuedCall::compareTo)
        .orElse(null);
    return own == null ? OptionalInt.empty()
        : OptionalInt.of((int) waiting.stream().filter(call -> call.compareTo(own) < 0).count());
  }
}
