package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Follow-up questions, close and regenerating a turn over real HTTP: the answers, the turns of
 * {@code GET /api/runs/{id}}, and a clear problem for every request that does not fit.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConversationApiTest {

  private static final String AGENT = "api-conversation-agent";
  /** Like {@link #AGENT}, but a person reviews each answer. */
  private static final String REVIEWED_AGENT = "api-reviewed-conversation-agent";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @BeforeAll
  void deployConversationAgent() {
    if (engine.getIdentityService().createUserQuery().userId("outsider").count() == 0) {
      var outsider = engine.getIdentityService().newUser("outsider");
      outsider.setPassword("outsider");
      engine.getIdentityService().saveUser(outsider);
    }
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true"));
    TestAgent.deployVariant(engine, REVIEWED_AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.CONVERSATION, "true"));
  }

  @Test
  void should_take_a_follow_up_with_202_and_list_the_turns() {
    // given a conversation started by a reviewer, waiting for its next question
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = start(reviewer, "conv: over HTTP");
    JsonNode waiting = awaitTurns(reviewer, run, 1);
    assertThat(waiting.get("status").asText()).isEqualTo("WAITING");
    assertThat(waiting.get("waitingFor")).extracting(JsonNode::asText).containsExactly("follow-up");
    // and says since when, so that the time it waits counts on
    assertThat(waiting.at("/activeStep/activity").asText()).isEqualTo(ReactAgentProcess.AWAIT_FOLLOW_UP);
    assertThat(java.time.Instant.parse(waiting.at("/activeStep/since").asText()))
        .isAfterOrEqualTo(java.time.Instant.parse(waiting.get("createdAt").asText()));

    // when the reviewer who started it asks the next question
    JsonNode accepted = body(reviewer.post("/api/runs/" + run + "/messages", "{\"question\": \"conv: and next?\"}"), 202);

    // then the run takes it as its second turn
    assertThat(accepted.get("id").asText()).isEqualTo(run);
    JsonNode view = awaitTurns(reviewer, run, 2);
    JsonNode second = view.get("turns").get(1);
    assertThat(second.get("number").asInt()).isEqualTo(2);
    assertThat(second.get("question").asText()).isEqualTo("conv: and next?");
    assertThat(second.get("askedBy").asText()).isEqualTo("reviewer");
    assertThat(second.get("status").asText()).isEqualTo("ANSWERED");
    assertThat(second.get("answer").asText()).startsWith("first answer to 'conv: and next?'");
    assertThat(view.get("turns").get(0).get("askedBy").asText()).isEqualTo("reviewer");
    // and the run search finds the conversation by its follow-up question too
    JsonNode found = body(reviewer.get("/api/runs?agent=" + AGENT + "&q=AND%20NEXT"), 200);
    assertThat(found).extracting(match -> match.get("id").asText()).contains(run);
    // but not for a caller who may not read the run, nor in the count
    var hidden = ApiClient.as(port, "outsider").get("/api/runs?agent=" + AGENT + "&q=AND%20NEXT");
    assertThat(body(hidden, 200)).isEmpty();
    assertThat(hidden.headers().firstValue("X-Total-Count")).hasValue("0");
  }

  @Test
  void should_refuse_follow_ups_that_do_not_fit_and_write_nothing() {
    ApiClient operator = ApiClient.as(port, "operator");
    String run = start(operator, "conv: bad follow-ups");
    awaitTurns(operator, run, 1);
    int steps = body(operator.get("/api/runs/" + run), 200).get("steps").asInt();

    assertProblem(operator.post("/api/runs/" + run + "/messages", "{\"question\": \"" + "x".repeat(20_001) + "\"}"),
        400, "at most 20000 characters");
    assertProblem(operator.post("/api/runs/" + run + "/messages", "{\"question\": \"  \"}"), 400, "must not be blank");
    assertProblem(operator.post("/api/runs/" + run + "/regenerate", "{\"turn\": 2, \"replayLaterTurns\": true}"), 404,
        "has no turn 2: it has 1 turn");
    assertProblem(operator.post("/api/runs/no-such-run/messages", "{\"question\": \"conv: hello?\"}"), 404, "no-such-run");
    assertThat(body(operator.get("/api/runs/" + run), 200).get("steps").asInt()).isEqualTo(steps);

    // when the conversation is closed, it takes nothing more
    JsonNode closed = body(operator.post("/api/runs/" + run + "/close", "{\"reason\": \"done\"}"), 200);
    assertThat(closed.get("status").asText()).isEqualTo("ANSWERED");
    assertThat(closed.get("statusReason").asText()).isEqualTo("closed by operator: done");
    assertProblem(operator.post("/api/runs/" + run + "/messages", "{\"question\": \"conv: still there?\"}"), 409,
        "has ended (ANSWERED)");
    assertProblem(operator.post("/api/runs/" + run + "/close", "{}"), 409, "has ended");
  }

  @Test
  void should_refuse_a_follow_up_to_a_one_shot_run_waiting_for_its_answer_review() {
    ApiClient operator = ApiClient.as(port, "operator");
    String run = body(operator.post("/api/runs", "{\"question\": \"conv: one-shot\", \"agent\": \""
        + TestAgent.ANSWER_REVIEWED + "\"}"), 201).get("id").asText();
    operator.awaitTask(run, "reviewAnswer");

    assertProblem(operator.post("/api/runs/" + run + "/messages", "{\"question\": \"conv: next?\"}"), 409,
        "it waits for reviewAnswer");
  }

  @Test
  void should_start_a_run_under_a_conversation_id_and_find_it_by_that_id_alone() {
    ApiClient operator = ApiClient.as(port, "operator");
    String id = "crm-4711." + System.nanoTime();
    String started = "{\"question\": \"conv: by id\", \"agent\": \"" + AGENT + "\", \"conversationId\": \"" + id + "\"}";
    JsonNode run = body(operator.post("/api/runs", started), 201);
    assertThat(run.get("conversationId").asText()).isEqualTo(id);
    String runId = run.get("id").asText();
    awaitTurns(operator, runId, 1);

    // a second run under the id while the first is open is refused, naming the open run; nothing starts
    assertProblem(operator.post("/api/runs", started), 409, "is held by run " + runId + ", which is still open");
    // the id alone finds the run, whatever its agent; the count says so too
    var found = operator.get("/api/runs?conversationId=" + id);
    assertThat(body(found, 200)).extracting(match -> match.get("id").asText()).containsExactly(runId);
    assertThat(found.headers().firstValue("X-Total-Count")).hasValue("1");
    // and its run is the one to send the next question to
    body(operator.post("/api/runs/" + runId + "/messages", "{\"question\": \"conv: by id, next\"}"), 202);
    awaitTurns(operator, runId, 2);

    // once it is closed, the id may start a new conversation; the search lists both, newest first
    body(operator.post("/api/runs/" + runId + "/close", "{}"), 200);
    String second = body(operator.post("/api/runs", started), 201).get("id").asText();
    assertThat(body(operator.get("/api/runs?conversationId=" + id), 200)).extracting(match -> match.get("id").asText())
        .containsExactly(second, runId);
    assertThat(body(operator.get("/api/runs?conversationId=" + id + "&status=ANSWERED"), 200))
        .extracting(match -> match.get("id").asText()).containsExactly(runId);
    // a caller who may read none of them finds none, and counts none
    var hidden = ApiClient.as(port, "outsider").get("/api/runs?conversationId=" + id);
    assertThat(body(hidden, 200)).isEmpty();
    assertThat(hidden.headers().firstValue("X-Total-Count")).hasValue("0");
    // a run without an id has none
    assertThat(body(operator.get("/api/runs/" + start(operator, "conv: no id")), 200).get("conversationId").isNull())
        .isTrue();
  }

  @Test
  void should_start_one_run_when_two_clients_start_under_one_conversation_id_at_once() throws Exception {
    ApiClient operator = ApiClient.as(port, "operator");
    ExecutorService clients = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 12; round++) {
        // given two clients that send the same start the moment both are ready
        String id = "twice-" + round + "." + System.nanoTime();
        String started = "{\"question\": \"conv: twice\", \"agent\": \"" + AGENT + "\", \"conversationId\": \""
            + id + "\"}";
        CyclicBarrier ready = new CyclicBarrier(2);
        Callable<HttpResponse<String>> start = () -> {
          ready.await(10, TimeUnit.SECONDS);
          return operator.post("/api/runs", started);
        };

        // when both start
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (Future<HttpResponse<String>> answer : clients.invokeAll(List.of(start, start))) {
          answers.add(answer.get());
        }

        // then one run started, the other start was refused naming it, and the id finds that run alone
        assertThat(answers).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(201, 409);
        String winner = body(answers.stream().filter(answer -> answer.statusCode() == 201).findFirst().orElseThrow(),
            201).get("id").asText();
        assertProblem(answers.stream().filter(answer -> answer.statusCode() == 409).findFirst().orElseThrow(), 409,
            "is held by run " + winner + ", which is still open");
        assertThat(body(operator.get("/api/runs?conversationId=" + id), 200)).extracting(match -> match.get("id").asText())
            .containsExactly(winner);
        // a conversation is closed once it waits for its next question, not while its first turn is worked on
        awaitTurns(operator, winner, 1);
        body(operator.post("/api/runs/" + winner + "/close", "{}"), 200);
      }
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  void should_refuse_a_conversation_id_it_cannot_keep() {
    ApiClient operator = ApiClient.as(port, "operator");
    assertProblem(operator.post("/api/runs", "{\"question\": \"conv: bad id\", \"conversationId\": \"crm 4711\"}"),
        400, "conversationId must be 1 to 100 letters, digits or . _ : @ - characters");
    assertProblem(operator.post("/api/runs", "{\"question\": \"conv: bad id\", \"conversationId\": \""
        + "c".repeat(101) + "\"}"), 400, "conversationId must be 1 to 100");
    assertProblem(operator.post("/api/runs", "{\"question\": \"conv: bad id\", \"conversationId\": \"\"}"),
        400, "conversationId must be 1 to 100");
    assertProblem(operator.get("/api/runs?conversationId=a%2Fb"), 400, "conversationId");
    assertThat(body(operator.get("/api/runs?agent=" + AGENT + "&q=bad%20id"), 200)).isEmpty();
  }

  @Test
  void should_redo_an_earlier_turn_when_completing_the_answer_review_and_refuse_a_turn_that_does_not_fit() {
    // given a reviewed conversation whose second answer waits for review
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = body(reviewer.post("/api/runs", "{\"question\": \"conv: redo over HTTP\", \"agent\": \""
        + REVIEWED_AGENT + "\"}"), 201).get("id").asText();
    String first = reviewer.awaitTask(run, "reviewAnswer").get("id").asText();
    body(reviewer.post("/api/runs/" + run + "/tasks/" + first + "/complete",
        "{\"decision\": \"follow_up\", \"followUpQuestion\": \"conv: redo 2?\"}"), 200);
    JsonNode second = await().atMost(Runs.PATIENCE).until(() -> reviewer.awaitTask(run, "reviewAnswer"),
        task -> !task.get("id").asText().equals(first));
    String complete = "/api/runs/" + run + "/tasks/" + second.get("id").asText() + "/complete";
    // the task lists the turns it may redo
    assertThat(second.get("form").get("regenerateTurnOptions").toString()).isEqualTo("[{\"label\":\"This answer (turn"
        + " 2)\",\"value\":\"2\"},{\"label\":\"Turn 1: conv: redo over HTTP\",\"value\":\"1\"}]");
    int version = body(reviewer.get("/api/runs/" + run), 200).get("version").asInt();

    // when a turn does not fit, then 400 saying why, and nothing changed
    assertProblem(reviewer.post(complete, "{\"decision\": \"regenerate\", \"regenerateTurn\": 3}"), 400,
        "this run has no turn 3: its turns are numbered 1 to 2");
    assertProblem(reviewer.post(complete, "{\"decision\": \"regenerate\", \"regenerateTurn\": \"first\"}"), 400,
        "regenerateTurn is the number of the turn to answer again, 1 to 2 (2 is this answer), not 'first'");
    assertProblem(reviewer.post(complete, "{\"decision\": \"regenerate\", \"regenerateTurn\": 2,"
        + " \"replayLaterTurns\": true}"), 400, "turn 2 is the answer under review");
    assertProblem(reviewer.post(complete, "{\"decision\": \"regenerate\", \"regenerateTurn\": 1,"
        + " \"replayLaterTurns\": \"maybe\"}"), 400, "replayLaterTurns is true or false, not 'maybe'");
    assertThat(body(reviewer.get("/api/runs/" + run), 200).get("version").asInt()).isEqualTo(version);

    // when turn 1 is redone with its later question asked again
    JsonNode redone = body(reviewer.post(complete, "{\"decision\": \"regenerate\", \"regenerateTurn\": 1,"
        + " \"replayLaterTurns\": true, \"regenerateReason\": \"redo the first turn\"}"), 200);

    // then the run works on turn 1 again; once its new answer is accepted, turn 2 is asked again
    assertThat(redone.get("turns")).hasSize(1);
    JsonNode third = await().atMost(Runs.PATIENCE).until(() -> reviewer.awaitTask(run, "reviewAnswer"),
        task -> !task.get("id").asText().equals(second.get("id").asText()));
    assertThat(third.get("form").get("answer").asText()).startsWith("second answer to 'conv: redo over HTTP'");
    body(reviewer.post("/api/runs/" + run + "/tasks/" + third.get("id").asText() + "/complete",
        "{\"decision\": \"accept\"}"), 200);
    JsonNode fourth = await().atMost(Runs.PATIENCE).until(() -> reviewer.awaitTask(run, "reviewAnswer"),
        task -> !task.get("id").asText().equals(third.get("id").asText()));
    assertThat(fourth.get("form").get("answer").asText()).startsWith("first answer to 'conv: redo 2?' after 'second"
        + " answer");
    assertThat(body(reviewer.get("/api/runs/" + run), 200).get("turns")).extracting(turn -> turn.get("question")
        .asText()).containsExactly("conv: redo over HTTP", "conv: redo 2?");
  }

  @Test
  void should_refuse_to_ask_later_questions_again_when_completing_a_one_shot_review() {
    ApiClient operator = ApiClient.as(port, "operator");
    String run = body(operator.post("/api/runs", "{\"question\": \"conv: one-shot redo\", \"agent\": \""
        + TestAgent.ANSWER_REVIEWED + "\"}"), 201).get("id").asText();
    String task = operator.awaitTask(run, "reviewAnswer").get("id").asText();

    assertProblem(operator.post("/api/runs/" + run + "/tasks/" + task + "/complete",
        "{\"decision\": \"regenerate\", \"replayLaterTurns\": false}"), 400,
        "this agent answers one question per run (conversation=false)");
    assertThat(operator.awaitTask(run, "reviewAnswer").get("id").asText()).isEqualTo(task);
  }

  @Test
  void should_answer_a_user_who_may_not_start_the_agent_alike_for_a_held_and_a_free_conversation_id() {
    // given a conversation id an open run holds, and one nobody holds
    ApiClient operator = ApiClient.as(port, "operator");
    String held = "crm-held." + System.nanoTime();
    awaitTurns(operator, body(operator.post("/api/runs", "{\"question\": \"conv: held\", \"agent\": \"" + AGENT
        + "\", \"conversationId\": \"" + held + "\"}"), 201).get("id").asText(), 1);
    String free = "crm-free." + System.nanoTime();
    ApiClient outsider = ApiClient.as(port, "outsider");

    // when a user who may not start the agent starts a run under each
    HttpResponse<String> onHeld = outsider.post("/api/runs", "{\"question\": \"conv: mine?\", \"agent\": \"" + AGENT
        + "\", \"conversationId\": \"" + held + "\"}");
    HttpResponse<String> onFree = outsider.post("/api/runs", "{\"question\": \"conv: mine?\", \"agent\": \"" + AGENT
        + "\", \"conversationId\": \"" + free + "\"}");

    // then both answers are the same refusal: nothing tells which customers have open conversations
    JsonNode refusedHeld = body(onHeld, 403);
    JsonNode refusedFree = body(onFree, 403);
    assertThat(refusedHeld.get("detail")).isEqualTo(refusedFree.get("detail"));
    assertThat(refusedHeld.get("detail").asText()).contains("outsider").doesNotContain(held);
    assertThat(body(operator.get("/api/runs?conversationId=" + free), 200)).isEmpty();
  }

  private String start(ApiClient client, String question) {
    return body(client.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + AGENT + "\"}"), 201)
        .get("id").asText();
  }

  private JsonNode awaitTurns(ApiClient client, String run, int turns) {
    return await().atMost(Runs.PATIENCE).until(() -> body(client.get("/api/runs/" + run), 200),
        view -> view.get("turns").size() == turns && view.get("waitingFor").toString().contains("follow-up"));
  }
}
