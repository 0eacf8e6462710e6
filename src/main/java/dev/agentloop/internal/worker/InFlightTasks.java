package dev.agentloop.internal.worker;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * The tasks the worker has taken and not yet completed or failed, their locks kept meanwhile
 * ({@link LockKeeper}), and whether it takes any more: a stop closes it, after which a task is refused
 * (its dispatch unlocks it) and a late result is dropped. Apart from {@link ExternalTaskWorker} because
 * taking, releasing, closing and waiting for the last one must agree whatever thread each runs on.
 * Thread-safe.
 */
final class InFlightTasks {

  private final LockKeeper locks;
  private final AtomicInteger count = new AtomicInteger();
  private final Map<String, LockedExternalTask> running = new ConcurrentHashMap<>();
  private final Object drained = new Object();
  /** Orders taking a task against closing: a task is either unlocked by the stop or by its own dispatch. */
  private final Object closing = new Object();
  /** Stopped past its grace period: what is still in flight was unlocked, and its late results are dropped. */
  private volatile boolean closed;

  InFlightTasks(LockKeeper locks) {
    this.locks = locks;
  }

  /** Takes tasks again, after a stop closed it. */
  void open() {
    closed = false;
  }

  /** Whether the task was taken, and if not, why. */
  enum Taken { YES, CLOSED, ALREADY }

  /**
   * @return {@link Taken#YES}; {@link Taken#CLOSED} once closed, and then the caller unlocks it;
   *     {@link Taken#ALREADY} when this worker works on the task already (a fetch took it again after its lock ran
   *     out), and then the caller leaves it to the one at work on it, which must not run twice
   */
  Taken take(LockedExternalTask task) {
    synchronized (closing) {
      if (closed) {
        return Taken.CLOSED;
      }
      if (running.putIfAbsent(task.getId(), task) != null) {
        return Taken.ALREADY;
      }
      count.incrementAndGet();
      locks.locked(task.getId());
      return Taken.YES;
    }
  }

  /**
   * The task's result is in and its completion is about to be committed: its lock is no longer extended. An
   * extension commits an update of the task's row, and a completion that read the row before it fails with an
   * optimistic-locking conflict and is rolled back; at each extension the lock has a third of its duration left
   * at least, time enough to commit.
   */
  void finishing(LockedExternalTask task) {
    locks.released(task.getId());
  }

  /** @return how many tasks were in flight before this one was released */
  int release(LockedExternalTask task) {
    locks.released(task.getId());
    running.remove(task.getId(), task);
    int before = count.getAndDecrement();
    if (before == 1) {
      synchronized (drained) {
        drained.notifyAll();
      }
    }
    return before;
  }

  /** Takes no more tasks, and returns those still in flight, for the stop to unlock. */
  List<LockedExternalTask> close() {
    synchronized (closing) {
      closed = true;
      return List.copyOf(running.values());
    }
  }

  boolean closed() {
    return closed;
  }

  int count() {
    return count.get();
  }

  Set<String> ids() {
    return Set.copyOf(running.keySet());
  }

  /** Waits until none is in flight, or until the deadline ({@link System#nanoTime}). */
  void awaitNone(long deadlineNanos) throws InterruptedException {
    synchronized (drained) {
      long left;
      while (count.get() > 0 && (left = deadlineNanos - System.nanoTime()) > 0) {
        TimeUnit.NANOSECONDS.timedWait(drained, left);
      }
    }
  }
}
