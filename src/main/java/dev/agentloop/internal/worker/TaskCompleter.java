package dev.agentloop.internal.worker;

import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.internal.trace.StaleHeadException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.exception.NotFoundException;
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
class TaskCompleter<S> {

  private static final Logger LOG = LoggerFactory.getLogger(TaskCompleter.class);
  private static final int ATTEMPTS_ON_CONFLICT = 3;

  private final ExternalTaskService externalTasks;
  private final TransactionTemplate transaction;
  private final WorkerOptions settings;
  private final Set<String> topics;
  private final CommandExecutor commands;

  TaskCompleter(ExternalTaskService externalTasks, CommandExecutor commands,
      PlatformTransactionManager transactionManager, WorkerOptions settings, Set<String> topics) {
    this.externalTasks = externalTasks;
    this.commands = commands;
    this.transaction = new TransactionTemplate(transactionManager);
    this.settings = settings;
    this.topics = Set.copyOf(topics);
  }

  /** What a completion handed on: the next tasks of the instance, locked for us, and the carried state. */
  record Continuation<S>(List<LockedExternalTask> tasks, S carried) {
    static <S> Continuation<S> none() {
      return new Continuation<>(List.of(), null);
    }
  }

  /**
   * @param maxNext how many next tasks of the run may be locked for this worker (0: leave them to the fetcher)
   */
  Continuation<S> complete(LockedExternalTask task, TaskResult<S> result, int maxNext) {
    for (int attempt = 1; attempt <= ATTEMPTS_ON_CONFLICT; attempt++) {
      try {
        return transaction.execute(status -> commands.execute(context -> apply(context, task, result, maxNext)));
      } catch (NotFoundException e) {
        // the task was cancelled (the run left the loop), or completed by another node after our lock expired
        LOG.info("result of task {} ({}) dropped: {}", task.getId(), task.getActivityId(), e.getMessage());
        keepWhatIsPaidFor(task, result);
        return Continuation.none();
      } catch (BadUserRequestException e) {
        // another node holds the task now (our lock expired): it does the work again and writes it
        LOG.info("result of task {} ({}) dropped: {}", task.getId(), task.getActivityId(), e.getMessage());
        return Continuation.none();
      } catch (StaleHeadException e) {
        // the trace moved on (an edit, a person's stop, or a write we raced): if the task survived, run it again on
        // the new head; what it cost is kept where the run was stopped (the trace decides, see keepLate)
        LOG.info("result of task {} ({}) dropped: {}", task.getId(), task.getActivityId(), e.getMessage());
        keepWhatIsPaidFor(task, result);
        unlockQuietly(task);
        return Continuation.none();
      } catch (OptimisticLockingException e) {
        LOG.debug("task {} hit a concurrent change, attempt {}", task.getId(), attempt, e);
      }
    }
    LOG.warn("AGENTLOOP-003 task {} ({}) kept conflicting with concurrent changes; unlocking it so it runs again."
        + " If this repeats for one run, see what else changes it (another application, a script)",
        task.getId(), task.getActivityId());
    unlockQuietly(task);
    return Continuation.none();
  }

  /**
   * Completes several tasks in one command, and so in one transaction with one commit and one flush
   * of the engine's changes, in which the engine reads what they share (the process definition) once.
   * All or none: when any of them fails (a conflict, a stale head, a task gone, a broken write), the
   * whole transaction rolls back, nothing of it is written, and the result is empty; the caller then
   * completes each task {@link #complete alone}, where a failure is that task's and no other's.
   *
   * @return what each completion handed on, in the order of {@code batch}; empty when the batch rolled back
   */
  Optional<List<Continuation<S>>> completeTogether(List<GroupCommit.Completion<S>> batch, int maxNext) {
    try {
      return Optional.of(transaction.execute(status -> commands.execute(context -> batch.stream()
          .map(completion -> ExternalTaskWorker.withMdc(completion.task(),
              () -> apply(context, completion.task(), completion.result(), maxNext)))
          .toList())));
    } catch (RuntimeException | Error e) {
      LOG.debug("a batch of {} completions rolled back; completing each alone", batch.size(), e);
      return Optional.empty();
    }
  }

  /**
   * Reports a technical failure: the task's retries count down, and with none left the engine raises
   * an incident. The message leads with the cause and says what happens next (the next attempt, or
   * that an operator retries the incident), so that Cockpit shows it without the stack trace.
   */
  void fail(LockedExternalTask task, Throwable error) {
    Throwable cause = AsyncFailures.unwrap(error);
    int remaining = refusedAccess(cause) ? 0
        : task.getRetries() == null ? settings.retries() : Math.max(task.getRetries() - 1, 0);
    // this failure included: the first failure waits the base back-off, each further one twice as long
    int failures = settings.retries() - remaining + 1;
    Duration backoff = settings.backoffAfter(failures);
    String message = TaskFailureMessage.message(cause, remaining, backoff);
    if (remaining == 0) {
      LOG.warn("AGENTLOOP-004 task {} ({}) failed, no retries left, an incident is raised: {}. Once the cause is"
          + " gone, retry the incident in Cockpit, or take the run's escape route", task.getId(), task.getActivityId(),
          message, cause);
    } else {
      LOG.info("task {} ({}) failed, {} retries left: {}", task.getId(), task.getActivityId(), remaining, message);
    }
    try {
      externalTasks.handleFailure(task.getId(), settings.workerId(), message, TaskFailureMessage.stackTrace(cause),
          remaining, backoff.toMillis());
    } catch (BadUserRequestException e) {
      LOG.info("failure of task {} not reported, the task is gone: {}", task.getId(), e.getMessage());
    }
  }

  /**
   * A model endpoint that refused the key (401) or the access (403): trying again with the same key only
   * delays the incident through which an operator learns to fix it.
   */
  private static boolean refusedAccess(Throwable cause) {
    return cause instanceof ModelCallException refused && !refused.isRetryable()
        && (refused.httpStatus() == 401 || refused.httpStatus() == 403);
  }

  /**
   * Whether this worker still holds the task's lock: not when the task is gone (its run left the loop, an edit
   * moved it), nor when the lock ran out (the task may be another's, or this worker's again by a new fetch).
   */
  boolean stillOurs(LockedExternalTask task) {
    return externalTasks.createExternalTaskQuery().externalTaskId(task.getId()).workerId(settings.workerId())
        .locked().count() > 0;
  }

  /** The task is gone, but what its work cost (a model call's reply) is kept; a failure to keep it is logged only. */
  private static void keepWhatIsPaidFor(LockedExternalTask task, TaskResult<?> result) {
    try {
      result.whenGone().run();
    } catch (RuntimeException e) {
      LOG.warn("AGENTLOOP-041 what task {} ({}) cost could not be kept after it was gone: {}. The run's trace lacks"
          + " that cost; if this repeats, check the database connection", task.getId(), task.getActivityId(),
          e.getMessage(), e);
    }
  }

  void unlockQuietly(LockedExternalTask task) {
    unlockQuietly(task.getId());
  }

  void unlockQuietly(String taskId) {
    try {
      externalTasks.unlock(taskId);
    } catch (RuntimeException e) {
      LOG.debug("task {} could not be unlocked: {}", taskId, e.getMessage());
    }
  }

  private Continuation<S> apply(CommandContext context, LockedExternalTask task, TaskResult<S> result, int maxNext) {
    S carried = result.write().get();
    List<LockedExternalTask> next = new CompleteAndContinueCmd(task, result, settings, topics, maxNext).execute(context);
    return new Continuation<>(next, carried);
  }
}
