package com.example.orders;

import static com.example.orders.Http.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.repository.Deployment;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The switches of what AgentLoop adds to a host, as the README's "Embedding" lists them: no default
 * agent (forms still), another API base path, {@code /engine-rest} secured by AgentLoop, no groups.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "spring.datasource.url=jdbc:h2:mem:switches-${random.uuid};DB_CLOSE_DELAY=-1",
    "agentloop.deployment.default-agent=false",
    "agentloop.api.base-path=/agents/api",
    "agentloop.security.secure-engine-rest=true",
    "agentloop.security.groups=false"})
class SwitchesTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @Test
  void should_deploy_the_forms_without_the_default_agent() {
    var repository = engine.getRepositoryService();

    Deployment agentloop = repository.createDeploymentQuery().deploymentName("agentloop").singleResult();

    assertThat(repository.getDeploymentResourceNames(agentloop.getId())).hasSize(6).allMatch(name -> name.endsWith(".form"));
    assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("react-agent").count()).isZero();
  }

  @Test
  void should_serve_and_secure_its_api_under_the_base_path_only() {
    HttpResponse<String> breakers = Http.as(port, "admin", "admin").get("/agents/api/breakers");

    assertThat(breakers.statusCode()).as(breakers.body()).isEqualTo(200);
    assertThat(Http.anonymous(port).get("/agents/api/breakers").statusCode()).isEqualTo(401);
    assertThat(Http.as(port, "admin", "admin").get("/api/breakers").statusCode()).isEqualTo(404);
    assertThat(Http.anonymous(port).get("/api/orders").statusCode()).isEqualTo(200);
    // the Cockpit plugin learns where the API is
    assertThat(Http.anonymous(port).get("/camunda/api/cockpit/plugin/agentloop/static/app/settings.js").body())
        .contains("\"api\": \"/agents/api\"").contains("\"enabled\": true");
  }

  @Test
  void should_secure_the_engine_rest_api_when_asked_to() {
    // (Camunda's filter lets the list of engines, /engine-rest/engine, through to everybody)
    assertThat(Http.anonymous(port).get("/engine-rest/process-definition").statusCode()).isEqualTo(401);
    assertThat(Http.as(port, "admin", "admin").get("/engine-rest/process-definition").statusCode()).isEqualTo(200);
  }

  @Test
  void should_create_no_groups_and_grant_nothing_when_told_not_to() {
    assertThat(engine.getIdentityService().createGroupQuery().groupIdIn("agent-reviewers", "agent-operators",
        "agent-workers").count()).isZero();
    assertThat(json(Http.as(port, "admin", "admin").get("/agents/api/breakers")).isArray()).isTrue();
  }
}
