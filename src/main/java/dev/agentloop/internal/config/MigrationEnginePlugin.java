package dev.agentloop.internal.config;

import dev.agentloop.internal.resume.MigrationBatchHandler;
import dev.agentloop.internal.resume.PendingMigrations;
import java.util.ArrayList;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;

/**
 * Hooks the migration of runs between an agent's versions into the engine: its batch type
 * ({@link MigrationBatchHandler}, beside Camunda's own, which stay as they are) and the listeners that move a busy
 * run when it next waits ({@link MigrationParseListener}).
 */
class MigrationEnginePlugin extends AbstractProcessEnginePlugin {

  private final MigrationBatchHandler batches;
  private final PendingMigrations pending;

  MigrationEnginePlugin(MigrationBatchHandler batches, PendingMigrations pending) {
    this.batches = batches;
    this.pending = pending;
  }

  @Override
  public void preInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration.getCustomBatchJobHandlers() == null) {
      configuration.setCustomBatchJobHandlers(new ArrayList<>());
    }
    configuration.getCustomBatchJobHandlers().add(batches);
    if (configuration.getCustomPostBPMNParseListeners() == null) {
      configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
    }
    configuration.getCustomPostBPMNParseListeners().add(new MigrationParseListener(pending));
  }
}
