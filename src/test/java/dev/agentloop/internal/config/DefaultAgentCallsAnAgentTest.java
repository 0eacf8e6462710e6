package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * A default agent that calls an agent the same application deploys starts on a fresh database: AgentLoop deploys its
 * default agent before the application deploys its own processes, so while it does, the keys the application is about
 * to deploy count as agents, and the application's deployment right after checks its agents in full.
 */
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // an engine of its own, on a database of its own (the test profile's): the shared test context has "default"
    properties = {"agentloop.agent.allowed-tools=calculator, support-triage-agent",
        "camunda.bpm.process-engine-name=defaultAgentCalls"})
@ActiveProfiles("test")
@DirtiesContext
class DefaultAgentCallsAnAgentTest {

  @Autowired ProcessEngine engine;
  @Autowired AgentDefinitions definitions;

  @Test
  void should_start_with_a_default_agent_that_names_an_agent_of_the_application() {
    var repository = engine.getRepositoryService();
    String defaultAgent = repository.createProcessDefinitionQuery().processDefinitionKey(ReactAgentProcess.KEY)
        .latestVersion().singleResult().getId();

    assertThat(definitions.settings(defaultAgent).allowedTools()).containsExactlyInAnyOrder("calculator",
        "support-triage-agent");
    assertThat(repository.createProcessDefinitionQuery().processDefinitionKey("support-triage-agent").count()).isOne();
  }
}
