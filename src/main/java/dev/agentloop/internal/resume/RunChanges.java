package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.StepStore;
import java.util.function.Supplier;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/** What every change of a run needs: one transaction, the run's state and its agent's settings. */
class RunChanges {

  private final ProcessEngine engine;
  private final StepStore store;
  private final AgentDefinitions definitions;
  private final TransactionTemplate transaction;
  private final TransactionTemplate newTransaction;
  private final CommandExecutor commands;

  RunChanges(ProcessEngine engine, StepStore store, AgentDefinitions definitions,
      PlatformTransactionManager transactionManager) {
    this.engine = engine;
    this.store = store;
    this.definitions = definitions;
    this.transaction = new TransactionTemplate(transactionManager);
    this.newTransaction = new TransactionTemplate(transactionManager);
    newTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    this.commands = ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration())
        .getCommandExecutorTxRequired();
  }

  /**
   * Runs a change in one transaction, trace and engine together, with the engine's authorization
   * checks off: who may change a run was decided before by {@link dev.agentloop.internal.security.RunAccess}
   * (reviewers may change a run waiting on their task, which Camunda's permissions cannot express).
   */
  <T> T apply(String runId, Supplier<T> change) {
    try {
      return transaction.execute(status -> commands.execute(context -> context.runWithoutAuthorization(change::get)));
    } catch (OptimisticLockingException | PessimisticLockingFailureException e) {
      throw new ResumeConflictException("run " + runId + " changed at the same moment (another edit, or the agent's"
          + " own step); nothing of this request was applied: read the run again and retry", e);
    }
  }

  /**
   * Runs changes that each are a command of their own (and so see what the ones before wrote) in one transaction:
   * all of them or none.
   */
  <T> T applyTogether(Supplier<T> changes) {
    return transaction.execute(status -> changes.get());
  }

  /**
   * Runs a change that follows another transaction's commit (an event listener after commit) in a transaction of its
   * own: joined, it would land in the committed one and never be committed.
   */
  void applyAfterCommit(Runnable change) {
    newTransaction.executeWithoutResult(status -> change.run());
  }

  /** {@link #apply} in a transaction of its own, committed when this returns, whatever the caller's. */
  <T> T applyAlone(String runId, Supplier<T> change) {
    return newTransaction.execute(status -> apply(runId, change));
  }

  /** The run, locked for this change (see {@link StepStore#lockRun}), unless it has ended. */
  RunRecord unfinished(String runId, String what) {
    return requireUnfinished(store.lockRun(runId), what);
  }

  /** The run and its steps, read once and locked for this change (see {@link StepStore#lockRun}), unless it has ended. */
  RunState unfinishedState(String runId, String what) {
    return new RunState(unfinished(runId, what), store.allSteps(runId));
  }

  private static RunRecord requireUnfinished(RunRecord run, String what) {
    String runId = run.runId();
    if (run.status().isFinished()) {
      throw new ResumeConflictException("run " + runId + " has ended (" + run.status() + ") and cannot " + what
          + "; restart it from a step instead: POST /api/runs/" + runId + "/restart {\"fromStep\": n, \"reason\": ...}");
    }
    return run;
  }

  String definitionId(String runId) {
    return engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(runId).singleResult()
        .getProcessDefinitionId();
  }

  AgentSettings settings(String runId) {
    return definitions.settings(definitionId(runId));
  }
}
