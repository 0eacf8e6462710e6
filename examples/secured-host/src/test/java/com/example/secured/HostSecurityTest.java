package com.example.secured;

import static com.example.secured.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The application's own {@code SecurityFilterChain} (HTTP Basic for its users on everything) and
 * AgentLoop side by side: Camunda users and the application's users reach AgentLoop's API as the Camunda
 * user of their id, with Camunda's rights; a Cockpit session reaches it too; the application's own
 * endpoints keep the application's rules, for AgentLoop's callers as well.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.datasource.url=jdbc:h2:mem:secured-${random.uuid};DB_CLOSE_DELAY=-1")
@Import(HostSecurityTest.Model.class)
class HostSecurityTest {

  static final String START = "{\"question\": \"What is the answer?\"}";

  @LocalServerPort int port;

  static class Model {
    @Bean
    AnsweringModel answeringModel() {
      return new AnsweringModel();
    }
  }

  @Test
  void should_let_a_camunda_user_the_application_does_not_know_use_agentloops_api() {
    HttpResponse<String> started = Http.as(port, "admin", "admin").post("/api/runs", START);

    assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
    assertThat(json(started).get("question").asText()).isEqualTo("What is the answer?");
  }

  @Test
  void should_let_the_applications_user_in_as_the_camunda_user_of_the_same_id_with_camundas_rights() {
    // given: mary is in agent-operators, tom in no AgentLoop group; both log in with the application's passwords
    Http mary = Http.as(port, "mary", "mary-secret");
    Http tom = Http.as(port, "tom", "tom-secret");

    // when
    HttpResponse<String> started = mary.post("/api/runs", START);
    String run = json(started).path("id").asText();
    HttpResponse<String> read = mary.get("/api/runs/" + run);
    HttpResponse<String> notHis = tom.get("/api/runs/" + run);
    HttpResponse<String> notAllowed = tom.post("/api/runs", START);

    // then
    assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    // a run tom may not read answers as an unknown one: he learns nothing of it, not even that it exists
    assertThat(notHis.statusCode()).as(notHis.body()).isEqualTo(404);
    assertThat(json(notHis).get("detail").asText()).isEqualTo("no run with id " + run);
    assertThat(notAllowed.statusCode()).as(notAllowed.body()).isEqualTo(403);
  }

  @Test
  void should_refuse_wrong_or_missing_credentials_with_agentloops_problem_document() {
    HttpResponse<String> wrong = Http.as(port, "mary", "mary-camunda-typo").get("/api/runs");
    HttpResponse<String> none = Http.anonymous(port).get("/api/runs");

    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
        assertThat(type).startsWith("application/problem+json"));
    assertThat(json(wrong).get("detail").asText()).contains("wrong password");
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(json(none).get("detail").asText()).contains("log in to the Camunda webapps");
  }

  @Test
  void should_let_a_cockpit_session_use_agentloops_api_with_its_csrf_token() {
    // given
    Http browser = Http.anonymous(port);
    HttpResponse<String> login = browser.loginToCockpit("admin", "admin");
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);

    // when
    HttpResponse<String> listed = browser.get("/api/runs");
    HttpResponse<String> withoutToken = browser.post("/api/runs", START);
    HttpResponse<String> withToken = browser.postWithCsrfToken("/api/runs", START);

    // then
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(withoutToken.statusCode()).as(withoutToken.body()).isEqualTo(403);
    assertThat(json(withoutToken).get("detail").asText()).contains("CSRF");
    assertThat(withToken.statusCode()).as(withToken.body()).isEqualTo(201);
  }

  @Test
  void should_keep_the_applications_rules_for_its_own_endpoints() {
    assertThat(Http.as(port, "mary", "mary-secret").get("/api/orders").statusCode()).isEqualTo(200);
    assertThat(Http.as(port, "tom", "tom-secret").get("/api/orders").statusCode()).isEqualTo(403);
    // AgentLoop's users are not the application's: its chain does not know the Camunda-only admin
    assertThat(Http.as(port, "admin", "admin").get("/api/orders").statusCode()).isEqualTo(401);
    assertThat(Http.as(port, "mary", "mary-camunda").get("/api/orders").statusCode()).isEqualTo(401);
    assertThat(Http.anonymous(port).get("/api/orders").statusCode()).isEqualTo(401);
  }
}
