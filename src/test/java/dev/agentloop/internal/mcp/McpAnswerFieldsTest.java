package dev.agentloop.internal.mcp;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.llm.AnswerSchemaRuns;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An agent that answers in fields, at {@code /mcp} as the official MCP Java SDK's client sees it: its tool declares
 * the agent's answer schema as its {@code outputSchema}, a call's result carries the fields as
 * {@code structuredContent} beside the text, and a call whose run has not answered in time is an error result naming
 * the run (a result without the fields would break the tool's own schema); an agent that answers in text declares no
 * output schema and sends no structured content.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpAnswerFieldsTest {

  private static final String AGENT = "mcp-fields-agent";
  private static final String REVIEWED = "mcp-fields-reviewed";
  private static final ObjectMapper JSON = new ObjectMapper();

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @BeforeAll
  void deploy() {
    AnswerSchemaRuns.deploy(engine, AGENT);
    // the same schema, with a person reviewing the answer, whom nobody is
    TestAgent.deployVariant(engine, REVIEWED, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.ANSWER_SCHEMA, AnswerSchemaRuns.SCHEMA));
  }

  @Test
  void should_declare_the_answer_schema_as_the_tools_output_schema() throws Exception {
    try (McpSyncClient client = client()) {
      // when
      List<McpSchema.Tool> tools = await().atMost(Runs.PATIENCE).until(() -> client.listTools().tools(),
          listed -> listed.stream().anyMatch(tool -> tool.name().equals(AGENT)));

      // then
      assertThat(JSON.<JsonNode>valueToTree(tool(tools, AGENT).outputSchema()))
          .isEqualTo(JSON.readTree(AnswerSchemaRuns.SCHEMA));
      assertThat(tool(tools, TestAgent.KEY).outputSchema()).as("an agent that answers in text").isNull();
    }
  }

  @Test
  void should_answer_a_call_with_the_fields_as_structured_content_beside_the_text() throws Exception {
    try (McpSyncClient client = client()) {
      awaitTool(client, AGENT);

      // when
      McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(AGENT,
          Map.of("question", "fields: my kettle broke, over MCP")));

      // then the fields are data, valid against the tool's output schema, and the text is the answer as ever
      assertThat(result.isError()).as(String.valueOf(result.content())).isNotEqualTo(Boolean.TRUE);
      assertThat(JSON.<JsonNode>valueToTree(result.structuredContent())).isEqualTo(JSON.readTree(
          "{\"category\": \"defect\", \"priority\": \"urgent\", \"days\": 2, \"reply\": \"We are sorry.\"}"));
      String run = (String) result.meta().get(McpAnswers.RUN_META);
      JsonNode view = body(ApiClient.as(port, "reviewer").get("/api/runs/" + run), 200);
      assertThat(((McpSchema.TextContent) result.content().get(0)).text())
          .isEqualTo(view.get("finalAnswer").asText());
      assertThat(view.get("answerData")).isEqualTo(JSON.valueToTree(result.structuredContent()));

      // and an agent that answers in text sends no structured content
      McpSchema.CallToolResult text = client.callTool(new McpSchema.CallToolRequest(TestAgent.KEY,
          Map.of("question", "multi-step: no fields over MCP")));
      assertThat(text.structuredContent()).isNull();
    }
  }

  @Test
  void should_make_a_call_that_has_no_fields_in_time_an_error_naming_the_run() {
    try (McpSyncClient client = client()) {
      awaitTool(client, REVIEWED);

      // when nobody reviews the answer within agentloop.mcp.call-timeout (30 s in the tests)
      McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(REVIEWED,
          Map.of("question", "fields: nobody reviews this in time")));

      // then the call is an error, not fields made up, and says which run answers it later
      String run = (String) result.meta().get(McpAnswers.RUN_META);
      assertThat(result.isError()).isTrue();
      assertThat(result.structuredContent()).isNull();
      assertThat(((McpSchema.TextContent) result.content().get(0)).text())
          .contains(run, "has not answered yet", "reviewAnswer", "agentloop://runs/" + run);
      assertThat(result.meta()).containsEntry("agentloop/status", "WAITING");
    }
  }

  private static McpSchema.Tool tool(List<McpSchema.Tool> tools, String name) {
    return tools.stream().filter(tool -> tool.name().equals(name)).findFirst().orElseThrow();
  }

  /** A deployed agent is a tool once the server's listing has read the deployments again. */
  private static void awaitTool(McpSyncClient client, String name) {
    await().atMost(Runs.PATIENCE).until(() -> client.listTools().tools().stream()
        .anyMatch(tool -> tool.name().equals(name)));
  }

  private McpSyncClient client() {
    String credentials = Base64.getEncoder().encodeToString("reviewer:reviewer".getBytes(StandardCharsets.UTF_8));
    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
            .endpoint("/mcp").requestBuilder(HttpRequest.newBuilder().header("Authorization", "Basic " + credentials))
            .build())
        .requestTimeout(Duration.ofSeconds(120)).build();
    client.initialize();
    return client;
  }
}
