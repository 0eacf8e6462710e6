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
import org.camunda.bpm.engine.spring.SpringProcessEngineConfiguration;

/**
 * Hooks AgentLoop into the engine: the parse listener that recognises and checks agent processes, on H2
 * the index that keeps completing a step independent of the number of running instances, and
 * AgentLoop's own deployment of its forms and default agent (taken out of the application's
 * auto-deployment, should its resource pattern match them too).
 */
class AgentLoopEnginePlugin extends AbstractProcessEnginePlugin {

  private final RunLifecycle lifecycle;
  private final TaskArrivals arrivals;
  private final Reviews reviews;
  private final AgentDiagramRules rules;
  private final RemoteToolCalls remoteCalls;
  private final RunTimeBudget runTimeBudget;
  private final AgentLoopDeployment deployment;

  AgentLoopEnginePlugin(RunLifecycle lifecycle, TaskArrivals arrivals, Reviews reviews, AgentDiagramRules rules,
      RemoteToolCalls remoteCalls, RunTimeBudget runTimeBudget, AgentLoopDeployment deployment) {
    this.lifecycle = lifecycle;
    this.arrivals = arrivals;
    this.reviews = reviews;
    this.rules = rules;
    this.remoteCalls = remoteCalls;
    this.runTimeBudget = runTimeBudget;
    this.deployment = deployment;
  }

  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration.getCustomPostBPMNParseListeners() == null) {
      configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
    }
    configuration.getCustomPostBPMNParseListeners()
        .add(new AgentParseListener(lifecycle, arrivals, reviews, rules, remoteCalls, runTimeBudget));
  }

  /** After every plugin's preInit, so whatever set the application's deployment resources has run. */
  @Override
  public void postInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration instanceof SpringProcessEngineConfiguration spring && spring.getDeploymentResources() != null) {
      spring.setDeploymentResources(deployment.withoutOurs(spring.getDeploymentResources()));
    }
  }

  /** Runs before the Spring configuration deploys the application's resources. */
  @Override
  public void postProcessEngineBuild(ProcessEngine engine) {
    H2EngineIndexes.create(engine);
    deployment.deploy(engine);
  }
}
