package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.compose.FailedChildRuns;
import dev.agentloop.internal.agent.definition.AgentDiagramRules;
import dev.agentloop.internal.agent.definition.CopiedAgents;
import dev.agentloop.internal.agent.loop.RemoteToolTasks;
import dev.agentloop.internal.agent.loop.RunTimeRanOut;
import dev.agentloop.internal.agent.run.RunLifecycle;
import dev.agentloop.internal.history.StepHistory;
import dev.agentloop.internal.review.Reviews;
import dev.agentloop.internal.trace.retention.TraceHistoryCleanup;
import dev.agentloop.internal.trace.retention.TraceRetention;
import dev.agentloop.internal.worker.TaskArrivals;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.deploy.Deployer;

/**
 * Hooks AgentLoop into the engine: the parse listener that recognises and checks agent processes, the warning
 * of agents copied with another agent's words ({@link CopiedAgents}), the
 * history cleanup that removes a run's trace with its history, the history level that leaves the agents' per-step
 * records to the step store ({@link StepHistory}), and, where asked for
 * ({@code agentloop.database.h2-engine-index}), on H2 the index that keeps completing a step independent
 * of the number of running instances, and around the engine's incident handlers the news of a child run that failed
 * to its caller ({@link FailedChildRuns}).
 */
class AgentLoopEnginePlugin extends AbstractProcessEnginePlugin {

  private final RunLifecycle lifecycle;
  private final TaskArrivals arrivals;
  private final Reviews reviews;
  private final AgentDiagramRules rules;
  private final RemoteToolTasks remoteToolTasks;
  private final ChildRuns childRuns;
  private final RunTimeRanOut runTimeRanOut;
  private final FailedChildRuns failedChildRuns;
  private final TraceRetention retention;
  private final boolean grantWorkers;
  private final boolean h2EngineIndex;
  private final StepHistory stepHistory = new StepHistory(
      Set.of(ReactAgentProcess.TOPIC_PLAN, ReactAgentProcess.TOPIC_THINK, ReactAgentProcess.TOPIC_ACT));

  AgentLoopEnginePlugin(RunLifecycle lifecycle, TaskArrivals arrivals, Reviews reviews, AgentDiagramRules rules,
      RemoteToolTasks remoteToolTasks, ChildRuns childRuns, RunTimeRanOut runTimeRanOut,
      FailedChildRuns failedChildRuns, TraceRetention retention, boolean grantWorkers, boolean h2EngineIndex) {
    this.failedChildRuns = failedChildRuns;
    this.grantWorkers = grantWorkers;
    this.h2EngineIndex = h2EngineIndex;
    this.lifecycle = lifecycle;
    this.arrivals = arrivals;
    this.reviews = reviews;
    this.rules = rules;
    this.remoteToolTasks = remoteToolTasks;
    this.childRuns = childRuns;
    this.runTimeRanOut = runTimeRanOut;
    this.retention = retention;
  }

  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration.getCustomPostBPMNParseListeners() == null) {
      configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
    }
    configuration.getCustomPostBPMNParseListeners()
        .add(new AgentParseListener(lifecycle, arrivals, reviews, rules, remoteToolTasks, childRuns, runTimeRanOut,
            grantWorkers));
    // in place of Camunda's history cleanup handler (same type): it also removes the traces of what it removed
    if (configuration.getCustomJobHandlers() == null) {
      configuration.setCustomJobHandlers(new ArrayList<>());
    }
    configuration.getCustomJobHandlers().add(new TraceHistoryCleanup(retention));
    configuration.getCustomPostBPMNParseListeners().add(stepHistory.parseListener());
    List<Deployer> deployers = new ArrayList<>(Objects.requireNonNullElse(configuration.getCustomPreDeployers(), List.of()));
    deployers.add(new CopiedAgents());
    configuration.setCustomPreDeployers(deployers);
  }

  @Override
  public void postInit(ProcessEngineConfigurationImpl configuration) {
    // around whichever incident handlers the engine has: a child run's incident is also its caller's news
    failedChildRuns.around(configuration.getIncidentHandlers());
    // null with history 'auto': the engine reads the level from the database while it is built
    if (configuration.getHistoryLevel() != null) {
      configuration.setHistoryLevel(stepHistory.historyLevel(configuration.getHistoryLevel()));
    }
  }

  @Override
  public void postProcessEngineBuild(ProcessEngine engine) {
    ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
    configuration.setHistoryLevel(stepHistory.historyLevel(configuration.getHistoryLevel()));
    if (h2EngineIndex) {
      H2EngineIndexes.create(engine);
    }
  }
}
