package com.example.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application's own {@code react-agent} survives AgentLoop's default agent, whichever came first: deployed
 * from the application's resources in the same start, or deployed earlier while AgentLoop's default agent has
 * changed since (a new release). AgentLoop skips its default agent and says why in one log line.
 */
@ExtendWith(OutputCaptureExtension.class)
class OwnDefaultAgentTest {

  static final String TEAMS_AGENT = "Order team's agent";
  static final String SKIPPED = "AgentLoop does not deploy its default agent 'react-agent'";
  /** The host's deployment pattern without its own diagram: as if it had none (or no longer has it). */
  static final String WITHOUT_ITS_DIAGRAM = "--camunda.bpm.deployment-resource-pattern=classpath*:no-such-folder/*.bpmn";

  @Test
  void should_keep_the_hosts_own_agent_deployed_in_the_same_start(CapturedOutput log) {
    start("same-start", engine -> {
      ProcessDefinition latest = latestAgent(engine.getRepositoryService());
      assertThat(latest.getName()).isEqualTo(TEAMS_AGENT);
      assertThat(latest.getVersion()).isOne();
      assertThat(agentLoopsResources(engine.getRepositoryService())).isNotEmpty()
          .noneMatch(name -> name.endsWith(".bpmn"));
    });

    assertThat(count(log.getAll(), SKIPPED)).isOne();
    assertThat(log.getAll()).contains(SKIPPED + ": the application deploys its own from");
  }

  @Test
  void should_never_deploy_a_changed_default_agent_over_the_hosts_own(CapturedOutput log) {
    // AgentLoop's default agent first, as an earlier release deployed it (different from today's)
    start("later-release", engine -> {
      assertThat(latestAgent(engine.getRepositoryService()).getName()).isEqualTo("ReAct agent");
      deployAsEarlierRelease(engine.getRepositoryService());
    }, WITHOUT_ITS_DIAGRAM);
    // then the team's own, from its resources: a newer version over AgentLoop's
    start("later-release", engine -> assertThat(latestAgent(engine.getRepositoryService()).getName())
        .isEqualTo(TEAMS_AGENT));

    // and a restart with a default agent that differs from AgentLoop's latest deployment of it
    start("later-release", engine -> {
      ProcessDefinition latest = latestAgent(engine.getRepositoryService());
      assertThat(latest.getName()).isEqualTo(TEAMS_AGENT);
      assertThat(latest.getVersion()).isEqualTo(3);
    }, WITHOUT_ITS_DIAGRAM);

    assertThat(log.getAll()).contains(SKIPPED + ": its latest version (3) is the application's own, from the"
        + " deployment 'SpringAutoDeployment'");
    assertThat(count(log.getAll(), SKIPPED)).isEqualTo(2);
  }

  private static void start(String database, Consumer<ProcessEngine> check, String... arguments) {
    // as from the command line, which wins over the application's own application.properties
    String[] all = java.util.stream.Stream.concat(java.util.stream.Stream.of(
        "--spring.datasource.url=jdbc:h2:mem:own-agent-" + database + ";DB_CLOSE_DELAY=-1", "--server.port=0"),
        java.util.Arrays.stream(arguments)).toArray(String[]::new);
    try (ConfigurableApplicationContext host = new SpringApplicationBuilder(AgentsApplication.class).run(all)) {
      check.accept(host.getBean(ProcessEngine.class));
    }
  }

  /** What an earlier AgentLoop release left: its deployment 'agentloop' with a default agent unlike today's. */
  private static void deployAsEarlierRelease(RepositoryService repository) throws RuntimeException {
    String today;
    try (InputStream in = repository.getResourceAsStream(latestAgent(repository).getDeploymentId(),
        "processes/react-agent.bpmn")) {
      today = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    repository.createDeployment().name("agentloop").source("agentloop")
        .addInputStream("processes/react-agent.bpmn", new ByteArrayInputStream(
            today.replace("name=\"ReAct agent\"", "name=\"ReAct agent (earlier release)\"")
                .getBytes(StandardCharsets.UTF_8)))
        .deploy();
  }

  private static ProcessDefinition latestAgent(RepositoryService repository) {
    return repository.createProcessDefinitionQuery().processDefinitionKey("react-agent").latestVersion()
        .singleResult();
  }

  private static java.util.List<String> agentLoopsResources(RepositoryService repository) {
    return repository.createDeploymentQuery().deploymentName("agentloop").list().stream()
        .flatMap(deployment -> repository.getDeploymentResourceNames(deployment.getId()).stream()).toList();
  }

  private static int count(String text, String part) {
    Matcher matcher = Pattern.compile(Pattern.quote(part)).matcher(text);
    int count = 0;
    while (matcher.find()) {
      count++;
    }
    return count;
  }
}
