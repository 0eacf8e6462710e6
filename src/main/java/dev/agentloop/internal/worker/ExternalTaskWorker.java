package dev.agentloop.internal.worker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
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
 * it ({@code TaskDispatcher.continueWith}); the first step is locked in the transaction that starts
 * the run where it starts through {@link #startTakingFirstSteps}; other tasks committed in this JVM wake
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
 * <p>It takes no more tasks than can start at once ({@link FreeSlots}: its own slots and the model endpoint's limits).
 *
 * <p>Locks are short ({@code lockDuration}) and {@link LockKeeper kept} while a task runs: a node that
 * dies stops holding its runs one lock duration later, and no other node takes a task a live node
 * works on. A task that takes longer than {@code maxTaskTime} fails (and is retried after its back-off).
 *
 * <p>On stop it lets in-flight tasks finish for {@code shutdownGrace}, then unlocks the rest so
 * another node takes them at once instead of after the lock expires. A node that died could not:
 * when it starts again under the same worker id, it unlocks the tasks that id still holds and takes
 * them back at once, instead of waiting out its own dead locks ({@link WorkerIdentity}).
 *
 * <p>The way of one task from its handler to its completion is a {@link TaskDispatcher}'s (its completion a
 * {@link TaskFinisher}'s); what is in flight, and whether a stop still lets tasks in, is kept by
 * {@link InFlightTasks}.
 */
public class ExternalTaskWorker<S> implements SmartLifecycle {

  public static final String MDC_PROCESS_INSTANCE = "processInstanceId";
  /** Completions committed together at most: bounds a transaction's length and what a rollback repeats. */
  static final int MAX_BATCH = 16;
  private static final Logger LOG = LoggerFactory.getLogger(ExternalTaskWorker.class);

  private final Map<String, TopicHandler<S>> handlers;
  private final WorkerOptions settings;
  private final TaskCompleter<S> completer;
  private final TaskArrivals arrivals;
  private final ThreadFactory threads;
  private final WorkerIdentity identity;
  private final InFlightTasks inFlight;
  private final TaskDispatcher<S> dispatcher;
  private final TaskFetcher fetcher;
  private final FirstSteps firstSteps;
  private final LockKeeper locks;
  private volatile boolean active;

  public ExternalTaskWorker(ProcessEngine engine, PlatformTransactionManager transactionManager,
      List<? extends TopicHandler<S>> handlers, WorkerOptions settings, TaskArrivals arrivals,
      ThreadFactory threads) {
    this(engine, transactionManager, handlers, settings, arrivals, threads, TaskRoom.UNLIMITED);
  }

  /** @param room how many more steps can start now (the model endpoint's limits): the worker takes no more */
  public ExternalTaskWorker(ProcessEngine engine, PlatformTransactionManager transactionManager,
      List<? extends TopicHandler<S>> handlers, WorkerOptions settings, TaskArrivals arrivals,
      ThreadFactory threads, TaskRoom room) {
    ExternalTaskService externalTasks = engine.getExternalTaskService();
    this.handlers = handlers.stream().collect(Collectors.toMap(TopicHandler::topic, handler -> handler));
    this.settings = settings;
    CommandExecutor commands =
        ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired();
    this.completer = new TaskCompleter<>(externalTasks, commands, transactionManager, settings, this.handlers.keySet());
    this.identity = new WorkerIdentity(new WorkerLease(commands, settings.workerId()), externalTasks, settings,
        this.handlers.keySet(), completer);
    this.locks = new LockKeeper(commands, settings);
    this.inFlight = new InFlightTasks(locks);
    this.dispatcher = new TaskDispatcher<>(this.handlers, settings, completer, inFlight, () -> active,
        this::wakeFetcher);
    FreeSlots free = new FreeSlots(settings, inFlight, room, dispatcher);
    this.fetcher = new TaskFetcher(externalTasks, settings, this.handlers.keySet(), identity, free,
        inFlight::ids, task -> dispatcher.dispatch(task, null));
    this.firstSteps = new FirstSteps(commands, settings, this.handlers.keySet(), fetcher::serving, free,
        this::handOver);
    room.onFree(this::wakeFetcher);
    this.arrivals = arrivals;
    this.threads = threads;
  }

  @Override
  public synchronized void start() {
    if (active) {
      return;
    }
    active = true;
    inFlight.open();
    identity.reset();
    dispatcher.start(threads);
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
      inFlight.awaitNone(System.nanoTime() + settings.shutdownGrace().toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<LockedExternalTask> unfinished = inFlight.close();
    if (!unfinished.isEmpty()) {
      LOG.info("worker {} unlocks {} unfinished tasks", settings.workerId(), unfinished.size());
      unfinished.forEach(completer::unlockQuietly);
    }
    locks.stop();
    identity.release();
    dispatcher.stop();
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
    return inFlight.count();
  }

  /**
   * Runs {@code start}, which starts process instances, in a command that also locks for this worker
   * the tasks on its topics they created, and hands those to it once the transaction committed: a new
   * run's first step begins at once, without a fetch and its transaction (see {@link FirstSteps}).
   */
  public <T> T startTakingFirstSteps(Supplier<T> start) {
    return firstSteps.startTaking(start);
  }

  /** Hands a task locked for this worker to it, or unlocks it for the others if the worker stopped meanwhile. */
  private void handOver(LockedExternalTask task) {
    if (active) {
      dispatcher.dispatch(task, null);
    } else {
      completer.unlockQuietly(task);
    }
  }

  /** A slot came free: the fetcher, which waits while all are taken, may lock tasks again. */
  private void wakeFetcher() {
    fetcher.wakeUp();
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
