package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A host served under a context path ({@code server.servlet.context-path=/shop}): AgentLoop's answers name its paths
 * as a client calls them, the context path included.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "spring.datasource.url=jdbc:h2:mem:context-path-${random.uuid};DB_CLOSE_DELAY=-1",
    "server.servlet.context-path=/shop"})
class ContextPathTest {

  @LocalServerPort int port;

  @Test
  void should_name_the_whole_path_of_what_it_does_not_have_and_of_every_resource_it_has() {
    var missing = Http.as(port, "admin", "admin").get("/shop/api/runs/some-run/nothing-here");

    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
        assertThat(type).startsWith("application/problem+json"));
    assertThat(Http.json(missing).path("detail").asText()).isEqualTo("AgentLoop's API has nothing at"
        + " /shop/api/runs/some-run/nothing-here; its resources are /shop/api/runs, /shop/api/agents,"
        + " /shop/api/evaluations, /shop/api/breakers and /shop/api/openapi.json");
  }

  @Test
  void should_serve_its_api_document_and_tell_cockpit_where_its_api_is_under_the_context_path() {
    assertThat(Http.as(port, "admin", "admin").get("/shop/api/openapi.json").statusCode()).isEqualTo(200);
    assertThat(Http.anonymous(port).get("/shop/camunda/api/cockpit/plugin/agentloop/static/app/settings.js").body())
        .contains("\"api\": \"/shop/api\"");
  }
}
