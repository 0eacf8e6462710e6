package dev.agentloop.worker;

import dev.agentloop.trace.StaleHeadException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies a handler's result to the engine: trace steps and completion in one transaction, or a
 * failure with retries and back-off. A task that is gone (cancelled by an edit, completed by another
 * node after our lock expired) makes the whole result roll back: nothing half-written stays.
 *
 * <p>In the completing transaction it also locks the instance's next task on our topics, if any:
 * the run continues on this worker without a fetch and with its state in hand.
 */
class TaskCompleter {

  private static final Logger LOG = LoggerFactory.getLogger(TaskCompleter.class);
  private static final int ATTEMPTS_ON_CONFLICT = 3;

  private final ExternalTaskService externalTasks;
  private final TransactionTemplate transaction;
  private final WorkerSettings settings;
  private final Set<String> topics;
  private final CommandExecutor commands;

  TaskCompleter(ExternalTaskService externalTasks, CommandExecutor commands,
      PlatformTransactionManager transactionManager, WorkerSettings settings, Set<String> topics) {
    this.externalTasks = externalTasks;
    this.commands = commands;
    this.transaction = new TransactionTemplate(transactionManager);
    this.settings = settings;
    this.topics = Set.copyOf(topics);
  }

  /** What a completion handed on: the next tasks of the instance, locked for us, and the carried state. */
  record Continuation(List<LockedExternalTask> tasks, Object carried) {
    static final Continuation NONE = new Continuation(List.of(), null);
  }

  /**
   * @param maxNext how many next tasks of the run may be locked for this worker (0: leave them to the fetcher)
   */
  Continuation complete(LockedExternalTask task, TaskResult result, int maxNext) {
    for (int attempt = 1; attempt <= ATTEMPTS_ON_CONFLICT; attempt++) {
      try {
        return transaction.execute(status -> commands.execute(context -> apply(context, task, result, maxNext)));
      } catch (BadUserRequestException e) {
        // NotFoundException is one: the task was cancelled, or completed by another node after our lock expired
        LOG.info("result of task {} ({}) dropped: {}", task.getId(), task.getActivityId(), e.getMessage());
        return Continuation.NONE;
      } catch (StaleHeadException e) {
        // the trace moved on (an edit, or a write we raced): if the task survived, run it again on the new head
        LOG.info("result of task {} ({}) dropped: {}", task.getId(), task.getActivityId(), e.getMessage());
        unlockQuietly(task);
        return Continuation.NONE;
      } catch (OptimisticLockingException e) {
        LOG.debug("task {} hit a concurrent change, attempt {}", task.getId(), attempt, e);
      }
    }
    LOG.warn("task {} ({}) kept conflicting with concurrent changes; unlocking it so it runs again",
        task.getId(), task.getActivityId());
    unlockQuietly(task);
    return Continuation.NONE;
  }

  void fail(LockedExternalTask task, Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    int remaining = task.getRetries() == null ? settings.retries() : Math.max(task.getRetries() - 1, 0);
    int failures = settings.retries() - remaining;
    String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
    if (remaining == 0) {
      LOG.warn("task {} ({}) failed, no retries left, an incident is raised: {}", task.getId(), task.getActivityId(), message);
    } else {
      LOG.info("task {} ({}) failed, {} retries left: {}", task.getId(), task.getActivityId(), remaining, message);
    }
    try {
      externalTasks.handleFailure(task.getId(), settings.workerId(), message, stackTrace(cause), remaining,
          settings.backoffAfter(failures).toMillis());
    } catch (BadUserRequestException e) {
      LOG.info("failure of task {} not reported, the task is gone: {}", task.getId(), e.getMessage());
    }
  }

  void unlockQuietly(LockedExternalTask task) {
    try {
      externalTasks.unlock(task.getId());
    } catch (RuntimeException e) {
      LOG.debug("task {} could not be unlocked: {}", task.getId(), e.getMessage());
    }
  }

  private Continuation apply(CommandContext context, LockedExternalTask task, TaskResult result, int maxNext) {
    Object carried = result.write().get();
    List<LockedExternalTask> next = new CompleteAndContinueCmd(task, result, settings, topics, maxNext).execute(context);
    return new Continuation(next, carried);
  }

  private static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
