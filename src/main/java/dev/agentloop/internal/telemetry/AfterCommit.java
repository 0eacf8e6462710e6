package dev.agentloop.internal.telemetry;

import org.camunda.bpm.engine.impl.cfg.TransactionState;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * When a span is ended: once the engine's (or Spring's) transaction commits, or at once outside one, so that a
 * decision rolled back (a refused form) makes no span.
 */
final class AfterCommit {

  private AfterCommit() {
  }

  /** Runs {@code action} once the engine's (or Spring's) transaction commits, or now outside one. */
  static void run(Runnable action) {
    CommandContext command = Context.getCommandContext();
    if (command != null) {
      command.getTransactionContext().addTransactionListener(TransactionState.COMMITTED, committed -> action.run());
    } else if (TransactionSynchronizationManager.isSynchronizationActive()) {
      TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
        @Override
        public void afterCommit() {
          action.run();
        }
      });
    } else {
      action.run();
    }
  }
}
