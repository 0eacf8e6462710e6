package com.example.ledger;

import org.flywaydb.core.Flyway;
import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The other way to the same schema: Spring Boot's own Flyway in the application ({@code spring.flyway.*}), for a
 * team whose application user owns the schema (profile {@code in-app-flyway}). Spring Boot migrates the team's
 * scripts (Camunda's tables, {@code db/migration}) as ever; then AgentLoop's, from its jar, with a history table
 * of their own. Both run before anything uses the database: AgentLoop checks its tables only after them.
 */
@Configuration(proxyBeanMethods = false)
@Profile("in-app-flyway")
class InAppMigration {

  @Bean
  FlywayMigrationStrategy migrateAgentLoopsTablesToo() {
    return flyway -> {
      flyway.migrate();
      Flyway.configure().configuration(flyway.getConfiguration())
          .locations(SchemaMigration.AGENTLOOP_SCRIPTS)
          .table("agentloop_schema_history")
          // the schema holds Camunda's tables already: AgentLoop's history starts below its version 1
          .baselineOnMigrate(true).baselineVersion("0")
          .load().migrate();
    };
  }
}
