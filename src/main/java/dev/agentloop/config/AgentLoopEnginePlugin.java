package dev.agentloop.config;

import dev.agentloop.agent.AgentDiagramRules;
import dev.agentloop.agent.RemoteToolCalls;
import dev.agentloop.agent.RunLifecycle;
import dev.agentloop.agent.RunTimeBudget;
import dev.agentloop.review.Reviews;
import dev.agentloop.worker.TaskArrivals;
import java.util.ArrayList;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;

/**
 * Hooks AgentLoop into the engine: the parse listener that recognises and checks agent processes, and on H2
 * the index that keeps completing a step independent of the number of running instances.
 */
class AgentLoopEnginePlugin extends AbstractProcessEnginePlugin {

  private final RunLifecycle lifecycle;
  private final TaskArrivals arrivals;
  private final Reviews reviews;
  private final AgentDiagramRules rules;
  private final RemoteToolCalls remoteCalls;
  private final RunTimeBudget runTimeBudget;

  AgentLoopEnginePlugin(RunLifecycle lifecycle, TaskArrivals arrivals, Reviews reviews, AgentDiagramRules rules,
      RemoteToolCalls remoteCalls, RunTimeBudget runTimeBudget) {
    this.lifecycle = lifecycle;
    this.arrivals = arrivals;
    this.reviews = reviews;
    this.rules = rules;
    this.remoteCalls = remoteCalls;
    this.runTimeBudget = runTimeBudget;
  }

  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration.getCustomPostBPMNParseListeners() == null) {
      configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
    }
    configuration.getCustomPostBPMNParseListeners()
        .add(new AgentParseListener(lifecycle, arrivals, reviews, rules, remoteCalls, runTimeBudget));
  }

  @Override
  public void postProcessEngineBuild(ProcessEngine engine) {
    H2EngineIndexes.create(engine);
  }
}
