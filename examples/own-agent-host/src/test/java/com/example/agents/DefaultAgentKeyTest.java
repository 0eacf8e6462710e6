package com.example.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.api.AgentRuns;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.BiConsumer;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A host whose own process has the key {@code react-agent} and is no agent at all. AgentLoop leaves it alone and,
 * unless told otherwise, deploys no default agent, saying how to name one; with
 * {@code agentloop.deployment.default-agent-key} its default agent comes under that key, the start says so, and a
 * run started without naming an agent goes to it.
 */
@ExtendWith(OutputCaptureExtension.class)
class DefaultAgentKeyTest {

  /**
   * The host's own process under react-agent, and none of its agent copy: deployed from a folder of its own (kept
   * in the tests' resources under another name, so that no other test's deployment pattern picks it up).
   */
  static String ownProcess() {
    try {
      java.nio.file.Path folder = java.nio.file.Files.createTempDirectory("own-process");
      try (java.io.InputStream diagram = DefaultAgentKeyTest.class.getResourceAsStream("/ordinary/react-agent.bpmn.txt")) {
        java.nio.file.Files.copy(diagram, folder.resolve("react-agent.bpmn"));
      }
      return "--camunda.bpm.deployment-resource-pattern=" + folder.toUri() + "*.bpmn";
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void should_deploy_the_default_agent_under_the_key_the_host_names_and_start_runs_without_an_agent_there(
      CapturedOutput log) {
    start("named", (host, engine) -> {
      // the host's process keeps its key; AgentLoop's default agent is beside it under the other
      assertThat(latest(engine, "react-agent").getName()).isEqualTo("React to a field agent's report");
      assertThat(latest(engine, "agentloop-assistant").getName()).isEqualTo("ReAct agent");
      AgentRuns runs = host.getBean(AgentRuns.class);
      assertThat(runs.deployedAgents()).contains("agentloop-assistant").doesNotContain("react-agent");

      // a run started through the REST API without naming an agent goes to it
      HttpResponse<String> started = post(host, "/api/runs", "{\"question\": \"Who answers?\"}");
      assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
      assertThat(started.body()).containsPattern("\"agent\"\\s*:\\s*\"agentloop-assistant\"");
      String run = started.body().replaceAll("(?s).*?\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
      await().atMost(Duration.ofSeconds(60)).until(() -> runs.view(run).finalAnswer() != null);
      assertThat(runs.view(run).finalAnswer()).isEqualTo("This example has no model configured yet.");
    }, ownProcess(), "--agentloop.deployment.default-agent-key=agentloop-assistant");

    assertThat(log.getAll()).contains("AgentLoop's default agent has the key 'agentloop-assistant'"
        + " (agentloop.deployment.default-agent-key): runs started without naming an agent go to it");
  }

  @Test
  void should_leave_the_hosts_process_alone_and_say_how_to_have_the_default_agent_beside_it(CapturedOutput log) {
    start("unnamed", (host, engine) -> {
      assertThat(latest(engine, "react-agent").getName()).isEqualTo("React to a field agent's report");
      assertThat(host.getBean(AgentRuns.class).deployedAgents()).doesNotContain("react-agent");

      // a run without an agent: the host has none, and the refusal says so in words
      HttpResponse<String> refused = post(host, "/api/runs", "{\"question\": \"Who answers?\"}");
      assertThat(refused.statusCode()).isEqualTo(400);
      assertThat(refused.body()).contains("there is no agent 'react-agent'; deployed agents: none");
    }, ownProcess());

    assertThat(log.getAll()).contains("AgentLoop does not deploy its default agent 'react-agent': the application"
        + " deploys its own from").contains("; to have AgentLoop's default agent beside it, give it another key with"
        + " agentloop.deployment.default-agent-key");
  }

  private static void start(String database, BiConsumer<ConfigurableApplicationContext, ProcessEngine> check,
      String... arguments) {
    String[] all = java.util.stream.Stream.concat(java.util.stream.Stream.of(
        "--spring.datasource.url=jdbc:h2:mem:default-agent-key-" + database + ";DB_CLOSE_DELAY=-1", "--server.port=0",
        "--agentloop.agent.auto-accept-plan=true", "--agentloop.agent.auto-accept-answer=true"),
        java.util.Arrays.stream(arguments)).toArray(String[]::new);
    try (ConfigurableApplicationContext host = new SpringApplicationBuilder(AgentsApplication.class).run(all)) {
      check.accept(host, host.getBean(ProcessEngine.class));
    }
  }

  private static ProcessDefinition latest(ProcessEngine engine, String key) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).latestVersion()
        .singleResult();
  }

  private static HttpResponse<String> post(ConfigurableApplicationContext host, String path, String json) {
    int port = ((WebServerApplicationContext) host).getWebServer().getPort();
    String credentials = Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
          .header("Content-Type", "application/json").header("Authorization", "Basic " + credentials)
          .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
