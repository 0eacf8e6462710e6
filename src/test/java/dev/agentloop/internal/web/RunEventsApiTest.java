package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.JSON;
import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.SseClient;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code GET /api/runs/{id}/events} read by a real SSE client (the JDK's HttpClient, line by line) through a plan
 * review, an edit of a step and the answer's review, with a reconnect that resumes from the last event received.
 */
@AgentLoopTest
class RunEventsApiTest {

  /** A Camunda user in no group: no right on any agent. */
  private static final String OUTSIDER = "outsider";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @Test
  void should_stream_a_run_through_its_review_and_an_edit_and_resume_after_a_reconnect() {
    // given a run whose plan and answer are reviewed, followed from its start
    ApiClient operator = ApiClient.as(port, "operator");
    String run = start(operator, TestAgent.REVIEWED, "multi-step: followed live");
    String lastId;
    try (SseClient stream = SseClient.open(port, events(run), "operator", null)) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.contentType()).startsWith("text/event-stream");

      // then it first tells the plan and the wait for its review, naming the task
      List<SseClient.Event> toPlanReview = withoutText(stream.until(named("waiting"), Runs.PATIENCE));
      assertThat(names(toPlanReview)).containsExactly("step", "waiting");
      assertThat(data(toPlanReview.get(0)).get("kind").asText()).isEqualTo("PLAN");
      assertThat(toPlanReview.get(0).id()).isEqualTo("1-N");
      JsonNode waiting = data(toPlanReview.get(1));
      assertThat(waiting.get("waitingFor")).extracting(JsonNode::asText).containsExactly(ReactAgentProcess.REVIEW_PLAN);
      String planTask = waiting.get("tasks").get(0).get("taskId").asText();
      assertThat(waiting.get("tasks").get(0).get("key").asText()).isEqualTo(ReactAgentProcess.REVIEW_PLAN);

      // when the plan is accepted through the task it named
      body(operator.post("/api/runs/" + run + "/tasks/" + planTask + "/complete", "{\"decision\": \"accept\"}"), 200);

      // then the run resumes, works step by step, answers and waits for the answer's review
      List<SseClient.Event> toAnswer = withoutText(stream.until(named("waiting"), Runs.PATIENCE));
      assertThat(names(toAnswer)).containsExactly("resumed", "step", "step", "step", "step", "step", "step", "step",
          "answer", "waiting");
      assertThat(toAnswer.subList(1, 8)).extracting(event -> data(event).get("id").asInt())
          .containsExactly(2, 3, 4, 5, 6, 7, 8);
      assertThat(data(toAnswer.get(8)).get("text").asText()).isEqualTo("757");
      assertThat(data(toAnswer.get(9)).get("waitingFor")).extracting(JsonNode::asText)
          .containsExactly(ReactAgentProcess.REVIEW_ANSWER);

      // when an operator edits the first observation
      int version = body(operator.get("/api/runs/" + run), 200).get("version").asInt();
      body(operator.post("/api/runs/" + run + "/steps/4/edit",
          "{\"content\": {\"result\": \"391\"}, \"reason\": \"checked\", \"baseVersion\": " + version + "}"), 200);

      // then the stream shows the new branch (the edited step supersedes step 4; the review it cancelled is over),
      // and the run answers again
      List<SseClient.Event> afterEdit = withoutText(stream.until(named("waiting"), Runs.PATIENCE));
      // ("resumed" first: the edit that ended the wait wrote the new step)
      assertThat(names(afterEdit)).startsWith("resumed", "step").endsWith("answer", "waiting");
      JsonNode edited = data(afterEdit.get(1));
      assertThat(edited.get("id").asInt()).isEqualTo(9);
      assertThat(edited.get("supersedes").asInt()).isEqualTo(4);
      assertThat(edited.get("author").asText()).isEqualTo("operator");
      lastId = afterEdit.get(afterEdit.size() - 1).id();
    }

    // when the client is away while the answer is accepted, and comes back with the last id it received
    JsonNode answerTask = operator.awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    body(operator.post("/api/runs/" + run + "/tasks/" + answerTask.get("id").asText() + "/complete",
        "{\"decision\": \"accept\"}"), 200);
    try (SseClient resumed = SseClient.open(port, events(run), "operator", lastId)) {
      // then it gets only what it missed: the end, and the stream closes
      SseClient.Event ended = resumed.next(Runs.PATIENCE);
      assertThat(ended.name()).isEqualTo("ended");
      assertThat(data(ended).get("status").asText()).isEqualTo("ANSWERED");
      assertThat(data(ended).get("endedBy").asText()).isEqualTo("operator");
      assertThat(data(ended).get("answer").asText()).isEqualTo("757");
      org.awaitility.Awaitility.await().atMost(Runs.PATIENCE).until(resumed::ended);
    }

    // and a client that starts afresh gets the whole run, each step once, superseded ones too
    try (SseClient replay = SseClient.open(port, events(run), "reviewer", null)) {
      List<SseClient.Event> all = withoutText(replay.until(named("ended"), Runs.PATIENCE));
      List<Integer> steps = all.stream().filter(named("step")).map(event -> data(event).get("id").asInt()).toList();
      assertThat(steps).isSorted().doesNotHaveDuplicates().startsWith(1, 2, 3, 4, 5);
      assertThat(all.stream().filter(named("step")).map(event -> data(event).get("status").asText()))
          .contains("SUPERSEDED", "ACTIVE");
    }
  }

  @Test
  void should_refuse_whoever_may_not_read_the_run_and_ids_it_never_sent() {
    // given
    if (engine.getIdentityService().createUserQuery().userId(OUTSIDER).count() == 0) {
      User outsider = engine.getIdentityService().newUser(OUTSIDER);
      outsider.setPassword(OUTSIDER);
      engine.getIdentityService().saveUser(outsider);
    }
    ApiClient operator = ApiClient.as(port, "operator");
    String run = start(operator, TestAgent.REVIEWED, "multi-step: not for everyone");
    operator.awaitTask(run, ReactAgentProcess.REVIEW_PLAN);

    // then: no credentials, a user who may not read the run, an unknown run, ids it never sent
    assertThat(SseClient.open(port, events(run), null, null).status()).isEqualTo(401);
    assertProblemStream(SseClient.open(port, events(run), OUTSIDER, null), 404, run);
    assertProblemStream(SseClient.open(port, events("no-such-run"), "operator", null), 404, "no-such-run");
    assertProblemStream(SseClient.open(port, events(run), "operator", "yesterday"), 400, "Last-Event-ID");
    assertProblemStream(SseClient.open(port, events(run), "operator", "99-R"), 400, "step 99");
    assertProblemStream(SseClient.open(port, events(run), "operator", "1-Wnothex!"), 400, "Last-Event-ID");
  }

  private static void assertProblemStream(SseClient stream, int status, String detail) {
    try (stream) {
      assertThat(stream.status()).isEqualTo(status);
      assertThat(stream.contentType()).startsWith("application/problem+json");
      JsonNode problem = JSON.readTree(stream.body());
      assertThat(problem.get("detail").asText()).contains(detail);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String events(String run) {
    return "/api/runs/" + run + "/events";
  }

  private static String start(ApiClient client, String agent, String question) {
    return body(client.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + agent + "\"}"), 201)
        .get("id").asText();
  }

  private static java.util.function.Predicate<SseClient.Event> named(String name) {
    return event -> event.name().equals(name);
  }

  /** The events but the model's text, which the scripted model sends as it answers (its timing is the model's). */
  private static List<SseClient.Event> withoutText(List<SseClient.Event> events) {
    return events.stream().filter(event -> !event.name().startsWith("text")).toList();
  }

  private static List<String> names(List<SseClient.Event> events) {
    return events.stream().map(SseClient.Event::name).toList();
  }

  private static JsonNode data(SseClient.Event event) {
    try {
      return JSON.readTree(event.data());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
