package com.example.ledger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * A real PostgreSQL with the team's database {@code ledger}: its owner, and an application user who may only read
 * and write the rows of what the owner creates. {@link #ofTheLastRelease} makes it as the last release of
 * AgentLoop left it: Camunda's tables from the team's Flyway, AgentLoop's from the team's copy of that release's
 * {@code schema.sql}, with a run in them.
 */
final class LedgerDatabase implements AutoCloseable {

  static final String OWNER = "ledger_owner";
  static final String APPLICATION = "ledger_app";
  /** The run the last release's database holds. */
  static final String EARLIER_RUN = "run-of-the-last-release";

  private final EmbeddedPostgres postgres;
  final String url;

  private LedgerDatabase(EmbeddedPostgres postgres) {
    this.postgres = postgres;
    this.url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/ledger";
  }

  /** A new, empty database {@code ledger}. */
  static LedgerDatabase create() throws IOException, SQLException {
    LedgerDatabase database = new LedgerDatabase(
        EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(60)).start());
    try (Connection admin = database.postgres.getPostgresDatabase().getConnection();
        Statement sql = admin.createStatement()) {
      sql.execute("CREATE ROLE " + OWNER + " LOGIN PASSWORD '" + OWNER + "'");
      sql.execute("CREATE ROLE " + APPLICATION + " LOGIN PASSWORD '" + APPLICATION + "'");
      sql.execute("CREATE DATABASE ledger OWNER " + OWNER);
    }
    try (Connection owner = database.asOwner(); Statement sql = owner.createStatement()) {
      // the application user reads and writes the rows of every table the owner creates, and creates nothing
      sql.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
      sql.execute("GRANT USAGE ON SCHEMA public TO " + APPLICATION);
      sql.execute("ALTER DEFAULT PRIVILEGES FOR ROLE " + OWNER + " IN SCHEMA public"
          + " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO " + APPLICATION);
    }
    return database;
  }

  /** The database as the last release left it, before AgentLoop's tables had versioned scripts. */
  static LedgerDatabase ofTheLastRelease() throws IOException, SQLException {
    LedgerDatabase database = create();
    // Camunda's tables, from the team's own Flyway scripts, as ever
    org.flywaydb.core.Flyway.configure().dataSource(database.url, OWNER, OWNER).locations("classpath:db/migration")
        .load().migrate();
    try (Connection owner = database.asOwner()) {
      ScriptUtils.executeSqlScript(owner, new ClassPathResource("agentloop-schema-of-the-last-release.sql"));
      ScriptUtils.executeSqlScript(owner, new ByteArrayResource(("INSERT INTO agentloop_run (run_id, agent_key,"
          + " question, status, head_turn, step_count, version, model_calls, tool_calls, tokens, created_at, ended_at)"
          + " VALUES ('" + EARLIER_RUN + "', 'react-agent', 'What did the last release answer?', 'ANSWERED', 1, 0, 1,"
          + " 1, 0, 12, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);").getBytes(StandardCharsets.UTF_8)));
    }
    return database;
  }

  Connection asOwner() throws SQLException {
    return DriverManager.getConnection(url, OWNER, OWNER);
  }

  @Override
  public void close() throws IOException {
    postgres.close();
  }
}
