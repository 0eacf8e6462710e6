package dev.agentloop.internal.trace;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Tells who follows a run in this JVM that it changed: a step or a decision written, its end recorded. Only a
 * hint to look again early — a change written on another node is not told here, so a follower reads the store
 * on a timer too and never relies on being told. Told once the writing transaction committed (at once where
 * there is none), so that a follower woken by it reads what was written.
 *
 * <p>Thread-safe. Listeners run on the writing thread after its commit: they must only hand the news on
 * (schedule a read), never read or block there.
 */
public final class RunWatchers {

  private static final Logger LOG = LoggerFactory.getLogger(RunWatchers.class);

  private final Map<String, Set<Runnable>> listeners = new ConcurrentHashMap<>();

  /**
   * Calls {@code onChange} after each change of the run written in this JVM, until the returned registration is
   * closed.
   */
  public Registration watch(String runId, Runnable onChange) {
    listeners.computeIfAbsent(runId, id -> new CopyOnWriteArraySet<>()).add(onChange);
    return () -> listeners.computeIfPresent(runId, (id, set) -> {
      set.remove(onChange);
      return set.isEmpty() ? null : set;
    });
  }

  /** The run changed in the current transaction (if any): its listeners are told once it committed. */
  void changed(String runId) {
    if (!listeners.containsKey(runId)) {
      return;
    }
    if (TransactionSynchronizationManager.isSynchronizationActive()) {
      TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
        @Override
        public void afterCommit() {
          tell(runId);
        }
      });
    } else {
      tell(runId);
    }
  }

  private void tell(String runId) {
    for (Runnable listener : listeners.getOrDefault(runId, Set.of())) {
      try {
        listener.run();
      } catch (RuntimeException e) {
        // a follower's failure must not fail the writer, whose transaction has committed already
        LOG.debug("A follower of run {} failed to take the news of a change", runId, e);
      }
    }
  }

  /** A listener's registration; closing it twice does no harm. */
  @FunctionalInterface
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }
}
