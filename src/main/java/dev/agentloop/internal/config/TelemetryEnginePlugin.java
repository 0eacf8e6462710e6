package dev.agentloop.internal.config;

import java.util.ArrayList;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;

/**
 * Adds the {@link TelemetryParseListener} ahead of every other parse listener: ordered first among the engine
 * plugins, it runs its {@code preInit} before {@link AgentLoopEnginePlugin}'s.
 */
class TelemetryEnginePlugin extends AbstractProcessEnginePlugin {

  private final TelemetryParseListener listener;

  TelemetryEnginePlugin(TelemetryParseListener listener) {
    this.listener = listener;
  }

  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration.getCustomPostBPMNParseListeners() == null) {
      configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
    }
    configuration.getCustomPostBPMNParseListeners().add(0, listener);
  }
}
