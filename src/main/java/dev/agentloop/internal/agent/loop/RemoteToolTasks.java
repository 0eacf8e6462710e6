package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.StepCost;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.ExternalTaskEntity;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of a turn that remote workers serve, and both ends of one such call in the diagram.
 *
 * <p>{@code act} runs the calls it can run here and leaves those of remote tools pending; the
 * diagram then takes {@code callRemoteTool} once per pending call, each time back through
 * {@code act}. When {@code callRemoteTool} starts, {@link #startListener()} puts the first pending
 * call into its local variables {@code callId}, {@code tool} and {@code arguments} (the topic is
 * {@code agentloop.tool.${tool}}); a remote worker fetches them and completes the task with
 * {@code result} or {@code error}. {@link #endListener()} then writes the observation in the
 * transaction that completes the task, authored by the tool, with the worker's id.
 *
 * <p>Nothing is written twice: the engine lets an external task complete once (a late completion of
 * a task that was completed, cancelled or locked again by another worker fails with 404), a call
 * that has its observation already is not observed again, and the append expects the head it read,
 * so a concurrent change of the trace rolls the completion back. A task cancelled (by an edit, an
 * escape or a deletion) writes nothing. Thread-safe.
 */
public class RemoteToolTasks {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteToolTasks.class);

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ToolRegistry tools;
  private final CallerBudgets callers;

  public RemoteToolTasks(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools) {
    this(definitions, reader, store, tools, CallerBudgets.NONE);
  }

  /** @param callers where a remote call is charged when other agents' calls led to its run */
  public RemoteToolTasks(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      CallerBudgets callers) {
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.tools = tools;
    this.callers = callers;
  }

  /**
   * The calls of the current turn that wait for a remote worker, in the order the model made them,
   * as they are to run (with the arguments a person edited): calls of remote tools the agent may
   * call, not rejected, with arguments that fit the tool's schema. {@code act} reports the others.
   */
  List<Action> pending(LoopState state, AgentSettings settings) {
    return pending(state.turn(), settings);
  }

  /** The same, for a turn the caller holds already. */
  List<Action> pending(Turn turn, AgentSettings settings) {
    return turn.open().stream()
        .filter(call -> !turn.rejected(call))
        .map(turn::asRun)
        .filter(call -> goesRemote(call, settings))
        .toList();
  }

  /** Puts the first pending remote call into the starting {@code callRemoteTool}'s local variables. */
  public ExecutionListener startListener() {
    return execution -> {
      AgentSettings settings = definitions.settings(execution.getProcessDefinitionId());
      LoopState state = reader.read(execution.getProcessInstanceId(), settings.pathStepsToRead());
      Action call = pending(state, settings).stream().findFirst().orElseThrow(() -> new IllegalStateException(
          "run " + execution.getProcessInstanceId() + " has no call of a remote tool waiting: '"
              + execution.getCurrentActivityId() + "' must only be reached from act, when it routes to remote calls"));
      execution.setVariableLocal(ReactAgentProcess.CALL_ID.name(), call.callId());
      execution.setVariableLocal(ReactAgentProcess.TOOL.name(), call.tool());
      ReactAgentProcess.ARGUMENTS.setLocal(execution, call.arguments().toString());
    };
  }

  /** Writes what the remote worker completed the task with as the call's observation. */
  public ExecutionListener endListener() {
    return execution -> {
      if (execution.isCanceled()) {
        return; // cancelled by an edit, an escape or a deletion: no worker answered
      }
      String callId = ReactAgentProcess.CALL_ID.get(execution);
      Object result = take(execution, ReactAgentProcess.RESULT);
      Object error = take(execution, ReactAgentProcess.ERROR);
      AgentSettings settings = definitions.settings(execution.getProcessDefinitionId());
      LoopState state = reader.read(execution.getProcessInstanceId(), settings.pathStepsToRead());
      Optional<Action> call = pending(state, settings).stream().filter(a -> a.callId().equals(callId)).findFirst();
      if (call.isEmpty()) {
        LOG.info("call {} of run {} is observed already; the remote result is dropped", callId,
            execution.getProcessInstanceId());
        return;
      }
      Optional<ExternalTaskEntity> task = completedTask(execution);
      Observation observation = observation(call.get(), result, error, settings)
          .byWorker(task.map(ExternalTaskEntity::getWorkerId).orElse(null));
      // what the run waited: from the task's creation, when the call left, to its completion
      Long latency = task.map(ExternalTaskEntity::getCreateTime).filter(Objects::nonNull)
          .map(created -> Math.max(0, ClockUtil.getCurrentTime().getTime() - created.getTime())).orElse(null);
      // authored by the tool, as a local tool's observation is
      store.append(state.head(), List.of(new NewStep(observation, observation.tool())),
          Usage.toolCalls(1, List.of(StepCost.toolCall(latency))));
      callers.charge(state.run(), 0, 1, 0);
    };
  }

  private boolean goesRemote(Action call, AgentSettings settings) {
    return tools.isRemote(call.tool()) && tools.refusal(call.tool(), call.argumentsAsWritten(), settings::allows).isEmpty();
  }

  private static Observation observation(Action call, Object result, Object error, AgentSettings settings) {
    if (error != null) {
      return Observation.error(call, String.valueOf(error));
    }
    if (result == null) {
      return Observation.error(call, "the remote worker completed '" + call.tool() + "' without a "
          + ReactAgentProcess.RESULT + " or an " + ReactAgentProcess.ERROR);
    }
    String text = String.valueOf(result);
    int limit = settings.prompt().maxStepChars();
    return Observation.result(call, text.length() <= limit ? text
        : text.substring(0, limit) + "\n[cut: " + (text.length() - limit) + " more characters]");
  }

  /** Reads a variable the worker completed the task with and removes it: the trace keeps it, not the instance. */
  private static Object take(DelegateExecution execution, String name) {
    Object value = execution.getVariable(name);
    if (execution.hasVariable(name)) {
      execution.removeVariable(name);
    }
    return value;
  }

  /** The completed task left the execution already, but it is still in this command's cache. */
  private static Optional<ExternalTaskEntity> completedTask(DelegateExecution execution) {
    CommandContext command = Context.getCommandContext();
    if (command == null) {
      return Optional.empty();
    }
    return command.getDbEntityManager().getCachedEntitiesByType(ExternalTaskEntity.class).stream()
        .filter(task -> execution.getId().equals(task.getExecutionId()))
        .findFirst();
  }
}
