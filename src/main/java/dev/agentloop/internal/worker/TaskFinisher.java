package dev.agentloop.internal.worker;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of a task whose handler is done: its result is completed, together with the others that queued
 * meanwhile ({@link GroupCommit}) or alone, or its failure is reported; the next step of its run, locked by that
 * completion, goes on; its slot is released. Apart from {@link TaskDispatcher}, which hands tasks to their handlers,
 * because finishing is the engine's side of a task's way, with its own failures. Thread-safe.
 */
final class TaskFinisher<S> {

  /** The worker's logger, so that what befalls a task logs where the rest of the worker does. */
  private static final Logger LOG = LoggerFactory.getLogger(ExternalTaskWorker.class);

  private final WorkerOptions settings;
  private final TaskCompleter<S> completer;
  private final InFlightTasks inFlight;
  private final BooleanSupplier active;
  private final Runnable slotFreed;
  private final BiConsumer<LockedExternalTask, S> continueWith;
  private ExecutorService pool;
  private GroupCommit<S> completions;

  /**
   * @param active whether the worker serves: a completion then locks the next step of its run
   * @param slotFreed told when a task is released while all {@code maxConcurrency} slots were taken
   * @param continueWith hands the next step of a run, locked by its completion, to its handler on this thread
   */
  TaskFinisher(WorkerOptions settings, TaskCompleter<S> completer, InFlightTasks inFlight, BooleanSupplier active,
      Runnable slotFreed, BiConsumer<LockedExternalTask, S> continueWith) {
    this.settings = settings;
    this.completer = completer;
    this.inFlight = inFlight;
    this.active = active;
    this.slotFreed = slotFreed;
    this.continueWith = continueWith;
  }

  /** Runs completions on this pool from now on. */
  void start(ExecutorService pool) {
    this.pool = pool;
    this.completions = new GroupCommit<>(pool, ExternalTaskWorker.MAX_BATCH, this::finishTogether);
  }

  /** Where handled tasks' results queue to be completed together; the pool's since the last start. */
  GroupCommit<S> completions() {
    return completions;
  }

  /** Reports the task's failure on the pool. */
  void failLater(LockedExternalTask task, Throwable error) {
    pool.execute(() -> finish(task, null, error));
  }

  /**
   * A result that came after the worker stopped: its task was unlocked when the grace period ended and
   * may run on another node already, and the database may be closed. One line, no stack trace.
   */
  void dropLate(LockedExternalTask task) {
    LOG.info("result of task {} ({}) dropped: it came after the worker stopped, and the task was unlocked for"
        + " other nodes", task.getId(), task.getActivityId());
    release(task);
  }

  /** Completes a batch in one transaction; if that rolls back, each task alone, with its own failure handling. */
  private void finishTogether(List<GroupCommit.Completion<S>> batch) {
    if (inFlight.closed()) {
      // queued before the stop, which unlocked their tasks for the other nodes
      batch.forEach(completion -> dropLate(completion.task()));
      return;
    }
    if (batch.size() > 1) {
      Optional<List<TaskCompleter.Continuation<S>>> together =
          completer.completeTogether(batch, active.getAsBoolean() ? 1 : 0);
      if (together.isPresent()) {
        for (int i = 0; i < batch.size(); i++) {
          LockedExternalTask task = batch.get(i).task();
          TaskCompleter.Continuation<S> next = together.get().get(i);
          try {
            next.tasks().forEach(chained -> continueWith.accept(chained, next.carried()));
          } finally {
            release(task);
          }
        }
        return;
      }
    }
    batch.forEach(completion -> finish(completion.task(), completion.result(), null));
  }

  /**
   * Completes the task, or reports its failure. Whatever completing throws, an {@link Error} included,
   * is a failure of the task like any other: its retries count down and it ends in an incident, instead
   * of the task running again, unreported, every time its lock expires.
   */
  private void finish(LockedExternalTask task, TaskResult<S> result, Throwable error) {
    if (inFlight.closed()) {
      dropLate(task);
      return;
    }
    try {
      TaskCompleter.Continuation<S> next = ExternalTaskWorker.withMdc(task, () -> {
        if (error != null) {
          completer.fail(task, error);
          return TaskCompleter.Continuation.none();
        }
        try {
          // the finishing task's slot passes to the next step of its run
          return completer.complete(task, result, active.getAsBoolean() ? 1 : 0);
        } catch (Throwable completing) {
          LOG.error("AGENTLOOP-005 task {} ({}) could not be completed; it is failed instead (tried again, or an"
              + " incident). Unless the database was away, report this stack trace", task.getId(),
              task.getActivityId(), completing);
          completer.fail(task, completing);
          return TaskCompleter.Continuation.none();
        }
      });
      next.tasks().forEach(chained -> continueWith.accept(chained, next.carried()));
    } catch (Throwable e) {
      // reporting the failure failed too (the database is gone): nothing is left but the lock's expiry
      LOG.error("AGENTLOOP-006 task {} could not be finished nor its failure reported; it runs again after its lock"
          + " expires. Check the database connection", task.getId(), e);
    } finally {
      release(task);
    }
  }

  /** Gives the task's slot back; the fetcher is woken if all were taken. */
  void release(LockedExternalTask task) {
    if (inFlight.release(task) == settings.maxConcurrency()) {
      slotFreed.run();
    }
  }
}
