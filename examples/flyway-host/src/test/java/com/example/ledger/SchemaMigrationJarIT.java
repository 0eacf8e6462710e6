package com.example.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The deployment step as the docs give it, on the application's executable jar that {@code mvn package} built
 * (its path from the system property {@code ledger.jar}, set by the pom): Spring Boot's launcher runs
 * {@link SchemaMigration} from it, and brings a database of the last release (AgentLoop's tables from that
 * release's {@code schema.sql}, with a run) up to date, rows kept. Run by failsafe, after the jar is packaged.
 */
class SchemaMigrationJarIT {

  @Test
  void should_upgrade_a_database_of_the_last_release_with_the_command_on_the_fat_jar() throws Exception {
    Path jar = Path.of(System.getProperty("ledger.jar", "target/flyway-host-0.1.0-SNAPSHOT.jar"));
    assertThat(jar).as("the executable jar, built by mvn package").isRegularFile();
    try (LedgerDatabase database = LedgerDatabase.ofTheLastRelease()) {
      // when: the documented command
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", jar.toString(), "-Dloader.main=com.example.ledger.SchemaMigration",
          "org.springframework.boot.loader.launch.PropertiesLauncher",
          database.url, LedgerDatabase.OWNER, LedgerDatabase.OWNER));
      Path output = Files.createTempFile("schema-migration", ".log");
      Process migration = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
      assertThat(migration.waitFor(3, TimeUnit.MINUTES)).as("the command ended").isTrue();

      // then it succeeded, and AgentLoop's tables are current with their run
      assertThat(migration.exitValue()).as(Files.readString(output)).isZero();
      try (SingleConnectionDataSource owner = new SingleConnectionDataSource(database.asOwner(), true)) {
        JdbcTemplate jdbc = new JdbcTemplate(owner);
        assertThat(jdbc.queryForList("SELECT version FROM agentloop_schema_history WHERE success"
            + " ORDER BY installed_rank", String.class))
            .containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8");
        assertThat(jdbc.queryForList("SELECT version FROM agentloop_schema_version ORDER BY version", Integer.class))
            .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(jdbc.queryForObject("SELECT question FROM agentloop_run WHERE run_id = ?", String.class,
            LedgerDatabase.EARLIER_RUN)).isEqualTo("What did the last release answer?");
      }
    }
  }

  @Test
  void should_say_how_to_call_it_when_an_argument_is_missing() throws Exception {
    Path jar = Path.of(System.getProperty("ledger.jar", "target/flyway-host-0.1.0-SNAPSHOT.jar"));
    Process migration = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", jar.toString(), "-Dloader.main=com.example.ledger.SchemaMigration",
        "org.springframework.boot.loader.launch.PropertiesLauncher", "jdbc:postgresql://localhost/ledger")
        .redirectErrorStream(true).start();
    String said = new String(migration.getInputStream().readAllBytes());

    assertThat(migration.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(migration.exitValue()).isEqualTo(2);
    assertThat(said).contains("usage: SchemaMigration <jdbc url> <schema owner> <password>");
  }
}
