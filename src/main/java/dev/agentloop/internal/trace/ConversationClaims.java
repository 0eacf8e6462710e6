package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.retention.TraceRetention;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which run holds a conversation id: one row per id ({@code agentloop_conversation}, keyed by the id), so that
 * "one open run per conversation id" holds in the database and therefore across every node of a cluster. A
 * start writes its claim in the transaction that starts its process instance; of two starts racing for one id,
 * the database lets exactly one claim commit, and the other's transaction must roll back.
 *
 * <p>A claim is never released when its run ends: the next start with the id takes the row over from the
 * ended run ({@link #claim} with the holder it found), so no listener has to run at a run's end, and a run that
 * ended without AgentLoop seeing it (an instance deleted skipping listeners) cannot leave an id held forever. The
 * claims of runs whose traces are deleted go with them ({@link TraceRetention}).
 *
 * <p>Thread-safe; writes join the caller's transaction.
 */
public class ConversationClaims {

  private final JdbcTemplate jdbc;

  public ConversationClaims(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** The run that claimed the id last, open or ended; empty when none did (or its trace was deleted). */
  public Optional<String> holder(String conversationId) {
    return jdbc.queryForList("SELECT run_id FROM agentloop_conversation WHERE conversation_id = ?", String.class,
        conversationId).stream().findFirst();
  }

  /**
   * Claims the id for a run in the caller's transaction: a new row when nobody held the id, else the row taken
   * over from the ended run that held it, only if that run still holds it. Where another transaction claims the
   * id at the same moment, this waits for that transaction to end.
   *
   * @param endedHolder the run that held the id when the caller checked it had ended; {@code null}: none held it
   * @return whether the run holds the id now; {@code false}: another start took it first, and the caller's
   *     transaction must roll back (on PostgreSQL it can do nothing else after a refused insert)
   */
  public boolean claim(String conversationId, String runId, String endedHolder) {
    Objects.requireNonNull(conversationId, "conversationId");
    Objects.requireNonNull(runId, "runId");
    var now = ClockUtil.getCurrentTime().toInstant().atOffset(ZoneOffset.UTC);
    if (endedHolder != null) {
      return jdbc.update("UPDATE agentloop_conversation SET run_id = ?, claimed_at = ?"
          + " WHERE conversation_id = ? AND run_id = ?", runId, now, conversationId, endedHolder) == 1;
    }
    try {
      return jdbc.update("INSERT INTO agentloop_conversation (conversation_id, run_id, claimed_at) VALUES (?, ?, ?)",
          conversationId, runId, now) == 1;
    } catch (DuplicateKeyException e) {
      return false;
    }
  }
}
