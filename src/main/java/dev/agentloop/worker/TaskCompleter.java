package dev.agentloop.worker;

import dev.agentloop.trace.StaleHeadException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletionException;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies a handler's result to the engine: trace steps and completion in one transaction, or a
 * failure with retries and back-off. A task that is gone (cancelled by an edit, completed by another
 * node after our lock expired) makes the whole result roll back: nothing half-written stays.
 */
class TaskCompleter {

  private static final Logger LOG = LoggerFactory.getLogger(TaskCompleter.class);
  private static final int ATTEMPTS_ON_CONFLICT = 3;

  private final ExternalTaskService externalTasks;
  private final TransactionTemplate transaction;
  private final WorkerSettings settings;

  TaskCompleter(ExternalTaskService externalTasks, PlatformTransactionManager transactionManager, WorkerSettings settings) {
    this.externalTasks = externalTasks;
    this.transaction = new TransactionTemplate(transactionManager);
    this.settings = settings;
  }

  void complete(LockedExternalTask task, TaskResult result) {
    for (int attempt = 1; attempt <= ATTEMPTS_ON_CONFLICT; attempt++) {
      try {
        transaction.executeWithoutResult(status -> apply(task, result));
        return;
      } catch (BadUserRequestException e) {
        // NotFoundException is one: the task was cancelled, or completed by another node after our lock expired
        LOG.info("result of task {} ({}) dropped: {}", task.getId(), task.getActivityId(), e.getMessage());
        return;
      } catch (StaleHeadException e) {
        // the trace moved on (an edit, or a write we raced): if the task survived, run it again on the new head
        LOG.info("result of task {} ({}) dropped: {}", task.getId(), task.getActivityId(), e.getMessage());
        unlockQuietly(task);
        return;
      } catch (OptimisticLockingException e) {
        LOG.debug("task {} hit a concurrent change, attempt {}", task.getId(), attempt, e);
      }
    }
    LOG.warn("task {} ({}) kept conflicting with concurrent changes; unlocking it so it runs again",
        task.getId(), task.getActivityId());
    unlockQuietly(task);
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

  private void apply(LockedExternalTask task, TaskResult result) {
    result.write().run();
    if (result instanceof TaskResult.Escape escape) {
      externalTasks.handleBpmnError(task.getId(), settings.workerId(), escape.errorCode(), escape.message(),
          escape.variables());
    } else {
      externalTasks.complete(task.getId(), settings.workerId(), result.variables());
    }
  }

  private static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
