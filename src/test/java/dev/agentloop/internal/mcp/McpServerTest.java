package dev.agentloop.internal.mcp;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code /mcp} as an MCP client that is not AgentLoop's sees it: the official MCP Java SDK's client over streamable
 * HTTP lists the agents a user may start as tools, calls them, waits while a person reviews the plan, gets a run id
 * when the call's time runs out, cancels a call (which stops its run), and sees only its own agents.
 */
@AgentLoopTest
class McpServerTest {

  /** A user who may start {@link TestAgent#KEY} and nothing else. */
  private static final String LIMITED = "mcplimited";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @Test
  @SuppressWarnings("unchecked")
  void should_list_the_agents_and_answer_a_call_with_the_runs_answer() {
    try (McpSyncClient client = client("reviewer", null, List.of())) {
      // when
      List<McpSchema.Tool> tools = client.listTools().tools();

      // then every agent the reviewer may start is a tool taking a question and a conversation id
      assertThat(tools).extracting(McpSchema.Tool::name)
          .contains(TestAgent.KEY, TestAgent.REVIEWED, TestAgent.ANSWER_REVIEWED, ReactAgentProcess.KEY);
      McpSchema.Tool agent = tools.stream().filter(tool -> tool.name().equals(TestAgent.KEY)).findFirst().orElseThrow();
      assertThat(agent.description()).isNotBlank();
      assertThat((Map<String, Object>) agent.inputSchema().get("properties")).containsOnlyKeys("question", "conversationId");
      assertThat((List<Object>) agent.inputSchema().get("required")).containsExactly("question");

      // when
      McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(TestAgent.KEY,
          Map.of("question", "multi-step: asked over MCP")));

      // then the call's result is the run's answer, and names the run
      assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
      assertThat(text(result)).isEqualTo("757");
      String run = (String) result.meta().get(McpAnswers.RUN_META);
      assertThat(body(ApiClient.as(port, "reviewer").get("/api/runs/" + run), 200).get("status").asText())
          .isEqualTo("ANSWERED");
    }
  }

  @Test
  void should_keep_the_call_open_while_a_person_reviews_the_plan_telling_the_wait_as_progress() throws Exception {
    // given
    List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    try (McpSyncClient client = client("reviewer", null, List.of())) {
      McpSyncClient progressClient = client("reviewer", progress::add, List.of());

      // when an agent whose plan and answer are reviewed is called
      CompletableFuture<McpSchema.CallToolResult> call = CompletableFuture.supplyAsync(() -> progressClient.callTool(
          McpSchema.CallToolRequest.builder().name(TestAgent.REVIEWED)
              .arguments(Map.of("question", "multi-step: reviewed while the client waits")).progressToken("review-1")
              .build()));

      // then the client is told what the run waits for, while the call stays open
      McpSchema.ProgressNotification waiting = await().atMost(Runs.PATIENCE).until(() -> progress.stream()
          .filter(note -> note.message().contains(ReactAgentProcess.REVIEW_PLAN)).findFirst().orElse(null),
          note -> note != null);
      assertThat(waiting.progressToken()).isEqualTo("review-1");
      assertThat(waiting.message()).startsWith("waiting for a person");
      assertThat(call).isNotDone();
      String run = await().atMost(Runs.PATIENCE).until(() -> runOf(reviewer, TestAgent.REVIEWED,
          "multi-step: reviewed while the client waits"), id -> id != null);

      // when a person accepts the plan, and then the answer
      complete(reviewer, run, ReactAgentProcess.REVIEW_PLAN);
      complete(reviewer, run, ReactAgentProcess.REVIEW_ANSWER);

      // then the call answers with the accepted answer
      McpSchema.CallToolResult result = call.get(Runs.PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      assertThat(text(result)).isEqualTo("757");
      assertThat(result.meta()).containsEntry(McpAnswers.RUN_META, run);
      // each progress once and none lost; the server sends them one after the other, growing, but the SDK's client
      // hands each notification to the consumer on a thread of its own, so they may arrive here in another order
      assertThat(progress).extracting(McpSchema.ProgressNotification::progress).doesNotHaveDuplicates()
          .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.rangeClosed(1, progress.size())
              .mapToObj(Double::valueOf).toList());
      progressClient.close();
    }
  }

  @Test
  void should_answer_with_the_run_id_when_nobody_reviews_in_time_and_serve_the_run_as_a_resource() {
    try (McpSyncClient client = client("reviewer", null, List.of())) {
      // when the plan review waits longer than agentloop.mcp.call-timeout (30 s in the tests)
      McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(TestAgent.REVIEWED,
          Map.of("question", "multi-step: nobody reviews in time")));

      // then the call says which run answers it and how to fetch the answer, and the run goes on
      String run = (String) result.meta().get(McpAnswers.RUN_META);
      assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
      assertThat(text(result)).contains(run, "agentloop://runs/" + run, "/api/runs/" + run, "reviewPlan");
      McpSchema.ReadResourceResult resource = client.readResource(
          new McpSchema.ReadResourceRequest("agentloop://runs/" + run, null));
      String view = ((McpSchema.TextResourceContents) resource.contents().get(0)).text();
      assertThat(view).contains("\"status\":\"WAITING\"", "\"waitingFor\":[\"reviewPlan\"]");
      // a run that is not there (or that the user may not read) is no resource
      assertThatThrownBy(() -> client.readResource(new McpSchema.ReadResourceRequest("agentloop://runs/nope", null)))
          .hasMessageContaining("Resource not found");
    }
  }

  @Test
  void should_ask_a_conversations_next_question_in_its_open_run() {
    TestAgent.deployConversationAgents(engine, "mcp-chat", "mcp-chat-reviewed");
    try (McpSyncClient client = client("reviewer", null, List.of())) {
      // given a first question under the client's conversation id
      McpSchema.CallToolResult first = client.callTool(new McpSchema.CallToolRequest("mcp-chat",
          Map.of("question", "conv: first over MCP", "conversationId", "mcp-conversation-1")));
      String run = (String) first.meta().get(McpAnswers.RUN_META);
      assertThat(text(first)).contains("conv: first over MCP");

      // when the next question comes under the same id
      McpSchema.CallToolResult second = client.callTool(new McpSchema.CallToolRequest("mcp-chat",
          Map.of("question", "conv: second over MCP", "conversationId", "mcp-conversation-1")));

      // then it is the same run's next turn, answered in its own words
      assertThat(second.meta()).containsEntry(McpAnswers.RUN_META, run);
      assertThat(text(second)).contains("conv: second over MCP");
      assertThat(body(ApiClient.as(port, "reviewer").get("/api/runs/" + run), 200).get("turns")).hasSize(2);

      // and another agent's tool with that id is refused in words
      McpSchema.CallToolResult other = client.callTool(new McpSchema.CallToolRequest("mcp-chat-reviewed",
          Map.of("question", "conv: third", "conversationId", "mcp-conversation-1")));
      assertThat(other.isError()).isTrue();
      assertThat(text(other)).contains("mcp-conversation-1", "mcp-chat");
    }
  }

  @Test
  void should_stop_the_run_when_the_client_cancels_the_call() {
    RecordingTransport transport = new RecordingTransport(transport("operator"));
    try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120)).build()) {
      client.initialize();
      ApiClient operator = ApiClient.as(port, "operator");
      // given a call waiting for a plan review
      CompletableFuture.runAsync(() -> client.callTool(new McpSchema.CallToolRequest(TestAgent.REVIEWED,
          Map.of("question", "multi-step: cancelled by the client"))));
      String run = await().atMost(Runs.PATIENCE).until(() -> runOf(operator, TestAgent.REVIEWED,
          "multi-step: cancelled by the client"), id -> id != null);
      operator.awaitTask(run, ReactAgentProcess.REVIEW_PLAN);

      // when the client cancels it, as MCP cancels a request
      transport.cancel(transport.lastRequestId("tools/call"), "the user changed their mind");

      // then the run stops, and says who stopped it
      JsonNode stopped = await().atMost(Runs.PATIENCE).until(() -> body(operator.get("/api/runs/" + run), 200),
          view -> view.get("status").asText().equals("STOPPED"));
      assertThat(stopped.get("endedBy").asText()).isEqualTo("operator");
      assertThat(stopped.get("statusReason").asText()).contains("MCP client cancelled");
    }
  }

  @Test
  void should_show_a_user_only_the_agents_they_may_start_and_refuse_the_others() {
    // given a user who may start one agent
    grantOnly(LIMITED, TestAgent.KEY);
    try (McpSyncClient client = client(LIMITED, null, List.of())) {
      // then
      assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).containsExactly(TestAgent.KEY);

      // and calling another agent by name is refused in words, and starts nothing
      McpSchema.CallToolResult refused = client.callTool(new McpSchema.CallToolRequest(TestAgent.REVIEWED,
          Map.of("question", "multi-step: not mine to ask")));
      assertThat(refused.isError()).isTrue();
      assertThat(text(refused)).contains(LIMITED, "may not start", TestAgent.REVIEWED);

      // and a call without a question is refused in words
      McpSchema.CallToolResult noQuestion = client.callTool(new McpSchema.CallToolRequest(TestAgent.KEY,
          Map.of("question", " ")));
      assertThat(noQuestion.isError()).isTrue();
      assertThat(text(noQuestion)).contains("question must be a non-empty string");
    }
    // and without credentials there is no session at all
    try (McpSyncClient anonymous = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
        .endpoint("/mcp").build()).requestTimeout(Duration.ofSeconds(30)).build()) {
      assertThatThrownBy(anonymous::initialize).isNotNull();
    }
  }

  private void grantOnly(String userId, String agent) {
    if (engine.getIdentityService().createUserQuery().userId(userId).count() > 0) {
      return;
    }
    User user = engine.getIdentityService().newUser(userId);
    user.setPassword(userId);
    engine.getIdentityService().saveUser(user);
    AuthorizationService authorizations = engine.getAuthorizationService();
    Authorization instances = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
    instances.setUserId(userId);
    instances.setResource(Resources.PROCESS_INSTANCE);
    instances.setResourceId("*");
    instances.addPermission(Permissions.CREATE);
    authorizations.saveAuthorization(instances);
    Authorization definition = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
    definition.setUserId(userId);
    definition.setResource(Resources.PROCESS_DEFINITION);
    definition.setResourceId(agent);
    definition.addPermission(ProcessDefinitionPermissions.CREATE_INSTANCE);
    definition.addPermission(ProcessDefinitionPermissions.READ_HISTORY);
    authorizations.saveAuthorization(definition);
  }

  private McpSyncClient client(String user, java.util.function.Consumer<McpSchema.ProgressNotification> progress,
      List<String> unused) {
    McpClient.SyncSpec spec = McpClient.sync(transport(user)).requestTimeout(Duration.ofSeconds(120));
    if (progress != null) {
      spec.progressConsumer(progress);
    }
    McpSyncClient client = spec.build();
    client.initialize();
    return client;
  }

  /**
   * A connection per request: now and then the JDK's client sent a request on a pooled connection the server had
   * just closed, and failed it ("header parser received no bytes") without trying again, which is the client's
   * business, not the server's under test.
   */
  private HttpClientStreamableHttpTransport transport(String user) {
    String credentials = Base64.getEncoder().encodeToString((user + ":" + user).getBytes(StandardCharsets.UTF_8));
    HttpRequest.Builder requests = HttpRequest.newBuilder().header("Authorization", "Basic " + credentials);
    if ("connection".equals(System.getProperty("jdk.httpclient.allowRestrictedHeaders"))) {
      requests.header("Connection", "close");
    }
    return HttpClientStreamableHttpTransport.builder("http://localhost:" + port).endpoint("/mcp")
        .requestBuilder(requests).build();
  }

  private static String runOf(ApiClient client, String agent, String question) {
    for (JsonNode run : body(client.get("/api/runs?agent=" + agent + "&size=50"), 200)) {
      if (run.get("question").asText().equals(question)) {
        return run.get("id").asText();
      }
    }
    return null;
  }

  private static void complete(ApiClient client, String run, String taskKey) {
    JsonNode task = client.awaitTask(run, taskKey);
    body(client.post("/api/runs/" + run + "/tasks/" + task.get("id").asText() + "/complete",
        "{\"decision\": \"accept\"}"), 200);
  }

  private static String text(McpSchema.CallToolResult result) {
    return ((McpSchema.TextContent) result.content().get(0)).text();
  }
}
