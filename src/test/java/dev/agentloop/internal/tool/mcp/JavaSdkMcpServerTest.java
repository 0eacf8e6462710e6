package dev.agentloop.internal.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.Runs;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolOutcome;
import dev.agentloop.internal.tool.ToolOutcome.FailureKind;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.ToolRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * AgentLoop against an MCP server written with the official MCP Java SDK ({@link JavaSdkMcpServer}),
 * a process of its own, over all three transports: stdio, streamable HTTP and the older HTTP+SSE.
 * What the server sends is what the model gets; a call that takes longer than the server's own
 * timeout is cancelled on the server, once.
 */
@ExtendWith(OutputCaptureExtension.class)
class JavaSdkMcpServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static Path dir;
  private static Process http;
  private static int port;
  private static McpServers servers;
  private static ToolRegistry registry;
  private static ExecutorService pool;

  @BeforeAll
  static void startServers() throws Exception {
    dir = Files.createTempDirectory("agentloop-java-sdk-mcp");
    port = NpmMcpServers.freePort();
    http = JavaSdkMcpServer.start(dir.resolve("http.log"), "http", String.valueOf(port));
    List<String> stdio = JavaSdkMcpServer.stdioCommand(dir.resolve("stdio.log"));
    Map<String, McpServerSettings> settings = new LinkedHashMap<>();
    // the server's own timeout, 3 s, is longer than agentloop.tools.timeout (1 s below): it is used as set
    settings.put("stdio", new McpServerSettings(stdio.get(0), stdio.subList(1, stdio.size()), null, null, null, null,
        null, Duration.ofSeconds(3), null, null));
    settings.put("streamable", new McpServerSettings(null, null, null, null, "http://127.0.0.1:" + port + "/mcp", null,
        null, Duration.ofSeconds(3), null, Duration.ofMillis(500)));
    settings.put("sse", new McpServerSettings(null, null, null, null, "http://127.0.0.1:" + port + "/sse", null,
        McpServerSettings.Transport.SSE, Duration.ofSeconds(3), null, Duration.ofMillis(500)));
    // the same server, started by a script that prints a banner on standard output first
    List<String> chatty = new java.util.ArrayList<>(List.of("-c", "echo 'chatty server 1.0 starting...'; exec \"$@\"",
        "sh"));
    chatty.addAll(JavaSdkMcpServer.stdioCommand(dir.resolve("chatty.log")));
    settings.put("chatty", new McpServerSettings("/bin/sh", chatty, null, null, null, null, null, Duration.ofSeconds(3),
        null, null));
    servers = McpServers.start(settings, Duration.ofSeconds(1));
    await().atMost(Duration.ofSeconds(60)).until(() -> servers.notConnected().isEmpty());
    registry = new ToolRegistry(List.of(), servers.sources());
    pool = Executors.newFixedThreadPool(4);
  }

  @AfterAll
  static void stopServers() throws Exception {
    if (servers != null) {
      servers.close();
    }
    if (http != null) {
      http.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  @Test
  void should_give_the_model_the_whole_schema_with_defs_and_refs_exactly_as_the_server_sent_it() throws Exception {
    JsonNode sent = JSON.readTree(JavaSdkMcpServer.PLAN_TRIP_SCHEMA);
    for (String server : List.of("stdio", "streamable", "sse")) {
      AgentTool tool = registry.find(server + "__plan_trip").orElseThrow();
      assertThat(tool.parameters()).as(server).isEqualTo(sent);
      assertThat(tool.parameters().path("$defs").fieldNames()).toIterable().containsExactly("Leg", "Mode", "Traveller");
      assertThat(tool.sideEffects()).as("readOnlyHint").isFalse();
    }
  }

  @Test
  void should_check_arguments_against_the_referenced_definitions_and_call_with_them() throws Exception {
    // arguments that break a definition reached through $ref never leave
    JsonNode rocket = JSON.readTree("""
        {"traveller": {"name": "Ada"}, "legs": [{"from_city": "Bern", "to_city": "Oslo", "mode": "rocket"}]}""");
    assertThat(registry.refusal("streamable__plan_trip", rocket, null)).hasValueSatisfying(failure -> {
      assertThat(failure.kind()).isEqualTo(FailureKind.INVALID_ARGUMENTS);
      assertThat(failure.message()).contains("/legs/0/mode");
    });

    // good ones reach the server as they were written, over each transport
    JsonNode train = JSON.readTree("""
        {"traveller": {"name": "Ada", "age": null}, "legs": [{"from_city": "Bern", "to_city": "Oslo", "mode": "train"}]}""");
    ToolRunner runner = new ToolRunner(registry, pool, Duration.ofSeconds(1), 10_000);
    for (String server : List.of("stdio", "streamable", "sse")) {
      ToolOutcome outcome = runner.run(server + "__plan_trip", train).toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertThat(outcome.result()).as(server).isEqualTo("trip planned for Ada: 1 legs");
    }
    assertThat(callLog("stdio.log")).contains("call plan_trip " + JSON.writeValueAsString(train));
    assertThat(callLog("http.log")).filteredOn(line -> line.startsWith("call plan_trip")).hasSize(2);
  }

  @Test
  void should_wait_for_the_servers_own_timeout_and_cancel_a_call_that_takes_longer_on_the_server() throws Exception {
    ToolRunner runner = new ToolRunner(registry, pool, Duration.ofSeconds(1), 10_000);

    // a call of 2 s outlasts agentloop.tools.timeout (1 s) but not the server's own (3 s): it is answered
    ToolOutcome answered = runner.run("stdio__slow", JSON.readTree("{\"seconds\": 2}")).toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    assertThat(answered.result()).isEqualTo("slept 2.0 s");

    for (String server : List.of("stdio", "streamable")) {
      String log = server.equals("stdio") ? "stdio.log" : "http.log";
      long cancelledBefore = callLog(log).stream().filter(line -> line.startsWith("cancelled")).count();

      // a call of 8 s times out after 3 s, as timed_out, and the server is told to stop it
      ToolOutcome outcome = runner.run(server + "__slow", JSON.readTree("{\"seconds\": 8}")).toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      assertThat(outcome.failure().kind()).as(server).isEqualTo(FailureKind.TIMED_OUT);
      assertThat(outcome.failure().message()).isEqualTo("'" + server + "__slow' timed out: MCP server '" + server
          + "' did not answer 'slow' within 3 s; the call was cancelled on the server");
      await().atMost(Runs.PATIENCE).until(() -> callLog(log).stream().filter(line -> line.startsWith("cancelled"))
          .count() == cancelledBefore + 1);
      assertThat(callLog(log).stream().filter(line -> line.startsWith("cancelled")).toList().get((int) cancelledBefore))
          .contains("\"requestId\"").contains("AgentLoop gave up after 3000 ms");
    }
  }

  @Test
  void should_name_the_url_or_command_and_the_cause_when_a_server_cannot_be_connected() {
    int closed = NpmMcpServers.freePort();
    Map<String, McpServerSettings> settings = new LinkedHashMap<>();
    settings.put("refused", McpServerSettings.http("http://127.0.0.1:" + closed + "/mcp"));
    // the SSE endpoint, configured without transport: sse
    settings.put("legacy", McpServerSettings.http("http://127.0.0.1:" + port + "/sse"));
    // a process that prints lines that are no JSON-RPC
    settings.put("junk", new McpServerSettings("/bin/sh", List.of("-c", "while :; do echo no JSON-RPC; sleep 1; done"),
        null, null, null, null, null, null, Duration.ofSeconds(2), Duration.ofMinutes(1)));
    McpServers broken = McpServers.start(settings, Duration.ofSeconds(1));
    try {
      await().atMost(Runs.PATIENCE).until(() -> broken.states().values().stream().allMatch("down"::equals));

      assertThat(broken.notConnected().get("refused")).isEqualTo("streamable-http url http://127.0.0.1:" + closed
          + "/mcp: cannot connect to 127.0.0.1:" + closed + ": Connection refused");
      assertThat(broken.notConnected().get("legacy")).startsWith("streamable-http url http://127.0.0.1:" + port + "/sse: ")
          .contains("404").endsWith("; this url serves the older HTTP+SSE transport (a GET opens an event stream):"
              + " set transport: sse");
      assertThat(broken.notConnected().get("junk")).isEqualTo("command '/bin/sh': no answer to initialize within 2 s"
          + " (the process runs, but wrote no MCP message on stdout: is it an MCP server over stdio?)");
    } finally {
      broken.close();
    }
  }

  @Test
  void should_ignore_a_line_that_is_no_json_rpc_say_so_once_without_a_stack_trace_and_serve_the_tools(
      CapturedOutput output) throws Exception {
    // the banner did not end the connection (the SDK stops reading a server at a line it cannot parse)
    assertThat(servers.states()).containsEntry("chatty", "connected");
    ToolRunner runner = new ToolRunner(registry, pool, Duration.ofSeconds(1), 10_000);
    JsonNode train = JSON.readTree("{\"traveller\": {\"name\": \"Ada\"}, \"legs\": [{\"from_city\": \"Bern\","
        + " \"to_city\": \"Oslo\"}]}");

    ToolOutcome outcome = runner.run("chatty__plan_trip", train).toCompletableFuture().get(30, TimeUnit.SECONDS);

    assertThat(outcome.result()).isEqualTo("trip planned for Ada: 1 legs");
    assertThat(output.getAll().lines().filter(line -> line.contains("AGENTLOOP-901 MCP server 'chatty'")))
        .singleElement().asString()
        .endsWith("AGENTLOOP-901 MCP server 'chatty' wrote a line to its standard output that is no JSON-RPC message;"
            + " it is ignored (a stdio server writes only JSON-RPC there, its own logs to standard error):"
            + " 'chatty server 1.0 starting...'");
    assertThat(output.getAll()).doesNotContain("JsonParseException").doesNotContain("Error processing inbound message");
  }

  private static List<String> callLog(String name) throws Exception {
    Path log = dir.resolve(name);
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }
}
