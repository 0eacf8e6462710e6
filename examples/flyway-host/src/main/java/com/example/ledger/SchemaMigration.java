package com.example.ledger;

import org.flywaydb.core.Flyway;

/**
 * The deployment step that brings the schema up to date, as the schema's owner, before the application
 * starts as a user that may only read and write rows: Camunda's tables (the team's own migrations in
 * {@code db/migration}) with Flyway's usual history table, then AgentLoop's tables from the scripts in the
 * AgentLoop jar with a history table of their own, so that each keeps its own version numbers.
 *
 * <p>Run it from the application's executable jar (a Spring Boot fat jar: its classes and libraries are nested,
 * so the jar's own launcher loads them, here with another main class) or from the team's pipeline:
 * <pre>
 * java -cp target/flyway-host-0.1.0-SNAPSHOT.jar -Dloader.main=com.example.ledger.SchemaMigration \
 *     org.springframework.boot.loader.launch.PropertiesLauncher jdbc:postgresql://db:5432/ledger ledger_owner secret
 * </pre>
 * The same command brings a database whose AgentLoop tables an earlier release's {@code schema.sql} created up to
 * date: AgentLoop's version 1 only adds what such a database lacks, rows kept. {@link InAppMigration} is the way
 * with Spring Boot's own Flyway in the application.
 */
public final class SchemaMigration {

  /** Where the AgentLoop jar keeps its scripts for PostgreSQL. */
  static final String AGENTLOOP_SCRIPTS = "classpath:META-INF/agentloop/db/postgres";

  private SchemaMigration() {}

  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: SchemaMigration <jdbc url> <schema owner> <password>");
      System.exit(2);
    }
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
