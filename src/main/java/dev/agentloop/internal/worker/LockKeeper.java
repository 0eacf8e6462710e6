package dev.agentloop.internal.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.camunda.bpm.engine.impl.db.DbEntity;
import org.camunda.bpm.engine.impl.db.entitymanager.DbEntityManager;
import org.camunda.bpm.engine.impl.db.entitymanager.OptimisticLockingListener;
import org.camunda.bpm.engine.impl.db.entitymanager.OptimisticLockingResult;
import org.camunda.bpm.engine.impl.db.entitymanager.operation.DbOperation;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.impl.persistence.entity.ExternalTaskEntity;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the locks of the tasks this worker works on: every third of {@code lockDuration} it extends
 * each lock that would run out within the next two thirds, as Camunda's {@code extendLock} does, all
 * of them in one transaction. So locks can
 * be short, and a node that dies stops holding its runs one lock duration later, while a live node
 * keeps a task as long as it works on it and no other node takes it meanwhile. A task that finishes
 * in less than a third of the lock, as most steps do, costs no extension at all.
 *
 * <p>A lock that cannot be extended (the task completed, cancelled, or the database away) is left to
 * run out; completing it later is refused by the engine if another worker took it meanwhile, and the
 * result is dropped ({@link TaskCompleter}). Thread-safe: the worker's threads register and release,
 * one thread of its own extends.
 */
final class LockKeeper {

  private static final Logger LOG = LoggerFactory.getLogger(LockKeeper.class);

  /** Locks extended in one transaction at most: bounds its length on a node with many tasks in flight. */
  private static final int BATCH = 100;

  private final CommandExecutor commands;
  private final String workerId;
  private final Duration lock;
  /** Task id to when its lock runs out ({@link System#nanoTime}). */
  private final Map<String, Long> lockedUntil = new ConcurrentHashMap<>();
  private ScheduledExecutorService keeper;

  LockKeeper(CommandExecutor commands, WorkerOptions settings) {
    this.commands = commands;
    this.workerId = settings.workerId();
    this.lock = settings.lockDuration();
  }

  void start(ThreadFactory threads) {
    keeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = threads.newThread(runnable);
      thread.setName("agentloop-lock-keeper");
      return thread;
    });
    long period = Math.max(lock.toMillis() / 3, 1);
    keeper.scheduleWithFixedDelay(this::extendDue, period, period, TimeUnit.MILLISECONDS);
  }

  /** Stops extending; the locks of tasks still registered run out unless the worker unlocks them. */
  void stop() {
    if (keeper != null) {
      keeper.shutdownNow();
    }
    lockedUntil.clear();
  }

  /** The worker took this task, locked for {@code lockDuration} from about now. */
  void locked(String taskId) {
    lockedUntil.put(taskId, System.nanoTime() + lock.toNanos());
  }

  /** The worker is done with this task. */
  void released(String taskId) {
    lockedUntil.remove(taskId);
  }

  void extendDue() {
    long dueBefore = System.nanoTime() + lock.toNanos() * 2 / 3;
    List<String> due = lockedUntil.entrySet().stream().filter(entry -> entry.getValue() - dueBefore < 0)
        .map(Map.Entry::getKey).toList();
    for (int from = 0; from < due.size(); from += BATCH) {
      List<String> batch = due.subList(from, Math.min(from + BATCH, due.size()));
      long extendedUntil = System.nanoTime() + lock.toNanos();
      try {
        commands.execute(context -> extend(context, batch)).forEach(id ->
            lockedUntil.computeIfPresent(id, (task, until) -> extendedUntil));
      } catch (RuntimeException e) {
        // once per batch, not once per task: with the database away, that would be a line per task in flight
        LOG.warn("AGENTLOOP-002 locks of {} tasks could not be extended, trying again in {} ms: {}. If this repeats,"
            + " check the database connection: a task whose lock runs out is run again", batch.size(),
            lock.toMillis() / 3, e.getMessage());
      }
    }
  }

  /**
   * Extends in one transaction the locks this worker still holds of these tasks. One transaction per
   * batch, not per task: one by one, a loaded node extended too slowly and lost locks it still needed.
   * A task completed or unlocked meanwhile is skipped; should one be deleted or changed between read
   * and write, its update is ignored instead of failing the others.
   *
   * @return the tasks whose locks were extended
   */
  private List<String> extend(CommandContext context, List<String> taskIds) {
    DbEntityManager entities = context.getDbEntityManager();
    entities.registerOptimisticLockingListener(new OptimisticLockingListener() {
      @Override
      public Class<? extends DbEntity> getEntityType() {
        return ExternalTaskEntity.class;
      }

      @Override
      public OptimisticLockingResult failedOperation(DbOperation operation) {
        return OptimisticLockingResult.IGNORE;
      }
    });
    Date now = ClockUtil.getCurrentTime();
    List<String> extended = new ArrayList<>();
    for (String id : taskIds) {
      ExternalTaskEntity task = entities.selectById(ExternalTaskEntity.class, id);
      if (task != null && workerId.equals(task.getWorkerId()) && task.getLockExpirationTime() != null
          && task.getLockExpirationTime().after(now)) {
        task.extendLock(lock.toMillis());
        extended.add(id);
      } else {
        LOG.debug("lock of task {} not extended: the task is gone, or no longer locked by this worker", id);
      }
    }
    return extended;
  }
}
