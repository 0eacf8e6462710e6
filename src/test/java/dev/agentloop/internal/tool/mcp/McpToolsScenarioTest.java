package dev.agentloop.internal.tool.mcp;

import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.resilience.Breakers;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.internal.resume.ResumeResult;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.resume.StepEdit;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.tool.ToolApprovals;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Agents that call the tools of real, third-party MCP servers from npm through the whole loop:
 * {@code everything} (server-everything over stdio), {@code web} (server-everything over streamable
 * HTTP, a process this test starts and kills) and {@code files} (server-filesystem on a temporary
 * folder, its working directory), and {@code legacy} (server-everything over the older HTTP+SSE
 * transport). The scripted model of {@code scripts/mcp-script.json} drives them.
 */
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.scripted.script=classpath:scripts/mcp-script.json",
        // a context of its own: the engine named "default" (behind /engine-rest) stays the shared test context's
        "camunda.bpm.process-engine-name=mcpTools",
        // the web server's breaker opens at its first failure and stays open until a test closes it
        "agentloop.resilience.tool-breakers.web.failure-threshold=1",
        "agentloop.resilience.tool-breakers.web.failure-executions=1",
        "agentloop.resilience.tool-breakers.web.delay=PT1H",
        "agentloop.resilience.tool-breakers.web.success-threshold=1"})
