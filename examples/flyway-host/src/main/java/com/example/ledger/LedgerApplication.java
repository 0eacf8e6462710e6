package com.example.ledger;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A team's own Camunda application on PostgreSQL, whose schema Flyway owns ({@link SchemaMigration});
 * AgentLoop comes in as a dependency.
 */
@SpringBootApplication
public class LedgerApplication {

  public static void main(String[] args) {
    SpringApplication.run(LedgerApplication.class, args);
  }
}
