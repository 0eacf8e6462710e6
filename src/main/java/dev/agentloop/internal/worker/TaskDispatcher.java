package dev.agentloop.internal.worker;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.internal.async.StillWanted;
import dev.agentloop.internal.llm.limits.CallNotSent;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The way of one task the worker took, from its handler to its completion: hands it to its topic's
 * handler, queues the result for a {@link GroupCommit} (or fails the task), and hands the next step of
 * its run, locked by that completion, to its handler on the same thread. Apart from
 * {@link ExternalTaskWorker}, which starts, feeds and stops it, because this path is the same whoever
 * took the task (the fetcher, a run's start, the step before it). Thread-safe.
 */
final class TaskDispatcher<S> {

  /** The worker's logger, so that what befalls a task logs where the rest of the worker does. */
  private static final Logger LOG = LoggerFactory.getLogger(ExternalTaskWorker.class);

  private final Map<String, TopicHandler<S>> handlers;
  private final WorkerOptions settings;
  private final TaskCompleter<S> completer;
  private final InFlightTasks inFlight;
  private final BooleanSupplier active;
  private final Runnable slotFreed;
  /** Tasks handed to their handler whose handler has not yet returned: they have not yet asked for a model slot. */
  private final AtomicInteger preparing = new AtomicInteger();
  private ExecutorService pool;
  private GroupCommit<S> completions;

  /**
   * @param active whether the worker serves: a completion then locks the next step of its run
   * @param slotFreed told when a task is released while all {@code maxConcurrency} slots were taken
   */
  TaskDispatcher(Map<String, TopicHandler<S>> handlers, WorkerOptions settings, TaskCompleter<S> completer,
      InFlightTasks inFlight, BooleanSupplier active, Runnable slotFreed) {
    this.handlers = handlers;
    this.settings = settings;
    this.completer = completer;
    this.inFlight = inFlight;
    this.active = active;
    this.slotFreed = slotFreed;
  }

  /** Runs handlers and completions on this pool from now on. */
  void start(ExecutorService pool) {
    this.pool = pool;
    this.completions = new GroupCommit<>(pool, ExternalTaskWorker.MAX_BATCH, this::finishTogether);
  }

  /** Hands a task to its handler on the pool. */
  void dispatch(LockedExternalTask task, S carried) {
    dispatch(task, carried, pool);
  }

  /**
   * Hands the next step of a run to its handler on this pool thread, which just committed the step
   * before it, instead of queueing it behind every other run's work. Queued, a run went through the
   * pool's queue twice per step, and with many runs they moved in waves: all runs' thoughts, then all
   * their actions, then all waiting on their models at once while the CPU idled. Depth-first, a run
   * reaches its next wait (the model, a tool) right after its commit, and the others' work fills that
   * wait. Handlers only prepare here: what they wait on completes on other threads.
   */
  private void continueWith(LockedExternalTask task, S carried) {
    dispatch(task, carried, Runnable::run);
  }

  private void dispatch(LockedExternalTask task, S carried, Executor handlerThread) {
    InFlightTasks.Taken taken = inFlight.take(task);
    if (taken == InFlightTasks.Taken.ALREADY) {
      // a fetch took it again after its lock ran out while it waited here: it runs once, the lock is fresh again
      LOG.debug("task {} ({}) is in flight here already; the second copy is dropped", task.getId(),
          task.getActivityId());
      return;
    }
    if (taken == InFlightTasks.Taken.CLOSED) {
      // locked after the stop unlocked the rest (the next step of a run whose completion was under way)
      LOG.info("task {} ({}) unlocked for other nodes: it came after the worker stopped", task.getId(),
          task.getActivityId());
      completer.unlockQuietly(task);
      return;
    }
    long deadline = settings.maxTaskTime().toMillis();
    GroupCommit<S> batches = completions;
    preparing.incrementAndGet();
    CompletableFuture.supplyAsync(() -> handle(task, carried), handlerThread)
        .thenCompose(stage -> stage)
        .orTimeout(deadline, TimeUnit.MILLISECONDS)
        .whenComplete((result, error) -> {
          inFlight.finishing(task);
          if (inFlight.closed()) {
            dropLate(task);
          } else if (error == null) {
            batches.add(new GroupCommit.Completion<>(task, result));
          } else if (AsyncFailures.unwrap(error) instanceof CallNotSent notSent) {
            // the step no longer wants its call: the task is gone or another's, and nothing was paid
            LOG.info("task {} ({}) released as it is: {}", task.getId(), task.getActivityId(), notSent.getMessage());
            release(task);
          } else {
            pool.execute(() -> finish(task, null, error));
          }
        });
  }

  /**
   * Runs the task's handler, which asks the step's model call to be sent only while this worker still holds the
   * task ({@link StillWanted}): a call that waited for its endpoint is not sent for a run stopped meanwhile.
   */
  private java.util.concurrent.CompletionStage<TaskResult<S>> handle(LockedExternalTask task, S carried) {
    try {
      return ExternalTaskWorker.withMdc(task, () -> StillWanted.during(() -> completer.stillOurs(task),
          () -> handlers.get(task.getTopicName()).handle(task, carried)));
    } finally {
      preparing.decrementAndGet();
    }
  }

  /** Tasks handed to their handler that have not yet asked for what they wait on (a model slot). */
  int preparing() {
    return preparing.get();
  }

  /**
   * A result that came after the worker stopped: its task was unlocked when the grace period ended and
   * may run on another node already, and the database may be closed. One line, no stack trace.
   */
  private void dropLate(LockedExternalTask task) {
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
            next.tasks().forEach(chained -> continueWith(chained, next.carried()));
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
      next.tasks().forEach(chained -> continueWith(chained, next.carried()));
    } catch (Throwable e) {
      // reporting the failure failed too (the database is gone): nothing is left but the lock's expiry
      LOG.error("AGENTLOOP-006 task {} could not be finished nor its failure reported; it runs again after its lock"
          + " expires. Check the database connection", task.getId(), e);
    } finally {
      release(task);
    }
  }

  private void release(LockedExternalTask task) {
    if (inFlight.release(task) == settings.maxConcurrency()) {
      slotFreed.run();
    }
  }
}
