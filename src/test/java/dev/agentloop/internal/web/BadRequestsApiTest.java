package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Requests that break the rules, arrive at the same moment or carry more than Camunda's columns hold:
 * each gets a problem document that says what happened, none a 500, and none changes a run half-way.
 */
@AgentLoopTest
class BadRequestsApiTest {

  /** A Camunda string variable holds at most this many characters (column TEXT_ VARCHAR(4000)). */
  private static final int CAMUNDA_STRING_CHARS = 4000;

  @LocalServerPort int port;
  @Autowired RunService runs;
  @Autowired ProcessEngine engine;

  @Test
  void should_keep_a_question_longer_than_a_camunda_string_whole() {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String question = "multi-step: " + "x".repeat(20_000 - "multi-step: ".length());

    // when
    JsonNode created = body(operator.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \""
        + TestAgent.KEY + "\"}"), 201);

    // then
    String run = created.get("id").asText();
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(body(operator.get("/api/runs/" + run), 200).get("question").asText()).isEqualTo(question);
  }

  @Test
  void should_keep_a_review_field_longer_than_a_camunda_string_whole() {
    // given
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = waitingForAnswerReview(reviewer, "multi-step: long feedback");
    String feedback = "Consider this. ".repeat(400);
    assertThat(feedback.length()).isGreaterThan(CAMUNDA_STRING_CHARS);

    // when
    body(reviewer.post(completePath(reviewer, run), "{\"decision\": \"feedback\", \"feedback\": \"" + feedback + "\"}"), 200);

    // then
    await().atMost(Runs.PATIENCE).until(() -> runs.trace(run, false).stream()
        .anyMatch(step -> step.json().path("text").asText().equals(feedback.strip())));
  }

  @Test
  void should_refuse_fields_that_are_not_the_tasks_own_and_write_nothing() {
    // given
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = waitingForAnswerReview(reviewer, "multi-step: foreign fields");
    String complete = completePath(reviewer, run);
    String taskId = complete.replaceAll(".*/tasks/([^/]+)/complete", "$1");

    // when through AgentLoop's API
    assertProblem(reviewer.post(complete, "{\"decision\": \"accept\", \"route\": \"done\", \"resumeAt\": \"act\"}"),
        400, "'resumeAt', 'route'");

    // and through Camunda's REST API, as a Tasklist-like client would
    HttpResponse<String> submitted = reviewer.post("/engine-rest/task/" + taskId + "/submit-form",
        "{\"variables\": {\"decision\": {\"value\": \"accept\"}, \"question\": {\"value\": \"replaced\"}}}");

    // then
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(400);
    assertThat(submitted.body()).contains("'question'");
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.ROUTE.name())).isNotEqualTo("done");
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.RESUME_AT.name())).isNull();
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.QUESTION.name()))
        .isEqualTo("multi-step: foreign fields");
    assertThat(engine.getTaskService().createTaskQuery().taskId(taskId).count()).isEqualTo(1);
  }

  @Test
  void should_answer_a_refused_review_on_camundas_submit_form_with_the_sentence_for_the_person() throws IOException {
    // given
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = waitingForAnswerReview(reviewer, "multi-step: refused in plain words");
    String taskId = completePath(reviewer, run).replaceAll(".*/tasks/([^/]+)/complete", "$1");

    // when two pre-filled steps were changed at once, through Camunda's REST API as Tasklist submits
    HttpResponse<String> submitted = reviewer.post("/engine-rest/task/" + taskId + "/submit-form",
        "{\"variables\": {\"decision\": {\"value\": \"edit\"}, \"editContent3\": {\"value\": \"changed\"},"
            + " \"editContent4\": {\"value\": \"changed too\"}}}");

    // then the review's own sentence, no engine wording, and the task stays open
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(400);
    assertThat(new ObjectMapper().readTree(submitted.body()).get("message").asText())
        .matches("you changed steps #\\d+ and #\\d+; edit one step at a time and leave the others as they were");
    assertThat(submitted.body()).doesNotContain("ENGINE-", "Cannot submit", "TaskListener");
    assertThat(engine.getTaskService().createTaskQuery().taskId(taskId).count()).isEqualTo(1);
  }

  @Test
  void should_complete_a_review_task_once_when_ten_completes_arrive_together() throws Exception {
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    for (int round = 0; round < 3; round++) {
      // given
      String run = waitingForAnswerReview(reviewer, "multi-step: ten completes " + round);
      String complete = completePath(reviewer, run);

      // when
      List<HttpResponse<String>> responses = together(10, () -> reviewer.post(complete, "{\"decision\": \"accept\"}"));

      // then
      assertThat(responses).filteredOn(response -> response.statusCode() == 200).hasSize(1);
      assertThat(responses).filteredOn(response -> response.statusCode() != 200).allSatisfy(response -> {
        assertThat(response.statusCode()).as(response.body()).isIn(404, 409);
        assertProblem(response, response.statusCode(), response.statusCode() == 404 ? "no open task" : "already");
      });
      Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    }
  }

  @Test
  void should_apply_exactly_one_of_twenty_edits_based_on_the_same_version() throws Exception {
    ApiClient operator = ApiClient.as(port, "operator");
    for (int round = 0; round < 3; round++) {
      // given
      String run = waitingForAnswerReview(operator, "multi-step: twenty edits " + round);
      int version = body(operator.get("/api/runs/" + run), 200).get("version").asInt();

      // when
      List<HttpResponse<String>> responses = together(20, () -> operator.post("/api/runs/" + run + "/steps/4/edit",
          "{\"content\": {\"result\": \"391\"}, \"reason\": \"race\", \"baseVersion\": " + version + "}"));

      // then
      assertThat(responses).filteredOn(response -> response.statusCode() == 200).hasSize(1);
      assertThat(responses).filteredOn(response -> response.statusCode() != 200)
          .allSatisfy(response -> assertProblem(response, 409, run));
    }
  }

  @Test
  void should_answer_errors_before_any_controller_as_problems() throws Exception {
    ApiClient operator = ApiClient.as(port, "operator");
    HttpResponse<String> unsupported = operator.send("/api/runs", "POST", "text/plain", "What is 2 + 2?");

    assertProblem(unsupported, 415, "application/json");
    // a path under AgentLoop's resources that it does not have (the rest of /api may be the application's)
    assertProblem(operator.get("/api/runs/some-run/nothing-here"), 404, "AgentLoop's API has nothing at"
        + " /api/runs/some-run/nothing-here; its resources are /api/runs, /api/agents, /api/evaluations,"
        + " /api/breakers and /api/openapi.json");
    assertProblem(operator.put("/api/runs", "{}"), 405, "PUT");
    String malformed = rawGet("/api/runs/%zz");
    assertThat(malformed).startsWith("HTTP/1.1 400").contains("application/problem+json").contains("\"status\":400");
    // an encoded slash, which Tomcat refuses before decoding the path
    for (String slash : List.of("/api/runs%2f", "/api/runs%2Fsome-run", "/api/runs%5csome-run")) {
      assertThat(rawGet(slash)).as(slash).startsWith("HTTP/1.1 400").contains("application/problem+json")
          .contains("\"status\":400").doesNotContain("<html");
    }
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void should_log_an_expected_conflict_as_one_line_without_a_stack_trace(CapturedOutput output) {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String run = waitingForAnswerReview(operator, "multi-step: a quiet conflict");
    int version = body(operator.get("/api/runs/" + run), 200).get("version").asInt();
    int before = output.length();

    // when
    assertProblem(operator.post("/api/runs/" + run + "/steps/4/edit",
        "{\"content\": {\"result\": \"1\"}, \"reason\": \"old\", \"baseVersion\": " + (version - 1) + "}"), 409, "moved on");

    // then
    String logged = output.toString().substring(before);
    assertThat(logged).doesNotContain("ENGINE-16004").doesNotContain("\tat ");
    assertThat(logged.lines().filter(line -> line.contains(run) && line.contains("moved on"))).hasSize(1);
  }

  private String waitingForAnswerReview(ApiClient client, String question) {
    String run = body(client.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \""
        + TestAgent.ANSWER_REVIEWED + "\"}"), 201).get("id").asText();
    Runs.awaitView(runs, run, view -> view.waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER));
    return run;
  }

  private static String completePath(ApiClient client, String run) {
    JsonNode task = client.awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    return "/api/runs/" + run + "/tasks/" + task.get("id").asText() + "/complete";
  }

  /** The same request from {@code count} threads released at one moment. */
  private static List<HttpResponse<String>> together(int count, Callable<HttpResponse<String>> request)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(count);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<HttpResponse<String>>> futures = IntStream.range(0, count).mapToObj(i -> pool.submit(() -> {
        start.await();
        return request.call();
      })).toList();
      start.countDown();
      List<HttpResponse<String>> responses = new ArrayList<>();
      for (Future<HttpResponse<String>> future : futures) {
        responses.add(future.get());
      }
      return responses;
    } finally {
      pool.shutdownNow();
    }
  }

  /** A request line Java's HTTP client refuses to send: Tomcat rejects it before any servlet sees it. */
  private String rawGet(String path) throws IOException {
    try (Socket socket = new Socket("localhost", port)) {
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
