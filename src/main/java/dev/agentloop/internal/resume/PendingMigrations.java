package dev.agentloop.internal.resume;

import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.trace.MigrationLog;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.cfg.TransactionState;
import org.camunda.bpm.engine.impl.context.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs that were busy in a model or tool call when a migration asked for them, and move when they next wait (as
 * the request chose). When a run reaches a wait (a review task is created, a gateway waits for events) its pending
 * moves are looked up (one indexed read) and, once that transaction has committed, made in a transaction of their
 * own: from outside the run's execution, as Camunda requires of a migration. Each node also looks for pending runs
 * every {@link MigrationSettings#pendingCheckInterval()}, for the moves a node did not get to (it stopped, the run
 * changed at that moment), and gives up on a run that ended meanwhile. Thread-safe.
 */
public class PendingMigrations implements SmartLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(PendingMigrations.class);
  private static final int SWEEP_LIMIT = 100;

  private final MigrationLog log;
  private final Supplier<AgentMigrations> migrations;
  private final MigrationSettings settings;
  private volatile ScheduledExecutorService sweeper;

  /** @param migrations looked up at the first move: the engine's listeners are made before the services exist */
  public PendingMigrations(MigrationLog log, Supplier<AgentMigrations> migrations, MigrationSettings settings) {
    this.log = log;
    this.migrations = migrations;
    this.settings = settings;
  }

  /** For review tasks: the run waits for a person now. */
  public TaskListener onTaskCreated() {
    return task -> reachedWait(task.getProcessInstanceId());
  }

  /** For event-based gateways of agents: the run waits for an event now (a follow-up, a close, a timer). */
  public ExecutionListener onWaitingForEvents() {
    return execution -> reachedWait(execution.getProcessInstanceId());
  }

  private void reachedWait(String runId) {
    List<String> pending = log.pendingFor(runId);
    if (!pending.isEmpty()) {
      Context.getCommandContext().getTransactionContext().addTransactionListener(TransactionState.COMMITTED,
          committed -> pending.forEach(migration -> move(migration, runId)));
    }
  }

  /** Looks at the pending runs, oldest first: moves those that wait, refuses those that ended. */
  void sweep() {
    log.pending(SWEEP_LIMIT).forEach(pending -> move(pending.migrationId(), pending.runId()));
  }

  private void move(String migrationId, String runId) {
    try {
      migrations.get().movePending(migrationId, runId);
    } catch (RuntimeException e) {
      LOG.warn("AGENTLOOP-702 run {} was to move to another version when it waits (migration {}), and the move"
          + " failed: {}. It stays pending; every node tries again within {}", runId, migrationId, e.getMessage(),
          settings.pendingCheckInterval());
    }
  }

  @Override
  public void start() {
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
        new AgentLoopThreads("agentloop-pending-migrations-", null));
    long period = settings.pendingCheckInterval().toMillis();
    executor.scheduleWithFixedDelay(this::sweepQuietly, period, period, TimeUnit.MILLISECONDS);
    sweeper = executor;
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.warn("AGENTLOOP-703 the look for runs that move when they wait failed: {}. It runs again within {}",
          e.getMessage(), settings.pendingCheckInterval());
    }
  }

  @Override
  public void stop() {
    ScheduledExecutorService executor = sweeper;
    sweeper = null;
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  @Override
  public boolean isRunning() {
    return sweeper != null;
  }
}
