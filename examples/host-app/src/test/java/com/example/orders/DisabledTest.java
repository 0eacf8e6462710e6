package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.api.AgentRuns;
import dev.agentloop.spi.AgentTool;
import javax.sql.DataSource;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.engine.spring.SpringProcessEngineConfiguration;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code agentloop.enabled=false}: the dependency stays, AgentLoop adds nothing: no bean, no deployment (not
 * even through the host's own deployment with Camunda's default pattern {@code classpath*:**}{@code /*.bpmn},
 * which this host keeps), no tables, no groups, no endpoints, no Cockpit tab and none of the Cockpit plugin's files.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "spring.datasource.url=jdbc:h2:mem:disabled-${random.uuid};DB_CLOSE_DELAY=-1",
    "agentloop.enabled=false"})
class DisabledTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired ApplicationContext context;
  @Autowired DataSource dataSource;

  @Test
  void should_add_nothing_when_switched_off() {
    assertThat(context.getBeansOfType(AgentRuns.class)).isEmpty();
    assertThat(engine.getRepositoryService().createDeploymentQuery().deploymentName("agentloop").count()).isZero();
    assertThat(engine.getIdentityService().createGroupQuery().groupId("agent-reviewers").count()).isZero();
    assertThat(Http.as(port, "admin", "admin").get("/api/runs?agent=react-agent").statusCode()).isEqualTo(404);
    assertThat(Http.anonymous(port).post("/api/orders", "{\"item\": \"desk\", \"amount\": 1}").statusCode())
        .isEqualTo(201);
    assertThat(context.getBeanNamesForType(AgentTool.class)).containsExactly("orderStatusTool");
    // the Cockpit plugin comes through the SPI either way: Cockpit loads its entry, which is empty, and nothing else
    // of it is served
    String plugin = "/camunda/api/cockpit/plugin/agentloop/static/app/";
    var entry = Http.anonymous(port).get(plugin + "plugin.js");
    assertThat(entry.statusCode()).isEqualTo(200);
    assertThat(entry.body()).contains("export default [];").doesNotContain("import");
    for (String file : java.util.List.of("settings.js", "trace-tab.js", "api.js", "run-page.js")) {
      assertThat(Http.anonymous(port).get(plugin + file).statusCode()).as(file).isEqualTo(404);
    }
  }

  @Test
  void should_deploy_nothing_of_agentloop_through_the_hosts_default_deployment_pattern() {
    var repository = engine.getRepositoryService();
    Resource[] hostResources = ((SpringProcessEngineConfiguration) engine.getProcessEngineConfiguration())
        .getDeploymentResources();

    assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("react-agent").count()).isZero();
    assertThat(repository.createProcessDefinitionQuery().list()).extracting(ProcessDefinition::getKey)
        .isNotEmpty().doesNotContain("react-agent");
    assertThat(repository.createDeploymentQuery().list()).allSatisfy(deployment ->
        assertThat(repository.getDeploymentResourceNames(deployment.getId()))
            .allMatch(name -> name.contains("/examples/host-app/target/classes/bpmn/"), "the host's own"));
    // what the host's start deploys and lists is its own only
    assertThat(hostResources).extracting(Resource::getFilename).isNotEmpty()
        .noneMatch(name -> name.contains("react-agent") || name.endsWith(".form"));
    assertThat(hostResources).extracting(resource -> resource.getURL().toString())
        .allMatch(url -> url.contains("/examples/host-app/target/classes/bpmn/"), "the host's own");
  }

  @Test
  void should_create_no_tables() {
    Integer tables = new JdbcTemplate(dataSource).queryForObject(
        "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE UPPER(TABLE_NAME) LIKE 'AGENTLOOP%'", Integer.class);

    assertThat(tables).isZero();
  }
}
