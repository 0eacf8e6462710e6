package dev.agentloop.internal.trace.retention;

import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.cfg.TransactionState;
import org.camunda.bpm.engine.impl.history.event.HistoryEventTypes;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.jobexecutor.historycleanup.HistoryCleanupJobHandler;
import org.camunda.bpm.engine.impl.jobexecutor.historycleanup.HistoryCleanupJobHandlerConfiguration;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Camunda's history cleanup job, which also removes the traces of the runs whose history it removed.
 * Registered in place of Camunda's own handler (same type), it lets Camunda do all of its work
 * unchanged: decide whether the batch window is open, remove what its strategy says is due, and
 * reschedule itself. Once that transaction has committed, the historic process instances it removed
 * are gone for everyone, and {@link TraceRetention#removeTracesWithoutHistory} removes their traces.
 * So there is no second time-to-live or schedule to keep in step. Thread-safe.
 */
public class TraceHistoryCleanup extends HistoryCleanupJobHandler {

  private static final Logger LOG = LoggerFactory.getLogger(TraceHistoryCleanup.class);

  private final TraceRetention retention;

  public TraceHistoryCleanup(TraceRetention retention) {
    this.retention = retention;
  }

  @Override
  public void execute(HistoryCleanupJobHandlerConfiguration configuration, ExecutionEntity execution,
      CommandContext commandContext, String tenantId) {
    super.execute(configuration, execution, commandContext, tenantId);
    ProcessEngineConfigurationImpl engine = commandContext.getProcessEngineConfiguration();
    if (!(configuration.isImmediatelyDue() || isWithinBatchWindow(commandContext)) || !keepsRuns(engine)) {
      return;
    }
    String historicInstances = engine.getDatabaseTablePrefix() + "ACT_HI_PROCINST";
    commandContext.getTransactionContext().addTransactionListener(TransactionState.COMMITTED, committed -> {
      try {
        retention.removeTracesWithoutHistory(historicInstances);
      } catch (RuntimeException e) {
        // the next run of the cleanup job sweeps again; Camunda's own rescheduling must not be disturbed
        LOG.warn("AGENTLOOP-040 could not remove the traces of runs whose history is gone; the next history cleanup"
            + " tries again. If this repeats, the stack trace says why", e);
      }
    });
  }

  /** With no historic process instances at all (history level none), every trace would look orphaned. */
  private static boolean keepsRuns(ProcessEngineConfigurationImpl engine) {
    return engine.getHistoryLevel().isHistoryEventProduced(HistoryEventTypes.PROCESS_INSTANCE_START, null);
  }
}
