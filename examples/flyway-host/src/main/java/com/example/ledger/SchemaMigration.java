package com.example.ledger;

import org.flywaydb.core.Flyway;

/**
 * The deployment step that brings the schema up to date, as the schema's owner, before the application
 * starts as a user that may only read and write rows: Camunda's tables (the team's own migrations in
 * {@code db/migration}) with Flyway's usual history table, then AgentLoop's tables from the scripts in the
 * AgentLoop jar with a history table of their own, so that each keeps its own version numbers.
 *
 * <p>Run it with {@code java -cp <application jar> com.example.ledger.SchemaMigration <url> <owner> <password>}
 * or from the team's pipeline.
 */
public final class SchemaMigration {

  /** Where the AgentLoop jar keeps its scripts for PostgreSQL. */
  static final String AGENTLOOP_SCRIPTS = "classpath:META-INF/agentloop/db/postgres";

  private SchemaMigration() {}

  public static void main(String[] args) {
    migrate(args[0], args[1], args[2]);
  }

  public static void migrate(String url, String owner, String password) {
    Flyway.configure().dataSource(url, owner, password).locations("classpath:db/migration").load().migrate();
    Flyway.configure().dataSource(url, owner, password)
        .locations(AGENTLOOP_SCRIPTS)
        .table("agentloop_schema_history")
        // the schema holds Camunda's tables already: AgentLoop's history starts below its version 1
        .baselineOnMigrate(true).baselineVersion("0")
        .load().migrate();
  }
}
