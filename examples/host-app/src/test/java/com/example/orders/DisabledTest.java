package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.config.AgentLoopProperties;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

/** {@code agentloop.enabled=false}: the dependency stays, AgentLoop adds nothing. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "spring.datasource.url=jdbc:h2:mem:disabled-${random.uuid};DB_CLOSE_DELAY=-1",
    "agentloop.enabled=false"})
class DisabledTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired ApplicationContext context;

  @Test
  void should_add_nothing_when_switched_off() {
    assertThat(context.getBeansOfType(AgentLoopProperties.class)).isEmpty();
    assertThat(engine.getRepositoryService().createDeploymentQuery().deploymentName("agentloop").count()).isZero();
    assertThat(engine.getIdentityService().createGroupQuery().groupId("agent-reviewers").count()).isZero();
    assertThat(Http.as(port, "admin", "admin").get("/api/runs?agent=react-agent").statusCode()).isEqualTo(404);
    assertThat(Http.anonymous(port).post("/api/orders", "{\"item\": \"desk\", \"amount\": 1}").statusCode())
        .isEqualTo(201);
    // the Cockpit plugin comes through the SPI either way and shows no tabs
    assertThat(Http.anonymous(port).get("/camunda/api/cockpit/plugin/agentloop/static/app/settings.js").body())
        .contains("\"enabled\": false");
  }
}
