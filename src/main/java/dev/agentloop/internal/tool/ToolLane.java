package dev.agentloop.internal.tool;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The bulkhead of one tool: runs at most {@code limit} of its calls at once on the shared tool
 * threads and queues the rest, so that one tool's slow or hanging calls (a server that trickles,
 * a tool that ignores interrupts) hold only that tool's share of the threads, never the other
 * tools' calls. A queued call holds no thread; one cancelled while queued (its time-out fired) is
 * skipped when its turn comes. Shutting down is the shared threads' business: this lane only
 * gates. Thread-safe.
 */
final class ToolLane extends AbstractExecutorService {

  private final Executor threads;
  private final int limit;
  private final Queue<Runnable> waiting = new ArrayDeque<>();
  private int running;

  ToolLane(Executor threads, int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be > 0, was " + limit);
    }
    this.threads = threads;
    this.limit = limit;
  }

  @Override
  public void execute(Runnable call) {
    synchronized (this) {
      if (running >= limit) {
        waiting.add(call);
        return;
      }
      running++;
    }
    start(call);
  }

  /** Calls running or waiting, for tests and metrics. */
  synchronized int load() {
    return running + waiting.size();
  }

  private void start(Runnable call) {
    try {
      threads.execute(() -> {
        try {
          call.run();
        } finally {
          next();
        }
      });
    } catch (RejectedExecutionException e) {
      next();
      throw e;
    }
  }

  private void next() {
    Runnable call;
    synchronized (this) {
      call = waiting.poll();
      if (call == null) {
        running--;
        return;
      }
    }
    start(call);
  }

  @Override
  public void shutdown() {
    // the shared threads are shut down with the application
  }

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
