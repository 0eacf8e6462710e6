package dev.agentloop.internal.worker;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
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
 * handler on the worker's pool, queues the result for a {@link GroupCommit} (or fails the task) through its
 * {@link TaskFinisher}, and hands the next step of its run, locked by that completion, to its handler on the
 * same thread. Apart from {@link ExternalTaskWorker}, which starts, feeds and stops it, because this path is the
 * same whoever took the task (the fetcher, a run's start, the step before it). Thread-safe.
 */
final class TaskDispatcher<S> {

  /** The worker's logger, so that what befalls a task logs where the rest of the worker does. */
  private static final Logger LOG = LoggerFactory.getLogger(ExternalTaskWorker.class);
  /** How long a stop waits for completions already under way when the grace period ended. */
  private static final Duration POOL_DRAIN = Duration.ofSeconds(5);

  private final Map<String, TopicHandler<S>> handlers;
  private final WorkerOptions settings;
  private final TaskCompleter<S> completer;
  private final InFlightTasks inFlight;
  private final TaskFinisher<S> finisher;
  /** Tasks handed to their handler whose handler has not yet returned: they have not yet asked for a model slot. */
  private final AtomicInteger preparing = new AtomicInteger();
  private ExecutorService pool;

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
    this.finisher = new TaskFinisher<>(settings, completer, inFlight, active, slotFreed, this::continueWith);
  }

  /** Runs handlers and completions on a new pool of the given threads from now on. */
  void start(ThreadFactory threads) {
    this.pool = Executors.newFixedThreadPool(settings.threads(), threads);
    finisher.start(pool);
  }

  /** Stops the pool, interrupting what still runs, and waits a little for it. */
  void stop() {
    pool.shutdownNow();
    awaitPool();
  }

  /**
   * Lets a completion that was under way when the grace period ended finish (or fail quietly, its task
   * unlocked) before the application closes the database under it, which logged errors and stack traces.
   */
  private void awaitPool() {
    try {
      if (!pool.awaitTermination(POOL_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.info("worker {}: a completion still runs after {} s; its task was unlocked for the other nodes",
            settings.workerId(), POOL_DRAIN.toSeconds());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
    GroupCommit<S> batches = finisher.completions();
    preparing.incrementAndGet();
    CompletableFuture.supplyAsync(() -> handle(task, carried), handlerThread)
        .thenCompose(stage -> stage)
        .orTimeout(deadline, TimeUnit.MILLISECONDS)
        .whenComplete((result, error) -> {
          inFlight.finishing(task);
          if (inFlight.closed()) {
            finisher.dropLate(task);
          } else if (error == null) {
            batches.add(new GroupCommit.Completion<>(task, result));
          } else if (AsyncFailures.unwrap(error) instanceof CallNotSent notSent) {
            // the step no longer wants its call: the task is gone or another's, and nothing was paid
            LOG.info("task {} ({}) released as it is: {}", task.getId(), task.getActivityId(), notSent.getMessage());
            finisher.release(task);
          } else {
            finisher.failLater(task, error);
          }
        });
  }

  /**
   * Runs the task's handler, which asks the step's model call to be sent only while this worker still holds the
   * task ({@link StillWanted}): a call that waited for its endpoint is not sent for a run stopped meanwhile.
   */
  private CompletionStage<TaskResult<S>> handle(LockedExternalTask task, S carried) {
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
}
