package dev.agentloop.worker;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.externaltask.ExternalTaskQueryTopicBuilder;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.impl.ProcessEngineImpl;
import org.camunda.bpm.engine.impl.util.SingleConsumerCondition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Serves the agent topics inside the engine's JVM. One fetcher thread locks up to
 * {@code maxConcurrency} tasks at a time; a small pool prepares and completes them; waiting on
 * models and tools holds no thread. The engine wakes the fetcher the moment a task of this JVM is
 * committed, so the next step starts without polling delay; tasks created on other nodes are
 * found within {@code idleWait}.
 *
 * <p>On stop it lets in-flight tasks finish for {@code shutdownGrace}, then unlocks the rest so
 * another node takes them at once instead of after the lock expires.
 */
public class ExternalTaskWorker implements SmartLifecycle {

  public static final String MDC_PROCESS_INSTANCE = "processInstanceId";
  private static final Logger LOG = LoggerFactory.getLogger(ExternalTaskWorker.class);

  private final ExternalTaskService externalTasks;
  private final Map<String, TopicHandler> handlers;
  private final WorkerSettings settings;
  private final TaskCompleter completer;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Set<LockedExternalTask> running = ConcurrentHashMap.newKeySet();
  private final Object drained = new Object();
  private volatile boolean active;
  private ExecutorService pool;
  private Thread fetcher;
  private SingleConsumerCondition wakeUp;

  public ExternalTaskWorker(ExternalTaskService externalTasks, PlatformTransactionManager transactionManager,
      List<TopicHandler> handlers, WorkerSettings settings) {
    this.externalTasks = externalTasks;
    this.handlers = handlers.stream().collect(Collectors.toMap(TopicHandler::topic, Function.identity()));
    this.settings = settings;
    this.completer = new TaskCompleter(externalTasks, transactionManager, settings);
  }

  @Override
  public synchronized void start() {
    if (active) {
      return;
    }
    active = true;
    pool = Executors.newFixedThreadPool(settings.threads(), new CustomizableThreadFactory("agentloop-worker-"));
    fetcher = new Thread(this::fetchLoop, "agentloop-fetcher");
    fetcher.setDaemon(true);
    wakeUp = new SingleConsumerCondition(fetcher);
    ProcessEngineImpl.EXT_TASK_CONDITIONS.addConsumer(wakeUp);
    fetcher.start();
    LOG.info("worker {} serves topics {}", settings.workerId(), handlers.keySet());
  }

  @Override
  public synchronized void stop() {
    if (!active) {
      return;
    }
    active = false;
    ProcessEngineImpl.EXT_TASK_CONDITIONS.removeConsumer(wakeUp);
    wakeUp.signal();
    try {
      fetcher.join(settings.idleWait().toMillis() + 5_000);
      awaitInFlight(System.nanoTime() + settings.shutdownGrace().toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!running.isEmpty()) {
      LOG.info("worker {} unlocks {} unfinished tasks", settings.workerId(), running.size());
      running.forEach(completer::unlockQuietly);
    }
    pool.shutdownNow();
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

  /** Tasks locked and not yet completed or failed. */
  public int inFlight() {
    return inFlight.get();
  }

  private void fetchLoop() {
    while (active) {
      try {
        int free = settings.maxConcurrency() - inFlight.get();
        int wanted = Math.min(free, settings.maxTasksPerFetch());
        List<LockedExternalTask> tasks = wanted > 0 ? fetch(wanted) : List.of();
        tasks.forEach(this::dispatch);
        if (tasks.size() < wanted || wanted == 0) {
          wakeUp.await(settings.idleWait().toMillis());
        }
      } catch (RuntimeException e) {
        LOG.warn("fetching tasks failed; trying again in {}", settings.idleWait(), e);
        wakeUp.await(settings.idleWait().toMillis());
      }
    }
  }

  private List<LockedExternalTask> fetch(int maxTasks) {
    ExternalTaskQueryTopicBuilder query = externalTasks.fetchAndLock()
        .workerId(settings.workerId())
        .maxTasks(maxTasks)
        .orderByCreateTime().asc()
        .subscribe();
    long lockMillis = settings.lockDuration().toMillis();
    for (String topic : handlers.keySet()) {
      query = query.topic(topic, lockMillis).variables(List.of());
    }
    return query.execute();
  }

  private void dispatch(LockedExternalTask task) {
    inFlight.incrementAndGet();
    running.add(task);
    long deadline = settings.lockDuration().toMillis() * 9 / 10;
    CompletableFuture.supplyAsync(() -> withMdc(task, () -> handlers.get(task.getTopicName()).handle(task)), pool)
        .thenCompose(stage -> stage)
        .orTimeout(deadline, TimeUnit.MILLISECONDS)
        .whenCompleteAsync((result, error) -> finish(task, result, error), pool);
  }

  private void finish(LockedExternalTask task, TaskResult result, Throwable error) {
    try {
      withMdc(task, () -> {
        if (error != null) {
          completer.fail(task, error);
        } else {
          completer.complete(task, result);
        }
        return null;
      });
    } catch (RuntimeException e) {
      LOG.error("task {} could not be finished; it runs again after its lock expires", task.getId(), e);
    } finally {
      running.remove(task);
      int before = inFlight.getAndDecrement();
      if (before == settings.maxConcurrency()) {
        wakeUp.signal();
      }
      if (before == 1 && !active) {
        synchronized (drained) {
          drained.notifyAll();
        }
      }
    }
  }

  private static <T> T withMdc(LockedExternalTask task, Supplier<T> work) {
    MDC.put(MDC_PROCESS_INSTANCE, task.getProcessInstanceId());
    try {
      return work.get();
    } finally {
      MDC.remove(MDC_PROCESS_INSTANCE);
    }
  }
}
