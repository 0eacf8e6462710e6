package dev.agentloop.agent;

import dev.agentloop.trace.Decision;
import dev.agentloop.trace.FinalAnswer;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.RunStatus;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import java.util.List;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.engine.runtime.Incident;
import org.camunda.bpm.engine.task.Task;

/**
 * Starts agent runs and tells how they stand: the public API behind the REST resource and any
 * Java code embedding AgentLoop. Thread-safe.
 */
public class AgentRuns {

  private final ProcessEngine engine;
  private final StepStore store;
  private final AgentDefinitions definitions;

  public AgentRuns(ProcessEngine engine, StepStore store, AgentDefinitions definitions) {
    this.engine = engine;
    this.store = store;
    this.definitions = definitions;
  }

  /**
   * Starts a run of the latest version of an agent.
   *
   * @return the run id, which is the process instance id
   * @throws UnknownAgentException when no agent with that key is deployed
   */
  public String start(String agentKey, String question) {
    if (!deployedAgents().contains(agentKey)) {
      throw new UnknownAgentException(agentKey, deployedAgents());
    }
    return engine.getRuntimeService()
        .startProcessInstanceByKey(agentKey, ReactAgentProcess.QUESTION.with(question))
        .getId();
  }

  /**
   * The keys of all deployed agent processes, sorted. Whoever asks sees them all: a user who may
   * not start an agent is told so by the engine when trying, rather than that it does not exist.
   */
  private List<String> deployedAgents() {
    return withoutAuthorization(() ->
        engine.getRepositoryService().createProcessDefinitionQuery().latestVersion().list().stream()
            .filter(definition -> definitions.isAgent(definition.getId()))
            .map(ProcessDefinition::getKey)
            .sorted()
            .toList());
  }

  private <T> T withoutAuthorization(Supplier<T> query) {
    CommandExecutor commands = ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration())
        .getCommandExecutorTxRequired();
    return commands.execute(context -> context.runWithoutAuthorization(query::get));
  }

  /** @throws dev.agentloop.trace.UnknownRunException when there is no such run */
  public void requireRun(String runId) {
    store.run(runId);
  }

  /** @throws dev.agentloop.trace.UnknownRunException when there is no such run */
  public RunView view(String runId) {
    RunRecord run = store.run(runId);
    RunStatus status = run.status();
    List<String> waitingFor = List.of();
    String incident = null;
    if (status == RunStatus.RUNNING) {
      // how the run stands is the same for everyone who may read it, whatever tasks they may see
      List<Incident> incidents = withoutAuthorization(() ->
          engine.getRuntimeService().createIncidentQuery().processInstanceId(runId).list());
      waitingFor = withoutAuthorization(() -> engine.getTaskService().createTaskQuery().processInstanceId(runId).list())
          .stream().map(Task::getTaskDefinitionKey).toList();
      if (!incidents.isEmpty()) {
        status = RunStatus.FAILED;
        incident = incidents.get(0).getIncidentMessage();
      } else if (!waitingFor.isEmpty()) {
        status = RunStatus.WAITING;
      }
    }
    String answer = store.latestActive(runId, StepKind.FINAL_ANSWER).map(step -> ((FinalAnswer) step.content()).text()).orElse(null);
    RunRecord.Restart from = run.restartedFrom();
    return new RunView(run.runId(), run.agentKey(), run.question(), status, run.statusReason(), answer, waitingFor,
        incident, run.head().stepCount(), run.modelCalls(), run.toolCalls(), run.tokens(), run.createdAt(), run.endedAt(),
        run.head().version(), from == null ? null : from.runId(), from == null ? null : from.fromStep(),
        from == null ? null : from.by(), from == null ? null : from.reason(), store.restartsOf(runId), endedBy(run));
  }

  /** The author of the decision that ended the run: the last decision of a run that ended by one. */
  private String endedBy(RunRecord run) {
    if (run.status() != RunStatus.ANSWERED && run.status() != RunStatus.REJECTED && run.status() != RunStatus.STOPPED) {
      return null;
    }
    List<Decision> decisions = store.decisions(run.runId());
    return decisions.isEmpty() ? null : decisions.get(decisions.size() - 1).author();
  }

  /** What people decided on the run's steps without writing one, in the order they decided. */
  public List<Decision> decisions(String runId) {
    return store.decisions(runId);
  }

  /** The most recent runs of an agent, newest first; only those that ended when {@code finished}. */
  public List<RunView> recent(String agentKey, boolean finished, int limit) {
    return store.recentRuns(agentKey, finished, limit).stream().map(run -> view(run.runId())).toList();
  }

  /**
   * The run's trace: the active path root first, or with {@code allBranches} every step ever
   * written, superseded ones included, in the order they were written.
   */
  public List<Step> trace(String runId, boolean allBranches) {
    store.run(runId);
    return allBranches ? store.allSteps(runId) : store.activePath(runId);
  }
}
