package com.example.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.api.AgentRuns;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * PostgreSQL with a schema owner and an application user who may only read and write rows: Flyway applies
 * Camunda's and AgentLoop's scripts as the owner, then the application starts as the application user
 * (Camunda and AgentLoop only check their tables) and an agent answers a question.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(FlywaySchemaTest.Model.class)
class FlywaySchemaTest {

  static EmbeddedPostgres postgres;
  static String url;

  @Autowired AgentRuns runs;
  @Autowired DataSource dataSource;
  @LocalServerPort int port;

  static class Model {
    @Bean
    AnsweringModel answeringModel() {
      return new AnsweringModel();
    }
  }

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) throws IOException, SQLException {
    postgres = EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(60)).start();
    try (Connection admin = postgres.getPostgresDatabase().getConnection(); Statement sql = admin.createStatement()) {
      sql.execute("CREATE ROLE ledger_owner LOGIN PASSWORD 'ledger_owner'");
      sql.execute("CREATE ROLE ledger_app LOGIN PASSWORD 'ledger_app'");
      sql.execute("CREATE DATABASE ledger OWNER ledger_owner");
    }
    url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/ledger";
    try (Connection owner = java.sql.DriverManager.getConnection(url, "ledger_owner", "ledger_owner");
        Statement sql = owner.createStatement()) {
      // the application user reads and writes the rows of every table the owner creates, and creates nothing
      sql.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
      sql.execute("GRANT USAGE ON SCHEMA public TO ledger_app");
      sql.execute("ALTER DEFAULT PRIVILEGES FOR ROLE ledger_owner IN SCHEMA public"
          + " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ledger_app");
    }
    SchemaMigration.migrate(url, "ledger_owner", "ledger_owner");
    registry.add("spring.datasource.url", () -> url);
    registry.add("spring.datasource.username", () -> "ledger_app");
    registry.add("spring.datasource.password", () -> "ledger_app");
  }

  @AfterAll
  static void stop() throws IOException {
    postgres.close();
  }

  @Test
  void should_run_an_agent_as_a_user_who_may_not_change_the_schema() {
    // given: the application's own connection may not create anything
    JdbcTemplate application = new JdbcTemplate(dataSource);
    assertThatThrownBy(() -> application.execute("CREATE TABLE probe (id INT)"))
        .rootCause().hasMessageContaining("permission denied");

    // when
    String run = runs.start("react-agent", "What is the answer?");

    // then
    await().atMost(Duration.ofSeconds(60)).until(() -> runs.view(run).finalAnswer() != null);
    assertThat(runs.view(run).finalAnswer()).isEqualTo("The answer is 42.");
  }

  @Test
  void should_hold_a_conversation_id_as_the_application_user() throws Exception {
    // given a run that a client started under a conversation id, which holds it (the claim of schema version 3,
    // written by the application user)
    String body = "{\"question\": \"What is the answer?\", \"conversationId\": \"ledger-7\"}";
    String first = runId(post("/api/runs", body));
    assertThat(holder("ledger-7")).isEqualTo(first);
    await().atMost(Duration.ofSeconds(60)).until(() -> runs.view(first).endedAt() != null);

    // when the client starts the next run under the id once the first has ended
    String second = runId(post("/api/runs", body));

    // then the second run has taken the id over
    assertThat(second).isNotEqualTo(first);
    assertThat(holder("ledger-7")).isEqualTo(second);
  }

  private String holder(String conversationId) {
    return new JdbcTemplate(dataSource).queryForObject(
        "SELECT run_id FROM agentloop_conversation WHERE conversation_id = ?", String.class, conversationId);
  }

  private static String runId(HttpResponse<String> started) {
    assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
    return started.body().replaceAll("(?s).*?\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
  }

  private HttpResponse<String> post(String path, String json) throws Exception {
    String credentials = Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Content-Type", "application/json").header("Authorization", "Basic " + credentials)
        .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void should_keep_agentloops_history_apart_from_the_applications() {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);

    assertThat(jdbc.queryForList("SELECT version FROM agentloop_schema_history WHERE success ORDER BY installed_rank",
        String.class)).containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8");
    assertThat(jdbc.queryForList("SELECT version FROM flyway_schema_history WHERE success", String.class))
        .containsExactly("1");
    assertThat(jdbc.queryForList("SELECT version FROM agentloop_schema_version ORDER BY version", Integer.class))
        .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
  }
}
