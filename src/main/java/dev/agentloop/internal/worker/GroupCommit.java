package dev.agentloop.internal.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Handled tasks waiting to be completed, handed to the worker's pool in batches: every task added
 * schedules one drain, and a drain takes whatever is waiting, up to {@code maxBatch}. When the pool
 * keeps up, a batch holds one task and nothing waits for company; when completions arrive faster
 * than the pool commits them, the tasks that queued meanwhile share one transaction and its commit,
 * which on a database that syncs every commit (H2 with {@code WRITE_DELAY=0}, PostgreSQL) is most
 * of what a step costs. No task waits longer than it would have for a pool thread. Thread-safe.
 */
final class GroupCommit<S> {

  /** A task its handler is done with, and how it ends. */
  record Completion<S>(LockedExternalTask task, TaskResult<S> result) {}

  private final Queue<Completion<S>> waiting = new ConcurrentLinkedQueue<>();
  private final Executor pool;
  private final int maxBatch;
  private final Consumer<List<Completion<S>>> commit;

  /** @param commit completes a batch; it must deal with every completion it is given, whatever happens */
  GroupCommit(Executor pool, int maxBatch, Consumer<List<Completion<S>>> commit) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be > 0, was " + maxBatch);
    }
    this.pool = pool;
    this.maxBatch = maxBatch;
    this.commit = commit;
  }

  void add(Completion<S> completion) {
    waiting.add(completion);
    pool.execute(this::drain);
  }

  private void drain() {
    List<Completion<S>> batch = new ArrayList<>(Math.min(maxBatch, 16));
    Completion<S> next;
    while (batch.size() < maxBatch && (next = waiting.poll()) != null) {
      batch.add(next);
    }
    if (!batch.isEmpty()) {
      commit.accept(batch);
    }
  }
}
