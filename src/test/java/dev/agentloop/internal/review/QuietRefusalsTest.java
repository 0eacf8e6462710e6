package dev.agentloop.internal.review;

import static dev.agentloop.ApiClient.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Refused submissions and lost races are expected: each is answered, and the log holds no ERROR and no
 * stack trace for them — through AgentLoop's API and through the engine REST API Tasklist uses.
 */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
class QuietRefusalsTest {

  private static final Pattern ERROR_LINE = Pattern.compile("\\bERROR\\b");

  @LocalServerPort int port;
  @Autowired RunService runs;

  @Test
  void should_log_no_error_for_a_round_of_refused_submissions_and_races(CapturedOutput output) throws Exception {
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    int before = output.length();

    // refused submissions: a decision the review does not know, foreign fields, two steps changed at once
    String run = waitingForAnswerReview(reviewer, "multi-step: refused quietly");
    String taskId = reviewer.awaitTask(run, ReactAgentProcess.REVIEW_ANSWER).get("id").asText();
    String complete = "/api/runs/" + run + "/tasks/" + taskId + "/complete";
    assertThat(reviewer.post(complete, "{\"decision\": \"maybe\"}").statusCode()).isEqualTo(400);
    assertProblem(reviewer.post(complete, "{\"decision\": \"accept\", \"route\": \"done\"}"), 400, "'route'");
    HttpResponse<String> foreign = reviewer.post("/engine-rest/task/" + taskId + "/submit-form",
        "{\"variables\": {\"decision\": {\"value\": \"accept\"}, \"question\": {\"value\": \"replaced\"}}}");
    assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(400);
    HttpResponse<String> twoSteps = reviewer.post("/engine-rest/task/" + taskId + "/submit-form",
        "{\"variables\": {\"decision\": {\"value\": \"edit\"}, \"editContent3\": {\"value\": \"changed\"},"
            + " \"editContent4\": {\"value\": \"changed too\"}}}");
    assertThat(twoSteps.statusCode()).as(twoSteps.body()).isEqualTo(400);

    // races: ten completions of one task at once, through each API
    for (int round = 0; round < 2; round++) {
      String raced = waitingForAnswerReview(reviewer, "multi-step: raced quietly " + round);
      String task = reviewer.awaitTask(raced, ReactAgentProcess.REVIEW_ANSWER).get("id").asText();
      List<HttpResponse<String>> answers = together(10, round == 0
          ? () -> reviewer.post("/api/runs/" + raced + "/tasks/" + task + "/complete", "{\"decision\": \"accept\"}")
          : () -> reviewer.post("/engine-rest/task/" + task + "/submit-form",
              "{\"variables\": {\"decision\": {\"value\": \"accept\"}}}"));
      assertThat(answers).filteredOn(answer -> answer.statusCode() / 100 == 2).hasSize(1);
      assertThat(answers).filteredOn(answer -> answer.statusCode() / 100 != 2)
          .allSatisfy(answer -> assertThat(answer.statusCode()).as(answer.body()).isIn(400, 404, 409));
      Runs.awaitStatus(runs, raced, RunStatus.ANSWERED);
    }

    // then
    String logged = output.toString().substring(before);
    assertThat(logged.lines().filter(line -> ERROR_LINE.matcher(line).find()).toList()).isEmpty();
    assertThat(logged).doesNotContain("ENGINE-16004").doesNotContain("scopeExecution").doesNotContain("\tat ");
  }

  private String waitingForAnswerReview(ApiClient client, String question) {
    JsonNode created = ApiClient.body(client.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \""
        + TestAgent.ANSWER_REVIEWED + "\"}"), 201);
    String run = created.get("id").asText();
    Runs.awaitView(runs, run, view -> view.waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER));
    return run;
  }

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
      List<HttpResponse<String>> answers = new ArrayList<>();
      for (Future<HttpResponse<String>> future : futures) {
        answers.add(future.get());
      }
      return answers;
    } finally {
      pool.shutdownNow();
    }
  }
}
