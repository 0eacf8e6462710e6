package dev.agentloop.internal.agent;

import org.camunda.bpm.engine.impl.cfg.TransactionState;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;

/**
 * Runs what must happen once per change that lands — a meter counted, never again when the engine retries the same
 * job after an optimistic-locking failure — after the engine's transaction commits; outside an engine command, at
 * once.
 */
public final class AfterCommit {

  private AfterCommit() {}

  public static void run(Runnable action) {
    CommandContext context = Context.getCommandContext();
    if (context == null) {
      action.run();
      return;
    }
    context.getTransactionContext().addTransactionListener(TransactionState.COMMITTED, committed -> action.run());
  }
}
