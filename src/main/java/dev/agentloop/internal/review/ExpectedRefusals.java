package dev.agentloop.internal.review;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.cmd.CompleteTaskCmd;
import org.camunda.bpm.engine.impl.cmd.SubmitTaskFormCmd;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.camunda.bpm.engine.impl.interceptor.Command;
import org.camunda.bpm.engine.impl.interceptor.CommandInterceptor;
import org.camunda.bpm.engine.impl.persistence.entity.HistoricTaskInstanceEntity;
import org.camunda.bpm.engine.impl.persistence.entity.TaskEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the expected outcomes of a person's submission out of the engine's error log. Camunda logs
 * every exception that ends a command at ERROR with its stack trace ({@code ENGINE-16004}), except
 * bad user requests, optimistic locks and authorization failures, which it logs at DEBUG. A review's
 * refusal is a {@link ReviewException} (a bad user request), but the engine wraps what a task listener
 * throws in a plain {@code ProcessEngineException}; and a completion that lost a race against another
 * one for the same task can fail inside the engine in any way, an NPE ("scopeExecution is null") among
 * them. This interceptor runs inside the command context, so it hands the context the refusal itself,
 * unwrapped, and turns a completion whose task another request completed meanwhile into a
 * {@link TaskDecidedException}: Camunda then logs them at DEBUG, AgentLoop's API logs one INFO line, and
 * the engine REST API answers 400 with the refusal's sentence. Every other failure passes untouched.
 *
 * <p>Outside the command context, {@link Outside} hands the caller of a completion a refusal, a lost race
 * or an optimistic lock as a {@link FormFieldValidationException} with the refusal as its cause: the one
 * failure of a completion that the engine REST API answers 400 (with no stack trace in its log) rather
 * than 500, and, as before, an exception whose root cause is the review's. Lost races and optimistic
 * locks are treated so only for the tasks of agents: the host's own tasks fail as Camunda makes them.
 * Registered by a process-engine plugin of its own. Thread-safe.
 */
class ExpectedRefusals extends CommandInterceptor {

  private static final Logger LOG = LoggerFactory.getLogger(ExpectedRefusals.class);

  private final ProcessEngineConfigurationImpl configuration;
  private final Predicate<String> isAgent;

  /** @param isAgent whether the process definition with this id is an agent's */
  ExpectedRefusals(ProcessEngineConfigurationImpl configuration, Predicate<String> isAgent) {
    this.configuration = configuration;
    this.isAgent = isAgent;
  }

  /**
   * The plugin that puts the interceptors around and behind the engine's command context.
   *
   * @param isAgent whether the process definition with this id is an agent's
   */
  static AbstractProcessEnginePlugin plugin(Predicate<String> isAgent) {
    return new AbstractProcessEnginePlugin() {
      @Override
      public void preInit(ProcessEngineConfigurationImpl configuration) {
        ExpectedRefusals inside = new ExpectedRefusals(configuration, isAgent);
        configuration.setCustomPostCommandInterceptorsTxRequired(
            with(configuration.getCustomPostCommandInterceptorsTxRequired(), inside));
        configuration.setCustomPostCommandInterceptorsTxRequiresNew(
            with(configuration.getCustomPostCommandInterceptorsTxRequiresNew(), inside));
        configuration.setCustomPreCommandInterceptorsTxRequired(
            with(configuration.getCustomPreCommandInterceptorsTxRequired(), inside.new Outside()));
      }
    };
  }

  private static List<CommandInterceptor> with(List<CommandInterceptor> interceptors, CommandInterceptor added) {
    List<CommandInterceptor> all = interceptors == null ? new ArrayList<>() : new ArrayList<>(interceptors);
    all.add(added);
    return all;
  }

  @Override
  public <T> T execute(Command<T> command) {
    try {
      return next.execute(command);
    } catch (BadUserRequestException | OptimisticLockingException expected) {
      throw expected;
    } catch (RuntimeException failure) {
      Optional<ReviewException> refusal = cause(failure, ReviewException.class);
      if (refusal.isPresent()) {
        throw refusal.get();
      }
      Optional<String> taskId = completedTask(command);
      if (taskId.isPresent() && isGone(taskId.get()) && isAgentTask(taskId.get())) {
        LOG.debug("completion of task {} lost the race against another one", taskId.get(), failure);
        throw Refusals.refuse(new TaskDecidedException("task " + taskId.get() + " was already completed by"
            + " another request at the same moment; that decision stands and this one changed nothing", failure));
      }
      throw failure;
    }
  }

  /** Around the command context: what the caller of a refused or lost completion gets, see the class comment. */
  final class Outside extends CommandInterceptor {

    @Override
    public <T> T execute(Command<T> command) {
      try {
        return next.execute(command);
      } catch (ReviewException | TaskDecidedException | OptimisticLockingException expected) {
        Optional<String> taskId = completedTask(command);
        if (taskId.isEmpty()
            || (expected instanceof OptimisticLockingException && !isAgentTask(taskId.get()))) {
          throw expected;
        }
        String message = expected instanceof OptimisticLockingException
            ? "the run changed at the same moment (another decision, or the agent's own step); nothing of this"
                + " submission was applied: open the task again"
            : expected.getMessage();
        throw new FormFieldValidationException(null, Refusals.refuse(new ReviewException(message)).getMessage(),
            expected);
      }
    }
  }

  /** The task a completing command completes, read from Camunda's command (its field has no getter). */
  private static Optional<String> completedTask(Command<?> command) {
    Class<?> type = command instanceof SubmitTaskFormCmd ? SubmitTaskFormCmd.class
        : command instanceof CompleteTaskCmd ? CompleteTaskCmd.class : null;
    if (type == null) {
      return Optional.empty();
    }
    try {
      Field field = type.getDeclaredField("taskId");
      field.setAccessible(true);
      return Optional.ofNullable((String) field.get(command));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Whether the task is no longer there, as committed: asked in a transaction of its own. */
  private boolean isGone(String taskId) {
    try {
      return configuration.getCommandExecutorTxRequiresNew()
          .execute(context -> context.getTaskManager().findTaskById(taskId) == null);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Whether the task (open, or done as history keeps it) belongs to an agent; asked in a transaction of its own. */
  private boolean isAgentTask(String taskId) {
    try {
      // in a context of its own: the one of the failed command must not run more commands
      return configuration.getCommandExecutorTxRequiresNew().execute(context -> {
        TaskEntity task = context.getTaskManager().findTaskById(taskId);
        HistoricTaskInstanceEntity done = task != null ? null
            : context.getHistoricTaskInstanceManager().findHistoricTaskInstanceById(taskId);
        String definition = task != null ? task.getProcessDefinitionId()
            : done == null ? null : done.getProcessDefinitionId();
        return definition != null && isAgent.test(definition);
      });
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static <E extends Throwable> Optional<E> cause(Throwable error, Class<E> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return Optional.of(type.cast(t));
      }
    }
    return Optional.empty();
  }
}