@ActiveProfiles("test")
@Import(TestAgent.class)
class McpToolsScenarioTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static Path folder;
  private static int webPort;
  private static Process web;
  private static int ssePort;
  private static Process sse;

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired ToolRegistry tools;
  @Autowired ToolApprovals approvals;
  @Autowired Breakers breakers;
  @Autowired McpServers servers;
  @Autowired ResumeService resume;
  @LocalServerPort int port;
  @Autowired MeterRegistry meters;
  @Autowired dev.agentloop.internal.trace.RunInsights insights;

  @BeforeAll
  static void startTheHttpServer() throws IOException {
    NpmMcpServers.node();
    folder = Files.createTempDirectory("agentloop-mcp-files").toRealPath();
    webPort = NpmMcpServers.freePort();
    web = NpmMcpServers.startEverythingHttp(webPort);
    ssePort = NpmMcpServers.freePort();
    sse = NpmMcpServers.startEverythingSse(ssePort);
  }

  @AfterAll
  static void stopTheHttpServer() {
    if (web != null) {
      web.destroyForcibly();
    }
    if (sse != null) {
      sse.destroyForcibly();
    }
  }

  @DynamicPropertySource
  static void mcpServers(DynamicPropertyRegistry properties) {
    String node = NpmMcpServers.node();
    properties.add("agentloop.tools.timeout", () -> "PT10S");
    properties.add("agentloop.tools.mcp.everything.command", () -> node);
    properties.add("agentloop.tools.mcp.everything.args[0]", NpmMcpServers::everything);
    properties.add("agentloop.tools.mcp.everything.args[1]", () -> "stdio");
    properties.add("agentloop.tools.mcp.everything.ping-interval", () -> "PT0.5S");
    properties.add("agentloop.tools.mcp.everything.timeout", () -> "PT1S");
    properties.add("agentloop.tools.mcp.files.command", () -> node);
    properties.add("agentloop.tools.mcp.files.args[0]", NpmMcpServers::filesystem);
    properties.add("agentloop.tools.mcp.files.args[1]", () -> folder.toString());
    properties.add("agentloop.tools.mcp.files.working-directory", () -> folder.toString());
    properties.add("agentloop.tools.mcp.web.url", () -> "http://127.0.0.1:" + webPort + "/mcp");
    properties.add("agentloop.tools.mcp.web.ping-interval", () -> "PT0.5S");
    properties.add("agentloop.tools.mcp.legacy.url", () -> "http://127.0.0.1:" + ssePort + "/sse");
    properties.add("agentloop.tools.mcp.legacy.transport", () -> "sse");
    // the MCP Java SDK's server over stdio, its call log in the folder (made before the context starts)
    int args = JavaSdkMcpServer.stdioCommand(Path.of("calls.log")).size() - 1;
    properties.add("agentloop.tools.mcp.java.command", () -> javaServer().get(0));
    for (int i = 0; i < args; i++) {
      int arg = i + 1;
      properties.add("agentloop.tools.mcp.java.args[" + i + "]", () -> javaServer().get(arg));
    }
  }

  private static List<String> javaServer() {
    return JavaSdkMcpServer.stdioCommand(folder.resolve("java-calls.log"));
  }

  @AfterEach
  void serversBack() {
    if (!web.isAlive()) {
      web = NpmMcpServers.startEverythingHttp(webPort);
    }
    await().atMost(Runs.PATIENCE).until(() -> servers.connected("web").orElseThrow());
    breakers.mcpServer("web").close();
  }

  @Test
  void should_list_the_tools_of_each_server_with_their_schema_and_side_effects_from_the_annotations() {
    assertThat(tools.names()).contains("everything__echo", "everything__get-sum", "web__echo", "files__read_text_file",
        "files__write_file", "files__create_directory");
    assertThat(tools.find("files__read_text_file").orElseThrow().sideEffects()).isFalse();   // readOnlyHint
    assertThat(tools.find("files__write_file").orElseThrow().sideEffects()).isTrue();        // destructiveHint
    assertThat(tools.find("files__create_directory").orElseThrow().sideEffects()).isTrue();  // not read-only
    assertThat(approvals.needsApproval("files__write_file")).isTrue();
    assertThat(approvals.needsApproval("everything__echo")).isFalse();
    assertThat(tools.find("everything__get-sum").orElseThrow().parameters().path("properties").has("a")).isTrue();
  }

  @Test
  void should_call_tools_over_stdio_and_streamable_http_through_the_loop() {
    // when the model echoes over stdio and adds over HTTP in one turn, then asks for an image
    String run = runs.start(TestAgent.KEY, "mcp-tools: all of them");
    RunView view = answered(run);

    // then every observation is the server's text; the image is named, not put into the prompt
    assertThat(view.finalAnswer()).isEqualTo("echoed, added and looked");
    List<Step> observations = steps(run, OBSERVATION);
    assertThat(observations).hasSize(3);
    assertThat(observations.get(0).text("result")).isEqualTo("Echo: hello");
    assertThat(observations.get(1).text("result")).isEqualTo("The sum of 2 and 3 is 5.");
    assertThat(observations.get(2).text("result")).matches("(?s)Here's the image you requested:\n"
        + "\\[image image/png, \\d+ bytes, not shown]\nThe image above is the MCP logo\\.");
    assertThat(breakers.find("mcp:web").orElseThrow().kind()).isEqualTo("mcp");
  }

  @Test
  void should_send_the_model_the_whole_schema_of_a_java_sdk_server_tool_with_its_defs() throws IOException {
    await().atMost(Runs.PATIENCE).until(() -> servers.connected("java").orElseThrow());

    String run = runs.start(TestAgent.KEY, "mcp-java: a trip");
    assertThat(answered(run).finalAnswer()).isEqualTo("planned");

    // the tools of the model request, as the adapter received them: the server's schema whole, $defs and $refs
    // included, with only what the one adapting place documents left out (top-level title, $schema, …)
    Step thought = steps(run, StepKind.THOUGHT).get(0);
    JsonNode offered = insights.prompt(run, thought.stepNo()).orElseThrow().tools();
    JsonNode planTrip = java.util.stream.StreamSupport.stream(offered.spliterator(), false)
        .filter(tool -> tool.path("name").asText().equals("java__plan_trip")).findFirst().orElseThrow();
    JsonNode sent = JSON.readTree(JavaSdkMcpServer.PLAN_TRIP_SCHEMA);
    assertThat(planTrip.path("parameters")).isEqualTo(dev.agentloop.spi.ToolSchemas.forModel("java__plan_trip", sent));
    assertThat(planTrip.path("parameters").path("$defs")).isEqualTo(sent.path("$defs"));
    assertThat(steps(run, OBSERVATION).get(0).text("result")).isEqualTo("trip planned for Ada: 1 legs");
    assertThat(Files.readAllLines(folder.resolve("java-calls.log"))).contains("call plan_trip {\"traveller\":"
        + "{\"name\":\"Ada\",\"age\":null},\"legs\":[{\"from_city\":\"Bern\",\"to_city\":\"Oslo\",\"mode\":\"plane\"}]}");
  }

  @Test
  void should_call_a_tool_of_a_server_that_offers_only_the_older_sse_transport() {
    String run = runs.start(TestAgent.KEY, "mcp-sse: echo");

    assertThat(answered(run).finalAnswer()).isEqualTo("echoed over SSE");
    assertThat(steps(run, OBSERVATION).get(0).text("result")).isEqualTo("Echo: old");
  }

  @Test
  void should_refuse_at_deployment_an_agent_that_allows_a_tool_its_server_does_not_list() {
    assertThatThrownBy(() -> TestAgent.deployVariant(engine, "mcp-unknown-tool",
        Map.of(AgentSettings.ALLOWED_TOOLS, "files__read_text_file, files__format_disk")))
        .hasMessageContaining("agent property 'allowedTools' names the unknown tool 'files__format_disk'");

    TestAgent.deployVariant(engine, "mcp-known-tools", Map.of(AgentSettings.ALLOWED_TOOLS,
        "files__read_text_file, everything__echo, web__get-sum", AgentSettings.AUTO_ACCEPT_PLAN, "true"));
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("mcp-known-tools")
        .count()).isOne();
  }

  @Test
  void should_count_a_server_that_does_not_answer_in_time_as_timed_out_and_retry_a_read_only_call() {
    double before = transientFailures("everything__trigger-long-running-operation");

    String run = runs.start(TestAgent.KEY, "mcp-timeout: a slow operation");
    RunView view = answered(run);

    Step observation = steps(run, OBSERVATION).get(0);
    assertThat(observation.text("failure")).isEqualTo("timed_out");
    assertThat(observation.text("error")).isEqualTo("'everything__trigger-long-running-operation' timed out: MCP server"
        + " 'everything' did not answer 'trigger-long-running-operation' within 1 s; the call was cancelled on the server");
    // read-only (readOnlyHint), so retried: an attempt that may still run does no harm
    assertThat(transientFailures("everything__trigger-long-running-operation") - before).isEqualTo(3);
    assertThat(view.finalAnswer()).isEqualTo("too slow");
  }

  @Test
  void should_refuse_arguments_that_break_the_input_schema_before_the_server_sees_them() {
    String run = runs.start(TestAgent.KEY, "mcp-schema: two plus three");
    answered(run);

    Step observation = steps(run, OBSERVATION).get(0);
    assertThat(observation.text("failure")).isEqualTo("invalid_arguments");
    assertThat(observation.text("error")).startsWith("arguments for 'everything__get-sum' do not match its schema: /a:");
    assertThat(runs.view(run).toolCalls()).isZero();
  }

  @Test
  void should_give_the_model_a_tool_error_as_an_error_observation() {
    String run = runs.start(TestAgent.KEY, "mcp-is-error: read the notes");
    RunView view = answered(run);

    Step observation = steps(run, OBSERVATION).get(0);
    assertThat(observation.text("failure")).isEqualTo("failed");
    assertThat(observation.text("error")).startsWith("'files__read_text_file' reported an error: ")
        .contains("missing.txt");
    assertThat(view.finalAnswer()).isEqualTo("there is no such file");
    assertThat(breakers.find("mcp:files").orElseThrow().state()).isEqualTo("CLOSED");
  }

  @Test
  void should_wait_for_approval_before_a_destructive_tool_and_gate_it_again_when_edited_after_the_run() throws IOException {
    // given a run whose model writes a file with a destructive tool
    String run = runs.start(TestAgent.ANSWER_REVIEWED, "mcp-write: a note");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);
    assertThat(local(approval, "tool1")).isEqualTo("files__write_file");
    assertThat(folder.resolve("note.txt")).doesNotExist();

    // when a person approves it, it runs, and the run waits with its answer
    complete(approval, "carl", Map.of("decision1", "approve"));
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(folder.resolve("note.txt")).hasContent("first");
    Step write = steps(run, StepKind.ACTION).get(0);
    assertThat(steps(run, OBSERVATION).get(1).text("result")).isEqualTo("first");

    // when the call is edited through the resume API
    ResumeResult result = resume.edit(new StepEdit(run, write.stepNo(),
        json("{\"arguments\": {\"path\": \"note.txt\", \"content\": \"second\"}}"), "other text",
        runs.view(run).version(), "olga"));

    // then the edit lists the write that happened, and the new call waits for a person again
    assertThat(result.sideEffects()).singleElement().satisfies(effect -> assertThat(effect.tool())
        .isEqualTo("files__write_file"));
    Task again = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);
    assertThat(folder.resolve("note.txt")).hasContent("first");
    complete(again, "carl", Map.of("decision1", "approve"));
    await().atMost(Runs.PATIENCE).until(() -> Files.readString(folder.resolve("note.txt")).equals("second"));
  }

  @Test
  void should_escape_when_the_http_server_dies_mid_run_and_recover_when_it_is_back() throws Exception {
    // given a run that used the HTTP server and waits for a person's approval
    String run = runs.start(TestAgent.KEY, "mcp-down: echo, pause, echo");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);
    assertThat(steps(run, OBSERVATION).get(0).text("result")).isEqualTo("Echo: before");

    // when the server dies while the run waits, and the run goes on
    web.destroyForcibly();
    complete(approval, "carl", Map.of("decision1", "approve"));

    // then its calls fail, the server's breaker opens, and the run escapes to agentStuck
    Task stuck = Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.ESCAPE_CODE.name()))
        .isEqualTo(Escapes.TOOL_UNAVAILABLE);
    List<Step> failed = steps(run, OBSERVATION).subList(2, steps(run, OBSERVATION).size());
    assertThat(failed).isNotEmpty().allSatisfy(observation -> assertThat(observation.text("error")).isNotBlank());
    assertThat(failed.get(failed.size() - 1).text("failure")).isEqualTo("unavailable");
    assertThat(breakers.find("mcp:web").orElseThrow().state()).isEqualTo("OPEN");
    assertThat(String.valueOf(local(stuck, "breakers"))).contains("mcp:web: OPEN");
    JsonNode health = ApiClient.body(ApiClient.anonymous(port).get("/actuator/health"), 200);
    assertThat(health.at("/components/breakers/description").asText()).contains("mcp:web OPEN");
    assertThat(health.at("/components/mcpServers/status").asText()).isEqualTo("DEGRADED");
    assertThat(health.at("/components/mcpServers/description").asText()).isEqualTo("MCP servers not connected: web");

    // when the server is back and a person retries
    web = NpmMcpServers.startEverythingHttp(webPort);
    await().atMost(Runs.PATIENCE).until(() -> servers.connected("web").orElseThrow());
    breakers.mcpServer("web").close();
    complete(stuck, "ann", Map.of("decision", "retry"));

    // then the call runs again and the run ends with the model's answer
    RunView view = answered(run);
    assertThat(view.finalAnswer()).isEqualTo("recovered");
  }

  @Test
  void should_restart_a_stdio_server_that_died() {
    // given the stdio server runs
    List<ProcessHandle> before = NpmMcpServers.processes("server-everything/dist/index.js stdio");
    assertThat(before).hasSize(1);

    // when it dies
    before.get(0).destroyForcibly();

    // then it is started again, and its tools work
    await().atMost(Runs.PATIENCE).until(() -> {
      List<ProcessHandle> now = NpmMcpServers.processes("server-everything/dist/index.js stdio");
      return now.size() == 1 && now.get(0).pid() != before.get(0).pid() && servers.connected("everything").orElseThrow();
    });
    String run = runs.start(TestAgent.KEY, "mcp-tools: after a restart");
    assertThat(answered(run).finalAnswer()).isEqualTo("echoed, added and looked");
  }

  /**
   * Waits until the run is answered and its answer readable: now and then the run's status reads
   * ANSWERED a moment before its final answer step does (seen on H2; reported, not of this test's making).
   */
  private RunView answered(String run) {
    return Runs.awaitView(runs, run, view -> view.status() == RunStatus.ANSWERED && view.finalAnswer() != null);
  }

  private double transientFailures(String tool) {
    Counter counter = meters.find("agentloop.tool.failures").tags("tool", tool, "class", "transient").counter();
    return counter == null ? 0 : counter.count();
  }

  private List<Step> steps(String run, StepKind kind) {
    return runs.trace(run, false).stream().filter(step -> step.kind() == kind).toList();
  }

  private void complete(Task task, String user, Map<String, Object> fields) {
    engine.getIdentityService().setAuthentication(user, List.of(AgentLoopGroups.REVIEWERS));
    try {
      VariableMap variables = Variables.createVariables();
      variables.putAll(fields);
      engine.getFormService().submitTaskForm(task.getId(), variables);
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }

  private Object local(Task task, String name) {
    return engine.getTaskService().getVariableLocal(task.getId(), name);
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
