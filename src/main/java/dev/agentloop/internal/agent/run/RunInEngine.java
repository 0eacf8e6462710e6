package dev.agentloop.internal.agent.run;

import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.camunda.bpm.engine.runtime.Incident;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;

/**
 * What the engine knows of a run that its record does not: its incidents, the tasks and messages it waits for, its
 * historic instance and the version of the agent it is on. Read without authorization: how a run stands is the same
 * for everyone who may read it, whatever tasks they may see. Thread-safe.
 */
final class RunInEngine {

  private final ProcessEngine engine;
  private final EngineCommands commands;

  RunInEngine(ProcessEngine engine, EngineCommands commands) {
    this.engine = engine;
    this.commands = commands;
  }

  List<Incident> incidents(String runId) {
    return commands.withoutAuthorization(() ->
        engine.getRuntimeService().createIncidentQuery().processInstanceId(runId).list());
  }

  List<String> waitingFor(String runId) {
    List<String> tasks = commands.withoutAuthorization(() -> engine.getTaskService().createTaskQuery()
        .processInstanceId(runId).list()).stream().map(Task::getTaskDefinitionKey).toList();
    return !tasks.isEmpty() || !waitsForFollowUp(runId) ? tasks : List.of(RunView.FOLLOW_UP);
  }

  boolean waitsForFollowUp(String runId) {
    return commands.withoutAuthorization(() -> engine.getRuntimeService().createEventSubscriptionQuery()
        .processInstanceId(runId).eventType("message").eventName(ReactAgentProcess.FOLLOW_UP_MESSAGE).count() > 0);
  }

  /** The run's process instance in the engine's history, {@code null} where the engine keeps none. */
  HistoricProcessInstance historic(String runId) {
    return commands.withoutAuthorization(() -> engine.getHistoryService()
        .createHistoricProcessInstanceQuery().processInstanceId(runId).singleResult());
  }

  /**
   * The version of the agent the run is on: by its historic instance, which a migration moves too, else (a host
   * without history) by its running instance.
   */
  Integer agentVersion(String runId, HistoricProcessInstance instance) {
    if (instance != null) {
      return instance.getProcessDefinitionVersion();
    }
    return commands.withoutAuthorization(() -> {
      ProcessInstance running = engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(runId)
          .singleResult();
      return running == null ? null
          : engine.getRepositoryService().getProcessDefinition(running.getProcessDefinitionId()).getVersion();
    });
  }

  /**
   * What a child run started again after an edit answers ({@link ReactAgentProcess#REANSWERS}), {@code null} for any
   * other run; a query, not a read of the instance: the run may end while it is shown.
   */
  String reanswers(String runId) {
    HistoricVariableInstance reanswers = commands.withoutAuthorization(() -> engine.getHistoryService()
        .createHistoricVariableInstanceQuery().processInstanceId(runId)
        .variableName(ReactAgentProcess.REANSWERS.name()).singleResult());
    return reanswers == null || reanswers.getValue() == null ? null : String.valueOf(reanswers.getValue());
  }
}
