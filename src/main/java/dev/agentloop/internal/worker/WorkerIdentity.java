package dev.agentloop.internal.worker;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker id this process works under. The worker serves only while it holds the id's
 * {@link WorkerLease}; the first time it gets it, it unlocks the tasks the id still holds and this
 * process is not working on: this node locked them before it died, and they would otherwise wait
 * until their locks expire (5 minutes by default). Only the fetcher thread uses it.
 */
class WorkerIdentity {

  private static final Logger LOG = LoggerFactory.getLogger(WorkerIdentity.class);

  private final WorkerLease lease;
  private final ExternalTaskService externalTasks;
  private final WorkerOptions settings;
  private final Set<String> topics;
  private final TaskCompleter completer;
  private boolean holding;
  private long renewAt;

  WorkerIdentity(WorkerLease lease, ExternalTaskService externalTasks, WorkerOptions settings, Set<String> topics,
      TaskCompleter completer) {
    this.lease = lease;
    this.externalTasks = externalTasks;
    this.settings = settings;
    this.topics = Set.copyOf(topics);
    this.completer = completer;
  }

  /** Forgets the lease, so that the next {@link #holds} claims it and takes the id's tasks back. */
  void reset() {
    holding = false;
  }

  /**
   * Claims the id, or renews the claim when due.
   *
   * @param workingOn the ids of the tasks this process works on, which it must not take back
   * @return whether this process holds the id and may fetch
   */
  boolean holds(Supplier<Set<String>> workingOn) {
    if (holding && System.nanoTime() - renewAt < 0) {
      return true;
    }
    WorkerLease.Holder other;
    try {
      other = lease.claim();
    } catch (RuntimeException e) {
      // the database is away, or another process claimed the id at the same moment: serve nothing until it is clear
      LOG.warn("AGENTLOOP-007 worker {} could not claim its id, trying again in {}: {}. This node serves no tasks"
          + " meanwhile; if this repeats, check the database connection", settings.workerId(), WorkerLease.RENEWAL,
          e.getMessage());
      holding = false;
      return false;
    }
    if (other != null) {
      LOG.warn("AGENTLOOP-008 worker id {} is held by another process, which renewed its lease at {}; this node"
          + " serves no tasks until that lease runs out ({} after its last renewal). Was that process this node"
          + " before a crash, that is all; is it alive, give every node its own agentloop.worker.worker-id",
          settings.workerId(), other.renewed(), WorkerLease.TTL);
      holding = false;
      return false;
    }
    renewAt = System.nanoTime() + WorkerLease.RENEWAL.toNanos();
    if (!holding) {
      holding = true;
      takeBack(workingOn.get());
    }
    return true;
  }

  /** Gives the id up on a clean stop, so that a successor need not wait for the lease to run out. */
  void release() {
    try {
      lease.release();
    } catch (RuntimeException e) {
      LOG.warn("AGENTLOOP-009 worker {} could not give up its id; a successor with that id waits up to {} for it."
          + " Nothing to do: the lease runs out by itself", settings.workerId(), WorkerLease.TTL, e);
    }
    holding = false;
  }

  private void takeBack(Set<String> workingOn) {
    List<ExternalTask> held = externalTasks.createExternalTaskQuery().workerId(settings.workerId()).locked().list()
        .stream().filter(task -> topics.contains(task.getTopicName()) && !workingOn.contains(task.getId())).toList();
    if (!held.isEmpty()) {
      LOG.info("worker {} takes back {} tasks it had locked before it stopped", settings.workerId(), held.size());
      held.forEach(task -> completer.unlockQuietly(task.getId()));
    }
  }
}
