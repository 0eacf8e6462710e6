package com.example.invoices;

import static com.example.invoices.Http.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The application sets {@code SNAKE_CASE} and {@code FAIL_ON_UNKNOWN_PROPERTIES} for its whole JSON:
 * its own endpoint follows them, AgentLoop's API keeps its camelCase contract, and the calls Cockpit's
 * tab makes (an edit with {@code baseVersion}) work.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.datasource.url=jdbc:h2:mem:json-${random.uuid};DB_CLOSE_DELAY=-1")
@Import(JsonConventionsTest.Model.class)
class JsonConventionsTest {

  static final Duration PATIENCE = Duration.ofSeconds(60);

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  static class Model {
    @Bean
    AnsweringModel answeringModel() {
      return new AnsweringModel();
    }
  }

  @Test
  void should_answer_the_hosts_own_endpoint_in_the_hosts_snake_case() {
    Http anybody = Http.anonymous(port);

    HttpResponse<String> created = anybody.post("/api/invoices", "{\"customer_name\": \"Ada\", \"amount_cents\": 1200}");
    HttpResponse<String> unknown = anybody.post("/api/invoices", "{\"customer_name\": \"Ada\", \"amount\": 12}");

    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    assertThat(json(created).get("customer_name").asText()).isEqualTo("Ada");
    assertThat(json(created).get("due_date").asText()).isEqualTo("2026-12-31");
    assertThat(unknown.statusCode()).as("the host's own rule for its own endpoint").isEqualTo(400);
  }

  @Test
  void should_keep_agentloops_camel_case_contract_and_read_cockpits_edit() {
    // given: an operator, who may change a run's course
    engine.getIdentityService().createMembership("admin", "agent-operators");
    Http admin = Http.as(port, "admin", "admin");
    HttpResponse<String> started = admin.post("/api/runs", "{\"question\": \"What is the answer?\"}");
    assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
    String run = json(started).get("id").asText();
    JsonNode waiting = awaitWaiting(admin, run);
    assertThat(waiting.has("finalAnswer")).as(waiting.toString()).isTrue();
    assertThat(waiting.has("final_answer")).isFalse();
    assertThat(waiting.get("createdAt").asText()).endsWith("Z");
    int version = waiting.get("version").asInt();

    // when: the body Cockpit's step editor sends
    HttpResponse<String> stale = admin.post("/api/runs/" + run + "/steps/1/edit",
        "{\"content\": {\"steps\": [\"Check twice.\"]}, \"reason\": \"be careful\", \"baseVersion\": " + (version - 1) + "}");
    HttpResponse<String> edited = admin.post("/api/runs/" + run + "/steps/1/edit",
        "{\"content\": {\"steps\": [\"Check twice.\"]}, \"reason\": \"be careful\", \"baseVersion\": " + version + "}");

    // then
    assertThat(stale.statusCode()).as("baseVersion was read and compared: " + stale.body()).isEqualTo(409);
    assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
    assertThat(json(edited).get("editedStep").asInt()).isEqualTo(1);
  }

  @Test
  void should_refuse_an_unknown_field_of_agentloops_api_by_name() {
    HttpResponse<String> refused = Http.as(port, "admin", "admin").post("/api/runs",
        "{\"question\": \"Why?\", \"question_text\": \"Why?\"}");

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
        assertThat(type).startsWith("application/problem+json"));
    assertThat(json(refused).get("detail").asText()).contains("unknown field \"question_text\"")
        .contains("{\"question\": \"What is 17 * 23?\"");
  }

  private static JsonNode awaitWaiting(Http http, String run) {
    JsonNode[] view = new JsonNode[1];
    await().atMost(PATIENCE).until(() -> {
      view[0] = json(http.get("/api/runs/" + run));
      return view[0].path("waitingFor").toString().contains("reviewAnswer");
    });
    return view[0];
  }
}
