package com.example.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.api.AgentRuns;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The recipe with Spring Boot's own Flyway in the application ({@link InAppMigration}, profile {@code in-app-flyway}),
 * on a database of the last release, whose AgentLoop tables the team's copy of that release's {@code schema.sql}
 * created: the application's start upgrades it (AgentLoop's history from version 0, its version 1 adding only what
 * is missing), its runs stay, and agents run.
 */
@SpringBootTest
@ActiveProfiles("in-app-flyway")
@Import(FlywaySchemaTest.Model.class)
class InAppFlywayUpgradeTest {

  static LedgerDatabase database;

  @Autowired AgentRuns runs;
  @Autowired DataSource dataSource;

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) throws IOException, SQLException {
    database = LedgerDatabase.ofTheLastRelease();
    registry.add("spring.datasource.url", () -> database.url);
  }

  @AfterAll
  static void stop() throws IOException {
    database.close();
  }

  @Test
  void should_upgrade_the_tables_of_the_last_release_at_start_and_keep_their_runs() {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);

    assertThat(jdbc.queryForList("SELECT version FROM agentloop_schema_history WHERE success ORDER BY installed_rank",
        String.class)).containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8");
    assertThat(jdbc.queryForList("SELECT version FROM agentloop_schema_version ORDER BY version", Integer.class))
        .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    assertThat(runs.view(LedgerDatabase.EARLIER_RUN).question()).isEqualTo("What did the last release answer?");
  }

  @Test
  void should_run_an_agent_on_the_upgraded_tables() {
    String run = runs.start("react-agent", "What is the answer?");

    await().atMost(Duration.ofSeconds(60)).until(() -> runs.view(run).finalAnswer() != null);
    assertThat(runs.view(run).finalAnswer()).isEqualTo("The answer is 42.");
  }
}
