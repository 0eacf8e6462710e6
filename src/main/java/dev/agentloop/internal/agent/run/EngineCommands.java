package dev.agentloop.internal.agent.run;

import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;

/**
 * The engine's commands in the caller's transaction, or in one of their own where there is none. Apart because
 * starting runs and telling how they stand both ask the engine so, without the user's authorization checks: how a
 * run stands, and which agents exist, is the same for everyone who may read it. Thread-safe.
 */
final class EngineCommands {

  private final ProcessEngine engine;

  EngineCommands(ProcessEngine engine) {
    this.engine = engine;
  }

  CommandExecutor executor() {
    return ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired();
  }

  <T> T withoutAuthorization(Supplier<T> query) {
    return executor().execute(context -> context.runWithoutAuthorization(query::get));
  }
}
