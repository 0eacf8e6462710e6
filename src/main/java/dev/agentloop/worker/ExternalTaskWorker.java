package dev.agentloop.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.cfg.TransactionState;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Serves the agent topics inside the engine's JVM. One fetcher thread ({@link TaskFetcher}) locks up to
 * {@code maxConcurrency} tasks at a time; a small pool prepares and completes them; waiting on
 * models and tools holds no thread. The next step of a run is locked in the transaction that
 * completes the step before it (see {@link TaskCompleter}) and prepared by the thread that committed
 * it ({@link #continueWith}); the first step is locked in the transaction that starts the run
 * where it starts through {@link #startTakingFirstSteps}; other tasks committed in this JVM wake
 * the fetcher at once ({@link TaskArrivals}); tasks created on other nodes are found within
 * {@code idleWait}.
 *
 * <p>A handled task's completion queues for the pool ({@link GroupCommit}): the completions that
 * queued while the pool was busy are committed together in one transaction, at most
 * {@value #MAX_BATCH} of them; should that transaction fail, each is completed alone, so that one
 * run's failure is never another's.
 *
 * <p>All engine work (reading a task's state, completing or failing it) runs on threads of the
 * given factory: the handler starts on the pool, and the completion hops back onto it from whatever
 * thread the model or tool answered on. The factory gives them the application's context class
 * loader, which the engine's expressions need (see {@code async.AgentLoopThreads}).
 *
 * <p>Locks are short ({@code lockDuration}) and {@link LockKeeper kept} while a task runs: a node that
 * dies stops holding its runs one lock duration later, and no other node takes a task a live node
 * works on. A task that takes longer than {@code maxTaskTime} fails (and is retried after its back-off).
 *
 * <p>On stop it lets in-flight tasks finish for {@code shutdownGrace}, then unlocks the rest so
 * another node takes them at once instead of after the lock expires. A node that died could not:
 * when it starts again under the same worker id, it unlocks the tasks that id still holds and takes
 * them back at once, instead of waiting out its own dead locks ({@link WorkerIdentity}).
 */
public class ExternalTaskWorker<S> implements SmartLifecycle {

  public static final String MDC_PROCESS_INSTANCE = "processInstanceId";
  /** Completions committed together at most: bounds a transaction's length and what a rollback repeats. */
  static final int MAX_BATCH = 16;
  private static final Logger LOG = LoggerFactory.getLogger(ExternalTaskWorker.class);
  /** How long a stop waits for completions already under way when the grace period ended. */
  private static final Duration POOL_DRAIN = Duration.ofSeconds(5);

  private final Map<String, TopicHandler<S>> handlers;
  private final WorkerOptions settings;
  private final TaskCompleter<S> completer;
  private final TaskArrivals arrivals;
  private final ThreadFactory threads;
  private final WorkerIdentity identity;
  private final CommandExecutor commands;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Set<LockedExternalTask> running = ConcurrentHashMap.newKeySet();
  private final Object drained = new Object();
  private final TaskFetcher fetcher;
  private final LockKeeper locks;
  private volatile boolean active;
  /** Stopped past its grace period: what is still in flight was unlocked, and its late results are dropped. */
  private volatile boolean closed;
  /** Orders taking a task against closing: a task is either unlocked by {@link #stop} or by its own dispatch. */
  private final Object closing = new Object();
  private ExecutorService pool;
  private GroupCommit<S> completions;

  public ExternalTaskWorker(ProcessEngine engine, PlatformTransactionManager transactionManager,
      List<? extends TopicHandler<S>> handlers, WorkerOptions settings, TaskArrivals arrivals,
      ThreadFactory threads) {
    ExternalTaskService externalTasks = engine.getExternalTaskService();
    this.handlers = handlers.stream().collect(Collectors.toMap(TopicHandler::topic, handler -> handler));
    this.settings = settings;
    this.commands =
        ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired();
    this.completer = new TaskCompleter<>(externalTasks, commands, transactionManager, settings, this.handlers.keySet());
    this.identity = new WorkerIdentity(new WorkerLease(commands, settings.workerId()), externalTasks, settings,
        this.handlers.keySet(), completer);
    this.fetcher = new TaskFetcher(externalTasks, settings, this.handlers.keySet(), identity, inFlight::get,
        () -> running.stream().map(LockedExternalTask::getId).collect(Collectors.toSet()),
        task -> dispatch(task, null));
    this.locks = new LockKeeper(commands, settings);
    this.arrivals = arrivals;
    this.threads = threads;
  }

  @Override
  public synchronized void start() {
    if (active) {
      return;
    }
    active = true;
    closed = false;
    identity.reset();
    pool = Executors.newFixedThreadPool(settings.threads(), threads);
    completions = new GroupCommit<>(pool, MAX_BATCH, this::finishTogether);
    locks.start(threads);
    fetcher.start(threads);
    arrivals.onArrival(fetcher::wakeUp);
    LOG.info("worker {} serves topics {}", settings.workerId(), handlers.keySet());
  }

  @Override
  public synchronized void stop() {
    if (!active) {
      return;
    }
    active = false;
    arrivals.onArrival(() -> { });
    try {
      fetcher.stop();
      awaitInFlight(System.nanoTime() + settings.shutdownGrace().toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<LockedExternalTask> unfinished;
    synchronized (closing) {
      closed = true;
      unfinished = List.copyOf(running);
    }
    if (!unfinished.isEmpty()) {
      LOG.info("worker {} unlocks {} unfinished tasks", settings.workerId(), unfinished.size());
      unfinished.forEach(completer::unlockQuietly);
    }
    locks.stop();
    identity.release();
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

  private void awaitInFlight(long deadlineNanos) throws InterruptedException {
    synchronized (drained) {
      long left;
      while (inFlight.get() > 0 && (left = deadlineNanos - System.nanoTime()) > 0) {
        TimeUnit.NANOSECONDS.timedWait(drained, left);
      }
    }
  }

  @Override
  public boolean isRunning() {
    return active;
  }

  /** Stops before the engine and the database: {@code stop()} still needs both. */
  @Override
  public int getPhase() {
    return Integer.MAX_VALUE - 100;
  }

  /** Whether this process holds its worker id and serves tasks. */
  boolean serving() {
    return fetcher.serving();
  }

  /** Tasks locked and not yet completed or failed. */
  public int inFlight() {
    return inFlight.get();
  }

  /**
   * Runs {@code start}, which starts process instances, in a command that also locks for this worker
   * the tasks on its topics they created, and hands those to it once the transaction committed: a new
   * run's first step begins at once, without a fetch and its transaction. A worker that does not serve
   * (stopped, or another process holds its id) or has no task to spare leaves them to the fetchers.
   * Between counting the free tasks and handing them over, others may be handed over too: in flight
   * can exceed {@code maxConcurrency} by the few tasks a start creates.
   */
  public <T> T startTakingFirstSteps(Supplier<T> start) {
    int free = fetcher.serving() ? settings.maxConcurrency() - inFlight.get() : 0;
    if (free <= 0) {
      return start.get();
    }
    return commands.execute(context -> {
      T started = start.get();
      List<LockedExternalTask> taken = CreatedTasks.lock(context, settings, handlers.keySet(), free, created -> true);
      if (!taken.isEmpty()) {
        context.getTransactionContext().addTransactionListener(TransactionState.COMMITTED,
            committed -> taken.forEach(this::handOver));
      }
      return started;
    });
  }

  /** Hands a task locked for this worker to it, or unlocks it for the others if the worker stopped meanwhile. */
  private void handOver(LockedExternalTask task) {
    if (active) {
      dispatch(task, null);
    } else {
      completer.unlockQuietly(task);
    }
  }

  /** Hands a task to its handler on the pool. */
  private void dispatch(LockedExternalTask task, S carried) {
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
    boolean taken;
    synchronized (closing) {
      taken = !closed;
      if (taken) {
        inFlight.incrementAndGet();
        running.add(task);
        locks.locked(task.getId());
      }
    }
    if (!taken) {
      // locked after the stop unlocked the rest (the next step of a run whose completion was under way)
      LOG.info("task {} ({}) unlocked for other nodes: it came after the worker stopped", task.getId(),
          task.getActivityId());
      completer.unlockQuietly(task);
      return;
    }
    long deadline = settings.maxTaskTime().toMillis();
    GroupCommit<S> batches = completions;
    CompletableFuture.supplyAsync(
            () -> withMdc(task, () -> handlers.get(task.getTopicName()).handle(task, carried)), handlerThread)
        .thenCompose(stage -> stage)
        .orTimeout(deadline, TimeUnit.MILLISECONDS)
        .whenComplete((result, error) -> {
          if (closed) {
            dropLate(task);
          } else if (error == null) {
            batches.add(new GroupCommit.Completion<>(task, result));
          } else {
            pool.execute(() -> finish(task, null, error));
          }
        });
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
    if (closed) {
      // queued before the stop, which unlocked their tasks for the other nodes
      batch.forEach(completion -> dropLate(completion.task()));
      return;
    }
    if (batch.size() > 1) {
      Optional<List<TaskCompleter.Continuation<S>>> together = completer.completeTogether(batch, active ? 1 : 0);
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
    if (closed) {
      dropLate(task);
      return;
    }
    try {
      TaskCompleter.Continuation<S> next = withMdc(task, () -> {
        if (error != null) {
          completer.fail(task, error);
          return TaskCompleter.Continuation.none();
        }
        try {
          // the finishing task's slot passes to the next step of its run
          return completer.complete(task, result, active ? 1 : 0);
        } catch (Throwable completing) {
          LOG.error("task {} ({}) could not be completed", task.getId(), task.getActivityId(), completing);
          completer.fail(task, completing);
          return TaskCompleter.Continuation.none();
        }
      });
      next.tasks().forEach(chained -> continueWith(chained, next.carried()));
    } catch (Throwable e) {
      // reporting the failure failed too (the database is gone): nothing is left but the lock's expiry
      LOG.error("task {} could not be finished nor its failure reported; it runs again after its lock expires",
          task.getId(), e);
    } finally {
      release(task);
    }
  }

  private void release(LockedExternalTask task) {
    locks.released(task.getId());
    running.remove(task);
    int before = inFlight.getAndDecrement();
    if (before == settings.maxConcurrency()) {
      fetcher.wakeUp();
    }
    if (before == 1 && !active) {
      synchronized (drained) {
        drained.notifyAll();
      }
    }
  }

  static <T> T withMdc(LockedExternalTask task, Supplier<T> work) {
    MDC.put(MDC_PROCESS_INSTANCE, task.getProcessInstanceId());
    try {
      return work.get();
    } finally {
      MDC.remove(MDC_PROCESS_INSTANCE);
    }
  }
}
