package dev.agentloop.config;

import dev.agentloop.agent.RunLifecycle;
import java.util.ArrayList;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;

/** Hooks AgentLoop into the engine: the parse listener that recognises agent processes. */
class AgentLoopEnginePlugin extends AbstractProcessEnginePlugin {

  private final RunLifecycle lifecycle;

  AgentLoopEnginePlugin(RunLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration.getCustomPostBPMNParseListeners() == null) {
      configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
    }
    configuration.getCustomPostBPMNParseListeners().add(new AgentParseListener(lifecycle));
  }
}
