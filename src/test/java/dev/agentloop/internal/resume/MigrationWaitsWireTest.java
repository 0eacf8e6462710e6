package dev.agentloop.internal.resume;

import static dev.agentloop.ApiClient.JSON;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Runs waiting in each kind of wait — plan review, answer review, ask-human, approval, agent stuck, a follow-up —
 * move from version 1 of their agent to version 2 through the API, and go on to their answers under version 2: the
 * model, a local fake of an OpenAI-compatible endpoint, is sent version 2's system prompt (and tools) from the next
 * call on, and answers in words that say which prompt it read. A run in the middle of a model call is refused, and,
 * asked again to move when it next waits, moves the moment it waits.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, TestTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // an engine name of its own: /engine-rest serves the JVM's "default" engine, which belongs to the shared test context
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=chat-model", "agentloop.llm.timeout=PT30S",
        "agentloop.tools.approval.audited_lookup=true", "camunda.bpm.process-engine-name=migrationWire",
        // a busy run moves the moment it waits, not when a node looks for pending runs
        "agentloop.migration.pending-check-interval=PT1H"})
@ActiveProfiles("test")
class MigrationWaitsWireTest {

  private static final String V1 = "VERSION-ONE";
  private static final String V2 = "VERSION-TWO";
  private static final CountDownLatch BUSY_ARRIVED = new CountDownLatch(1);
  private static final CountDownLatch BUSY_RELEASED = new CountDownLatch(1);
  private static final FakeOpenAiServer SERVER = start();

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    BUSY_RELEASED.countDown();
    SERVER.close();
  }

  @Test
  void should_go_on_under_the_new_prompt_after_moving_in_the_plan_review() {
    String run = waitingOnVersionOne("mig-wait-plan", Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "false"),
        "plan: how far is the moon?", ReactAgentProcess.REVIEW_PLAN);

    moveToVersionTwo("mig-wait-plan", run, Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "false"));
    complete(run, ReactAgentProcess.REVIEW_PLAN, "{\"decision\": \"accept\"}");

    assertAnsweredUnderVersionTwo(run);
  }

  @Test
  void should_go_on_under_the_new_prompt_after_moving_in_the_answer_review() {
    Map<String, String> settings = Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "false");
    String run = waitingOnVersionOne("mig-wait-answer", settings, "answer: how far is the sun?",
        ReactAgentProcess.REVIEW_ANSWER);
    assertThat(runs.view(run).finalAnswer()).isEqualTo("answer under " + V1);

    moveToVersionTwo("mig-wait-answer", run, settings);
    // a new answer, under the new prompt; then accepted
    complete(run, ReactAgentProcess.REVIEW_ANSWER, "{\"decision\": \"regenerate\", \"regenerateReason\": \"new prompt\"}");
    await().atMost(Runs.PATIENCE).until(() -> ("answer under " + V2).equals(runs.view(run).finalAnswer()));
    complete(run, ReactAgentProcess.REVIEW_ANSWER, "{\"decision\": \"accept\"}");

    assertAnsweredUnderVersionTwo(run);
  }

  @Test
  void should_go_on_under_the_new_prompt_after_moving_while_asking_a_person() {
    String run = waitingOnVersionOne("mig-wait-ask", Map.of(), "ask: which colour?", ReactAgentProcess.ASK_HUMAN);

    moveToVersionTwo("mig-wait-ask", run, Map.of());
    complete(run, ReactAgentProcess.ASK_HUMAN, "{\"answer1\": \"blue\"}");

    assertAnsweredUnderVersionTwo(run);
  }

  @Test
  void should_go_on_under_the_new_prompt_and_tools_after_moving_in_the_approval() {
    Map<String, String> v1Tools = Map.of(AgentSettings.ALLOWED_TOOLS, "audited_lookup, calculator");
    String run = waitingOnVersionOne("mig-wait-approve", v1Tools, "approve: look it up",
        ReactAgentProcess.APPROVE_ACTION);

    // version 2 takes the calculator away; the pending call needs only the lookup
    moveToVersionTwo("mig-wait-approve", run, Map.of(AgentSettings.ALLOWED_TOOLS, "audited_lookup"));
    int before = SERVER.requests().size();
    complete(run, ReactAgentProcess.APPROVE_ACTION, "{\"decision1\": \"approve\"}");

    assertAnsweredUnderVersionTwo(run);
    List<String> offered = tools(SERVER.requests().get(before).body());
    assertThat(offered).contains(TestTools.AUDITED).doesNotContain("calculator");
  }

  @Test
  void should_go_on_under_the_new_prompt_and_budget_after_moving_a_stuck_run() {
    String run = waitingOnVersionOne("mig-wait-stuck", Map.of(AgentSettings.MAX_MODEL_CALLS, "3"),
        "stuck: count forever", ReactAgentProcess.AGENT_STUCK);
    assertThat(runs.view(run).modelCalls()).isEqualTo(3);

    // version 2 lets it make more model calls
    moveToVersionTwo("mig-wait-stuck", run, Map.of(AgentSettings.MAX_MODEL_CALLS, "30"));
    assertThat(runs.view(run).budgets().modelCalls().limit()).isEqualTo(30);
    complete(run, ReactAgentProcess.AGENT_STUCK, "{\"decision\": \"guide\", \"note\": \"answer now\"}");

    assertAnsweredUnderVersionTwo(run);
  }

  @Test
  void should_answer_the_next_question_under_the_new_prompt_after_moving_a_waiting_conversation() {
    Map<String, String> chat = Map.of(AgentSettings.CONVERSATION, "true", AgentSettings.CONVERSATION_IDLE, "PT1H");
    String run = waitingOnVersionOne("mig-wait-chat", chat, "chat: hello", null);
    String idleTimerDue = idleTimerDue(run);

    moveToVersionTwo("mig-wait-chat", run, chat);
    // the conversation's idle timer carried over as it was
    assertThat(idleTimerDue(run)).isEqualTo(idleTimerDue);
    body(api("operator").post("/api/runs/" + run + "/messages", "{\"question\": \"and then?\"}"), 202);

    await().atMost(Runs.PATIENCE).until(() -> runs.view(run).turns().size() == 2
        && runs.view(run).waitingFor().contains(RunView.FOLLOW_UP));
    assertThat(runs.view(run).finalAnswer()).isEqualTo("answer under " + V2);
    assertThat(runs.view(run).turns()).hasSize(2);
  }

  @Test
  void should_refuse_a_run_in_a_model_call_and_move_it_when_it_next_waits_if_asked_to() throws Exception {
    Map<String, String> settings = Map.of(AgentSettings.AUTO_ACCEPT_ANSWER, "false");
    String key = "mig-busy";
    TestAgent.deployVariant(engine, key, withPrompt(V1, settings));
    String run = runs.start(key, "busy: think slowly");
    assertThat(BUSY_ARRIVED.await(60, TimeUnit.SECONDS)).as("the model call started").isTrue();
    TestAgent.deployVariant(engine, key, withPrompt(V2, settings));

    // the run is in its model call: refused, in words
    JsonNode refused = migrate(key, run, "refuse");
    assertThat(refused.at("/runs/0/outcome").asText()).isEqualTo("refused");
    assertThat(refused.at("/runs/0/detail").asText())
        .isEqualTo("busy: try again when it waits (it is in a model call: 'Think' (think))");
    // asked to move it when it next waits: pending, and still on version 1 while it thinks
    JsonNode pending = migrate(key, run, "moveWhenWaiting");
    assertThat(pending.at("/runs/0/outcome").asText()).isEqualTo("pending");
    assertThat(pending.get("done").asBoolean()).isFalse();
    assertThat(runs.view(run).agentVersion()).isEqualTo(1);

    BUSY_RELEASED.countDown();

    // it waits with its answer (written under version 1), and moves then
    await().atMost(Runs.PATIENCE).until(() -> runs.view(run).agentVersion() == 2);
    JsonNode later = body(api("operator").get("/api/agents/" + key + "/migrations/" + pending.get("migrationId")
        .asText()), 200);
    assertThat(later.at("/runs/0/outcome").asText()).isEqualTo("migrated");
    assertThat(later.at("/runs/0/detail").asText()).isEqualTo("moved from version 1 to version 2: it waits in"
        + " 'Review the answer' (reviewAnswer)");
    assertThat(later.get("done").asBoolean()).isTrue();
    complete(run, ReactAgentProcess.REVIEW_ANSWER, "{\"decision\": \"regenerate\", \"regenerateReason\": \"again\"}");
    await().atMost(Runs.PATIENCE).until(() -> ("answer under " + V2).equals(runs.view(run).finalAnswer()));
  }

  // --- the runs ---

  /** A run of version 1 of the agent, waiting at {@code taskKey} (or for a follow-up when {@code null}). */
  private String waitingOnVersionOne(String key, Map<String, String> settings, String question, String taskKey) {
    TestAgent.deployVariant(engine, key, withPrompt(V1, settings));
    String run = runs.start(key, question);
    if (taskKey == null) {
      Runs.awaitView(runs, run, view -> view.waitingFor().contains(RunView.FOLLOW_UP));
    } else {
      api("reviewer").awaitTask(run, taskKey);
    }
    assertThat(runs.view(run).agentVersion()).isEqualTo(1);
    return run;
  }

  /** Deploys version 2 and moves the run to it, which the run's view, trace and forms then say. */
  private void moveToVersionTwo(String key, String run, Map<String, String> settings) {
    TestAgent.deployVariant(engine, key, withPrompt(V2, settings));
    int stepsBefore = runs.view(run).steps();
    JsonNode report = migrate(key, run, "refuse");
    assertThat(report.at("/runs/0/outcome").asText()).as(report.toString()).isEqualTo("migrated");
    RunView view = runs.view(run);
    assertThat(view.agentVersion()).isEqualTo(2);
    // the trace stays as it was, with the move as a decision on it
    assertThat(view.steps()).isEqualTo(stepsBefore);
    JsonNode decision = last(body(api("operator").get("/api/runs/" + run + "/trace"), 200).get("decisions"));
    assertThat(decision.get("decision").asText()).isEqualTo("migrate");
    assertThat(decision.get("author").asText()).isEqualTo("operator");
    assertThat(decision.get("reason").asText()).isEqualTo("the fixed prompt");
    assertThat(decision.get("fromVersion").asInt()).isEqualTo(1);
    assertThat(decision.get("toVersion").asInt()).isEqualTo(2);
    for (JsonNode task : body(api("reviewer").get("/api/runs/" + run + "/tasks"), 200)) {
      assertThat(task.at("/form/agentVersion").asText()).isEqualTo(key + ", version 2");
      assertThat(task.at("/form/lastChange").asText()).startsWith("operator moved the run from version 1 to"
          + " version 2 of its agent").endsWith("Reason: the fixed prompt");
    }
  }

  private JsonNode migrate(String key, String run, String whenBusy) {
    ObjectNode request = JSON.createObjectNode().put("toVersion", 2).put("reason", "the fixed prompt")
        .put("whenBusy", whenBusy);
    request.putArray("runs").add(run);
    return body(api("operator").post("/api/agents/" + key + "/migrations", request.toString()), 200);
  }

  private void complete(String run, String taskKey, String fields) {
    String task = api("reviewer").awaitTask(run, taskKey).get("id").asText();
    body(api("reviewer").post("/api/runs/" + run + "/tasks/" + task + "/complete", fields), 200);
  }

  /** The run answered under version 2's prompt, and every model call since the move was sent that prompt. */
  private void assertAnsweredUnderVersionTwo(String run) {
    RunView answered = Runs.awaitStatus(runs, run, dev.agentloop.api.RunStatus.ANSWERED);
    assertThat(answered.finalAnswer()).isEqualTo("answer under " + V2);
    assertThat(answered.agentVersion()).isEqualTo(2);
  }

  private String idleTimerDue(String run) {
    return engine.getManagementService().createJobQuery().processInstanceId(run).timers().singleResult()
        .getDuedate().toInstant().toString();
  }

  private ApiClient api(String user) {
    return ApiClient.as(port, user);
  }

  private static Map<String, String> withPrompt(String version, Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.CONVERSATION, "false"));
    all.putAll(settings);
    all.put(AgentSettings.SYSTEM_PROMPT, "You are the migration test agent, " + version + ".");
    return all;
  }

  private static JsonNode last(JsonNode array) {
    return array.get(array.size() - 1);
  }

  // --- the model ---

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(MigrationWaitsWireTest::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Plans in one step; then answers by the question's first word, saying which system prompt it was sent: asks a
   * person ({@code ask:}), calls a tool that needs approval ({@code approve:}), calls the calculator on and on under
   * version 1 ({@code stuck:}), or holds its first reply until the test lets it go ({@code busy:}).
   */
  private static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    if (messages.path(0).path("content").asText().startsWith("Write a short plan")) {
      return text("[\"Answer the question\"]");
    }
    String version = messages.path(0).path("content").asText().contains(V2) ? V2 : V1;
    String question = firstUserText(messages);
    boolean observed = StreamSupport.stream(messages.spliterator(), false)
        .anyMatch(message -> message.path("role").asText().equals("tool"));
    if (question.startsWith("ask:") && !observed) {
      return call("ask_human", "{\"questions\": [\"Which colour?\"]}");
    }
    if (question.startsWith("approve:") && !observed) {
      return call(TestTools.AUDITED, "{}");
    }
    if (question.startsWith("stuck:") && version.equals(V1)) {
      return call("calculator", "{\"expression\": \"" + messages.size() + " + 1\"}");
    }
    if (question.startsWith("busy:") && BUSY_ARRIVED.getCount() > 0) {
      BUSY_ARRIVED.countDown();
      hold(BUSY_RELEASED);
    }
    return text("answer under " + version);
  }

  private static Response text(String text) {
    return new Response(200, FakeOpenAiServer.textCompletion(text, 10, 5));
  }

  private static Response call(String tool, String arguments) {
    return new Response(200, FakeOpenAiServer.toolCallCompletion("call_" + tool, tool, arguments, 10, 5));
  }

  private static String firstUserText(JsonNode messages) {
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals("user")) {
        return message.path("content").asText();
      }
    }
    return "";
  }

  private static List<String> tools(JsonNode body) {
    List<String> names = new ArrayList<>();
    body.path("tools").forEach(tool -> names.add(tool.at("/function/name").asText()));
    return names;
  }

  private static void hold(CountDownLatch latch) {
    try {
      latch.await(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
