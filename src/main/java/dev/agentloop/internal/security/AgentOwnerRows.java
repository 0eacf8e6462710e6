package dev.agentloop.internal.security;

import dev.agentloop.internal.security.AgentOwner.Kind;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The table {@code agentloop_agent_owner}: one row per agent key a group owns, with who made the group its owner and
 * when (the engine's clock, so that tests that move it see it). Apart from {@link AgentOwnership}, which decides who
 * may change a key. Inside an engine command it reads and writes in the command's transaction. Thread-safe.
 */
final class AgentOwnerRows {

  private final JdbcTemplate jdbc;

  AgentOwnerRows(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** The key's group owner; empty where no group owns it. */
  Optional<AgentOwner> find(String key) {
    return jdbc.query("SELECT owner_group, assigned_by, assigned_at FROM agentloop_agent_owner WHERE agent_key = ?",
            (row, n) -> new AgentOwner(key, Kind.GROUP, row.getString(1), row.getString(2),
                row.getObject(3, OffsetDateTime.class).toInstant()), key)
        .stream().findFirst();
  }

  void insert(String key, String group, String by) {
    jdbc.update("INSERT INTO agentloop_agent_owner (agent_key, owner_group, assigned_by, assigned_at)"
        + " VALUES (?, ?, ?, ?)", key, group, by, now());
  }

  /** Makes the group the key's owner, whether another group owned it or none. */
  void upsert(String key, String group, String by) {
    if (jdbc.update("UPDATE agentloop_agent_owner SET owner_group = ?, assigned_by = ?, assigned_at = ?"
        + " WHERE agent_key = ?", group, by, now(), key) == 0) {
      insert(key, group, by);
    }
  }

  /** @return whether a group owned the key */
  boolean delete(String key) {
    return jdbc.update("DELETE FROM agentloop_agent_owner WHERE agent_key = ?", key) > 0;
  }

  private static OffsetDateTime now() {
    return ClockUtil.getCurrentTime().toInstant().atOffset(ZoneOffset.UTC);
  }
}
