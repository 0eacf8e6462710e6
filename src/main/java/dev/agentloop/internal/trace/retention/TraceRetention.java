package dev.agentloop.internal.trace.retention;

import dev.agentloop.api.UnknownRunException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * How long traces are kept: a run's steps live exactly as long as its Camunda history. When
 * Camunda's history cleanup has removed a run's historic process instance (its
 * {@code historyTimeToLive} is over), {@link #removeTracesWithoutHistory} removes the run's record
 * and steps; {@link TraceHistoryCleanup} calls it after each run of the cleanup job, so the trace
 * follows the same time-to-live, removal-time strategy and batch window, with no second setting.
 * An operator can also delete one finished run's trace at once ({@link #deleteTrace}), which leaves
 * a tombstone: who, when, why. Either way the run's claim of a conversation id goes too
 * ({@link ConversationClaims}), so that no id is held by a run whose trace is gone.
 *
 * <p>Thread-safe; several nodes may sweep at once (deletes of the same rows are idempotent).
 */
public class TraceRetention {

  /** Runs removed per statement, like Camunda's default history cleanup batch. */
  static final int BATCH = 500;
  /** Batches per sweep: a backlog (say after an upgrade) goes over several cleanup runs instead of one long one. */
  private static final int MAX_BATCHES = 20;

  private static final Logger LOG = LoggerFactory.getLogger(TraceRetention.class);

  private final JdbcTemplate jdbc;
  private final TransactionTemplate transaction;
  private final TransactionTemplate ownTransaction;

  public TraceRetention(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
    this.jdbc = jdbc;
    this.transaction = new TransactionTemplate(transactionManager);
    this.ownTransaction = new TransactionTemplate(transactionManager);
    // called after the cleanup job's commit, when its transaction is done but still bound to the thread
    this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
  }

  /**
   * Deletes the steps of a finished run, its question and the reasons people gave, and keeps a
   * tombstone in the run's record. Deleting again changes nothing and answers the first tombstone.
   *
   * @param by the user who deletes it
   * @param reason why, for the audit
   * @throws UnknownRunException when there is no such run
   * @throws RunNotFinishedException when the run has not ended
   */
  public TraceDeletion deleteTrace(String runId, String by, String reason) {
    if (by == null || by.isBlank() || reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("deleting a trace needs who and why");
    }
    TraceDeletion deletion = transaction.execute(status -> {
      Instant now = ClockUtil.getCurrentTime().toInstant();
      Integer steps = jdbc.queryForObject("SELECT COUNT(*) FROM agentloop_step WHERE run_id = ?", Integer.class, runId);
      int updated = jdbc.update("UPDATE agentloop_run SET question = '', status_reason = NULL, restart_reason = NULL,"
              + " trace_deleted_at = ?, trace_deleted_by = ?, trace_deleted_reason = ?, trace_deleted_steps = ?"
              + " WHERE run_id = ? AND ended_at IS NOT NULL AND trace_deleted_at IS NULL",
          now.atOffset(ZoneOffset.UTC), by, reason, steps, runId);
      if (updated == 0) {
        return null;
      }
      jdbc.update("DELETE FROM agentloop_step WHERE run_id = ?", runId);
      jdbc.update("DELETE FROM agentloop_decision WHERE run_id = ?", runId);
      jdbc.update("DELETE FROM agentloop_prompt WHERE run_id = ?", runId);
      // an ended run's claim: its conversation id is free as it was, and no longer names a run without a trace
      jdbc.update("DELETE FROM agentloop_conversation WHERE run_id = ?", runId);
      return new TraceDeletion(runId, now, by, reason, steps == null ? 0 : steps);
    });
    if (deletion != null) {
      LOG.info("run {}: trace of {} steps deleted by {}: {}", runId, deletion.stepsDeleted(), by, reason);
      return deletion;
    }
    return deletion(runId).orElseThrow(() -> new RunNotFinishedException(runId));
  }

  /**
   * The tombstone of the run's deleted trace, empty while the trace is there.
   *
   * @throws UnknownRunException when there is no such run
   */
  public Optional<TraceDeletion> deletion(String runId) {
    List<Optional<TraceDeletion>> found = jdbc.query("SELECT trace_deleted_at, trace_deleted_by, trace_deleted_reason,"
        + " trace_deleted_steps FROM agentloop_run WHERE run_id = ?", (rs, row) -> rs.getObject(1) == null
        ? Optional.<TraceDeletion>empty()
        : Optional.of(new TraceDeletion(runId, rs.getObject(1, java.time.OffsetDateTime.class).toInstant(),
            rs.getString(2), rs.getString(3), rs.getInt(4))), runId);
    if (found.isEmpty()) {
      throw new UnknownRunException(runId);
    }
    return found.get(0);
  }

  /**
   * Removes the record and steps of runs whose historic process instance is gone: removed by
   * Camunda's history cleanup after its time-to-live, or deleted by an operator. Runs in
   * transactions of its own, a batch at a time.
   *
   * @param historicInstances the table of Camunda's historic process instances, with the engine's
   *     table prefix, e.g. {@code ACT_HI_PROCINST}
   * @return how many runs were removed
   */
  int removeTracesWithoutHistory(String historicInstances) {
    int removed = 0;
    for (int batch = 0; batch < MAX_BATCHES; batch++) {
      Integer count = ownTransaction.execute(status -> {
        List<String> runs = jdbc.queryForList("SELECT r.run_id FROM agentloop_run r WHERE NOT EXISTS"
            + " (SELECT 1 FROM " + historicInstances + " h WHERE h.PROC_INST_ID_ = r.run_id) LIMIT ?",
            String.class, BATCH);
        if (!runs.isEmpty()) {
          String ids = String.join(", ", Collections.nCopies(runs.size(), "?"));
          jdbc.update("DELETE FROM agentloop_step WHERE run_id IN (" + ids + ")", runs.toArray());
          jdbc.update("DELETE FROM agentloop_decision WHERE run_id IN (" + ids + ")", runs.toArray());
          jdbc.update("DELETE FROM agentloop_prompt WHERE run_id IN (" + ids + ")", runs.toArray());
          jdbc.update("DELETE FROM agentloop_conversation WHERE run_id IN (" + ids + ")", runs.toArray());
          jdbc.update("DELETE FROM agentloop_tree_use WHERE run_id IN (" + ids + ")", runs.toArray());
          jdbc.update("DELETE FROM agentloop_run WHERE run_id IN (" + ids + ")", runs.toArray());
        }
        return runs.size();
      });
      removed += count == null ? 0 : count;
      if (count == null || count < BATCH) {
        break;
      }
    }
    if (removed > 0) {
      LOG.info("removed the traces of {} runs whose Camunda history is gone", removed);
    }
    return removed;
  }
}
