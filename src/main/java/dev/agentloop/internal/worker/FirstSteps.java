package dev.agentloop.internal.worker;

import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.impl.cfg.TransactionState;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;

/**
 * New runs' first steps, taken where the runs start: the command that starts them also locks for this worker
 * the tasks on its topics they created, and hands those over once the transaction committed, so that a new run's
 * first step begins at once, without a fetch and its transaction. A worker that does not serve (stopped, or
 * another process holds its id) or has no task to spare leaves them to the fetchers. Thread-safe.
 */
final class FirstSteps {

  private final CommandExecutor commands;
  private final WorkerOptions settings;
  private final Set<String> topics;
  private final BooleanSupplier serving;
  private final IntSupplier free;
  private final Consumer<LockedExternalTask> handOver;

  /**
   * @param serving whether this process holds its worker id and serves tasks
   * @param free how many more tasks the worker may take now
   * @param handOver takes a task locked here once its transaction committed
   */
  FirstSteps(CommandExecutor commands, WorkerOptions settings, Set<String> topics, BooleanSupplier serving,
      IntSupplier free, Consumer<LockedExternalTask> handOver) {
    this.commands = commands;
    this.settings = settings;
    this.topics = topics;
    this.serving = serving;
    this.free = free;
    this.handOver = handOver;
  }

  /**
   * Runs {@code start}, which starts process instances, taking their first steps. Between counting the free tasks
   * and handing them over, others may be handed over too: in flight can exceed {@code maxConcurrency} by the few
   * tasks a start creates.
   */
  <T> T startTaking(Supplier<T> start) {
    int free = serving.getAsBoolean() ? this.free.getAsInt() : 0;
    if (free <= 0) {
      return start.get();
    }
    return commands.execute(context -> {
      T started = start.get();
      List<LockedExternalTask> taken = CreatedTasks.lock(context, settings, topics, free, created -> true);
      if (!taken.isEmpty()) {
        context.getTransactionContext().addTransactionListener(TransactionState.COMMITTED,
            committed -> taken.forEach(handOver));
      }
      return started;
    });
  }
}
