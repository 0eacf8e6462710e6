package dev.agentloop.internal.worker;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.externaltask.ExternalTaskQueryTopicBuilder;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.impl.util.SingleConsumerCondition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's fetch loop, on a thread of its own. While this process holds the worker id
 * ({@link WorkerIdentity}), it locks as many tasks as the worker has room for (its slots, and what can start at
 * once: {@link TaskRoom}) and hands them over;
 * when it found fewer than it wanted, or there was no room, it waits until {@link #wakeUp} or
 * {@code idleWait} passed.
 */
final class TaskFetcher {

  private static final Logger LOG = LoggerFactory.getLogger(TaskFetcher.class);

  private final ExternalTaskService externalTasks;
  private final WorkerOptions settings;
  private final Set<String> topics;
  private final WorkerIdentity identity;
  private final IntSupplier free;
  private final Supplier<Set<String>> workingOn;
  private final Consumer<LockedExternalTask> handOver;
  private volatile boolean active;
  private volatile boolean serving;
  private Thread thread;
  private SingleConsumerCondition wakeUp;

  /**
   * @param free how many more tasks the worker may take now
   * @param workingOn the ids of those tasks
   * @param handOver takes a task locked for the worker
   */
  TaskFetcher(ExternalTaskService externalTasks, WorkerOptions settings, Set<String> topics, WorkerIdentity identity,
      IntSupplier free, Supplier<Set<String>> workingOn, Consumer<LockedExternalTask> handOver) {
    this.externalTasks = externalTasks;
    this.settings = settings;
    this.topics = topics;
    this.identity = identity;
    this.free = free;
    this.workingOn = workingOn;
    this.handOver = handOver;
  }

  void start(ThreadFactory threads) {
    active = true;
    thread = threads.newThread(this::loop);
    thread.setName("agentloop-fetcher");
    wakeUp = new SingleConsumerCondition(thread);
    thread.start();
  }

  /** Ends the loop and waits for its thread, at most one {@code idleWait} and five seconds. */
  void stop() throws InterruptedException {
    active = false;
    serving = false;
    wakeUp.signal();
    thread.join(settings.idleWait().toMillis() + 5_000);
  }

  /** Fetches at once: tasks were created, or the worker has room again. */
  void wakeUp() {
    wakeUp.signal();
  }

  /** Whether this process holds its worker id and serves tasks. */
  boolean serving() {
    return serving;
  }

  private void loop() {
    while (active) {
      try {
        serving = identity.holds(workingOn);
        if (!serving) {
          wakeUp.await(WorkerLease.RENEWAL.toMillis());
          continue;
        }
        int wanted = Math.max(0, Math.min(free.getAsInt(), settings.maxTasksPerFetch()));
        List<LockedExternalTask> tasks = wanted > 0 ? fetch(wanted) : List.of();
        tasks.forEach(handOver);
        if (tasks.size() < wanted || wanted == 0) {
          wakeUp.await(settings.idleWait().toMillis());
        }
      } catch (RuntimeException e) {
        LOG.warn("AGENTLOOP-001 fetching tasks failed; trying again in {}. If this repeats, check the database"
            + " connection", settings.idleWait(), e);
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
    for (String topic : topics) {
      query = query.topic(topic, lockMillis).variables(List.of());
    }
    return query.execute();
  }
}
