package dev.agentloop.internal.worker;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.ExternalTaskEntity;
import org.camunda.bpm.engine.impl.util.ClockUtil;

/**
 * Locks for this worker, in the command that created them, tasks on its topics: they are new
 * entities in the command's cache, so the lock is written with their insert, and the run's step
 * begins without a fetch, a query or a transaction of its own.
 */
final class CreatedTasks {

  private CreatedTasks() {}

  /** Locks at most {@code max} unlocked, active tasks on {@code topics} in the command's cache that {@code which} accepts. */
  static List<LockedExternalTask> lock(CommandContext context, WorkerOptions settings, Set<String> topics, int max,
      Predicate<ExternalTaskEntity> which) {
    List<LockedExternalTask> locked = new ArrayList<>();
    long lockMillis = settings.lockDuration().toMillis();
    for (ExternalTaskEntity created : context.getDbEntityManager().getCachedEntitiesByType(ExternalTaskEntity.class)) {
      if (locked.size() < max && topics.contains(created.getTopicName()) && created.getWorkerId() == null
          && !created.isSuspended() && which.test(created)) {
        created.lock(settings.workerId(), lockMillis);
        locked.add(new ChainedTask(created, settings.workerId(),
            new Date(ClockUtil.getCurrentTime().getTime() + lockMillis)));
      }
    }
    return locked;
  }
}
