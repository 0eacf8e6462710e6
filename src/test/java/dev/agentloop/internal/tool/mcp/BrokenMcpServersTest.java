package dev.agentloop.internal.tool.mcp;

import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resilience.Breakers;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.Step;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.variable.Variables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * An application with two broken MCP servers: {@code missing}, whose command does not exist, and
 * {@code junk}, a process that prints lines that are no JSON-RPC. The application starts without
 * waiting for them, says why each is down (once), and an agent that allows a tool of the server it
 * never reached is offered that tool, needs approval for it, and reads why its call failed.
 */
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.scripted.script=classpath:scripts/mcp-script.json",
        "camunda.bpm.process-engine-name=mcpBroken",
        "agentloop.tools.mcp.missing.command=/no/such/mcp-server",
        "agentloop.tools.mcp.missing.ping-interval=PT0.2S",
        "agentloop.tools.mcp.junk.command=/bin/sh",
        "agentloop.tools.mcp.junk.args[0]=-c",
        "agentloop.tools.mcp.junk.args[1]=while :; do echo this is no JSON-RPC; sleep 1; done",
        // far longer than the application takes to start: were the start to wait for it, it would show
        "agentloop.tools.mcp.junk.startup-timeout=PT5M"})
@ActiveProfiles("test")
@Import(TestAgent.class)
@ExtendWith(OutputCaptureExtension.class)
class BrokenMcpServersTest {

  @Autowired McpServers servers;
  @Autowired Breakers breakers;
  @Autowired RunService runs;
  @Autowired RunInsights insights;
  @Autowired ProcessEngine engine;
  @Autowired dev.agentloop.internal.tool.ToolApprovals approvals;
  @LocalServerPort int port;

  @Test
  void should_be_up_while_a_broken_server_is_still_connecting_and_report_each_servers_state() {
    // the application is up, and the junk server's first attempt still runs (its start-up time-out is 5 minutes)
    assertThat(servers.states()).containsEntry("junk", "connecting");
    await().atMost(Runs.PATIENCE).until(() -> "down".equals(servers.states().get("missing")));

    // the health and the breaker panel say the same: both not connected, each with an open breaker
    assertThat(servers.notConnected()).containsExactly(
        Map.entry("junk", "it is still connecting (first attempt)"),
        Map.entry("missing", "command '/no/such/mcp-server': No such file or directory"));
    JsonNode health = ApiClient.body(ApiClient.anonymous(port).get("/actuator/health"), 200);
    assertThat(health.at("/components/mcpServers/status").asText()).isEqualTo("DEGRADED");
    assertThat(health.at("/components/mcpServers/description").asText())
        .isEqualTo("MCP servers not connected: junk, missing");
    assertThat(health.at("/components/breakers/description").asText()).contains("mcp:missing OPEN")
        .contains("mcp:junk OPEN");
    // the one never connected as the one still connecting: its calls fail at once, its breaker says so
    JsonNode panel = ApiClient.body(ApiClient.as(port, "demo", "demo").get("/api/breakers"), 200);
    for (String server : List.of("mcp:missing", "mcp:junk")) {
      assertThat(StreamSupport.stream(panel.spliterator(), false)
          .filter(breaker -> breaker.path("name").asText().equals(server)).findFirst().orElseThrow()
          .path("state").asText()).as(server).isEqualTo("OPEN");
    }
  }

  @Test
  void should_log_the_real_cause_once_however_often_the_server_is_tried(CapturedOutput output) {
    // given the missing server was tried again and again (every 0.2 s)
    await().atMost(Runs.PATIENCE).until(() -> servers.failedAttempts("missing") >= 10);

    // then the log, captured from before the application started, said why once, without a stack trace
    List<String> lines = output.getAll().lines().filter(line -> line.contains("MCP server 'missing'")).toList();
    assertThat(lines).singleElement().asString().endsWith("MCP server 'missing' is not connected: command"
        + " '/no/such/mcp-server': No such file or directory; trying again in the background. Start the server, or"
        + " correct agentloop.tools.mcp.missing");
    // no stack trace of its attempts: an exception of a failed start names the command. (Only lines about this
    // server count: the log is the whole JVM's, where other tests' applications keep running.)
    assertThat(output.getAll().lines().filter(line -> line.contains("/no/such/mcp-server")))
        .noneMatch(line -> line.contains("Exception"));
  }

  @Test
  void should_say_once_that_a_server_writes_lines_that_are_no_json_rpc_without_the_sdks_stack_trace(
      CapturedOutput output) {
    // given the junk server has written a line every second since the start
    await().atMost(Runs.PATIENCE).until(() -> output.getAll().contains("AGENTLOOP-901 MCP server 'junk'"));

    // then its log said so once, with the line, and no parser's stack trace reached the log
    assertThat(output.getAll().lines().filter(line -> line.contains("MCP server 'junk'"))).singleElement().asString()
        .endsWith(" 'this is no JSON-RPC'");
    // a parser's exception would quote the line; only lines about this server count, as above
    assertThat(output.getAll().lines().filter(line -> line.contains("this is no JSON-RPC")))
        .noneMatch(line -> line.contains("Exception"));
  }

  @Test
  void should_offer_a_tool_of_a_server_never_reached_ask_for_approval_and_fail_its_call_with_the_cause(
      CapturedOutput output) {
    // given an agent that allows a tool of the server that was never reached
    TestAgent.deployVariant(engine, "mcp-never-reached", Map.of(AgentSettings.ALLOWED_TOOLS, "missing__lookup",
        AgentSettings.AUTO_ACCEPT_PLAN, "true"));
    await().atMost(Runs.PATIENCE).until(() -> "down".equals(servers.states().get("missing")));

    assertThat(approvals.needsApproval("missing__lookup")).isTrue();

    // when it runs
    String run = runs.start("mcp-never-reached", "mcp-never-reached: customer C-1");

    // then the model was offered the tool, and its call waits for a person, as a tool with side effects
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);
    Step thought = steps(run, THOUGHT).get(0);
    JsonNode offered = insights.prompt(run, thought.stepNo()).orElseThrow().tools();
    assertThat(offered).singleElement().satisfies(tool -> {
      assertThat(tool.path("name").asText()).isEqualTo("missing__lookup");
      assertThat(tool.path("description").asText()).contains("MCP server 'missing'");
    });

    // when it is approved, the call fails with the server's cause (the model reads it), and the breaker stays open
    engine.getIdentityService().setAuthentication("carl", List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(approval.getId(), Variables.createVariables().putValue("decision1", "approve"));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    Step observation = steps(run, OBSERVATION).get(0);
    assertThat(observation.text("error")).isEqualTo("'missing__lookup' failed: MCP server 'missing' is not connected:"
        + " command '/no/such/mcp-server': No such file or directory");
    assertThat(breakers.find("mcp:missing").orElseThrow().state()).isEqualTo("OPEN");
    assertThat(runs.view(run).finalAnswer()).isEqualTo("the CRM is down");
    // the failed call is one line in the log, without the tool runner's stack trace: the cause is the server's
    assertThat(output.getAll()).contains("AGENTLOOP-902 tool 'missing__lookup' of MCP server 'missing' failed: MCP"
        + " server 'missing' is not connected: command '/no/such/mcp-server': No such file or directory")
        .doesNotContain("\tat dev.agentloop.internal.tool.ToolRunner").doesNotContain("\tat dev.failsafe");
  }

  private List<Step> steps(String run, dev.agentloop.internal.trace.step.StepKind kind) {
    return runs.trace(run, false).stream().filter(step -> step.kind() == kind).toList();
  }
}
