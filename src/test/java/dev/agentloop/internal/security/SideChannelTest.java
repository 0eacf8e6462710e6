package dev.agentloop.internal.security;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import java.net.http.HttpResponse;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What a user without rights on a run learns of it through the run endpoints: nothing. Not that it
 * exists (its id answers as an unknown id does), not how many runs match a piece of its question
 * (the total counts only runs the caller may read), not a digit of it.
 */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
class SideChannelTest {

  private static final String SECRET = "123456";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @BeforeEach
  void an_outsider_without_groups() {
    if (engine.getIdentityService().createUserQuery().userId("outsider").count() == 0) {
      User outsider = engine.getIdentityService().newUser("outsider");
      outsider.setPassword("outsider");
      engine.getIdentityService().saveUser(outsider);
    }
  }

  @Test
  void should_count_only_the_runs_the_caller_may_read(CapturedOutput output) {
    // given a reviewer's run whose question holds a secret, waiting on its plan review
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    ApiClient outsider = ApiClient.as(port, "outsider");
    String run = body(reviewer.post("/api/runs", "{\"question\": \"review-plan: the PIN is " + SECRET
        + "\", \"agent\": \"" + TestAgent.REVIEWED + "\"}"), 201).get("id").asText();
    reviewer.awaitTask(run, "reviewPlan");
    int before = output.length();

    // when the outsider guesses the secret digit by digit, and tries a wrong guess
    HttpResponse<String> right = outsider.get("/api/runs?agent=" + TestAgent.REVIEWED + "&q=PIN+is+1");
    HttpResponse<String> whole = outsider.get("/api/runs?agent=" + TestAgent.REVIEWED + "&q=" + SECRET);
    HttpResponse<String> wrong = outsider.get("/api/runs?agent=" + TestAgent.REVIEWED + "&q=PIN+is+9");

    // then every answer is the same: an empty page counting no run
    for (HttpResponse<String> answer : List.of(right, whole, wrong)) {
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("[]");
      assertThat(answer.headers().firstValue("X-Total-Count")).hasValue("0");
    }
    // while the reviewer, who may read it, finds it and counts it
    HttpResponse<String> own = reviewer.get("/api/runs?agent=" + TestAgent.REVIEWED + "&q=" + SECRET);
    assertThat(own.headers().firstValue("X-Total-Count")).hasValue("1");
    assertThat(body(own, 200).get(0).get("id").asText()).isEqualTo(run);
    assertThat(output.toString().substring(before)).doesNotContain(" ERROR ").doesNotContain(SECRET);
  }

  @Test
  void should_answer_for_a_run_the_caller_may_not_read_as_for_one_that_does_not_exist(CapturedOutput output) {
    // given
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    ApiClient outsider = ApiClient.as(port, "outsider");
    String run = body(reviewer.post("/api/runs", "{\"question\": \"review-plan: not yours " + SECRET
        + "\", \"agent\": \"" + TestAgent.REVIEWED + "\"}"), 201).get("id").asText();
    String task = reviewer.awaitTask(run, "reviewPlan").get("id").asText();
    String unknown = "00000000-0000-0000-0000-" + run.substring(run.length() - 12).replaceAll("[0-9a-f]", "0");
    int before = output.length();

    // when / then: every run endpoint answers the same for the run and for an id nobody has
    for (String path : List.of("", "/trace", "/trace?branches=all", "/tasks", "/steps/1/prompt", "/actions")) {
      assertSameAsUnknown(outsider.get("/api/runs/" + run + path), outsider.get("/api/runs/" + unknown + path),
          run, unknown);
    }
    assertSameAsUnknown(outsider.post("/api/runs/" + run + "/tasks/" + task + "/complete", "{\"decision\": \"accept\"}"),
        outsider.post("/api/runs/" + unknown + "/tasks/" + task + "/complete", "{\"decision\": \"accept\"}"),
        run, unknown);
    assertSameAsUnknown(outsider.post("/api/runs/" + run + "/stop", "{\"reason\": \"mine now\"}"),
        outsider.post("/api/runs/" + unknown + "/stop", "{\"reason\": \"mine now\"}"), run, unknown);
    assertSameAsUnknown(outsider.post("/api/runs/" + run + "/steps/1/edit", "{\"content\": {\"text\": \"x\"}, \"reason\": \"r\", \"baseVersion\": 1}"),
        outsider.post("/api/runs/" + unknown + "/steps/1/edit", "{\"content\": {\"text\": \"x\"}, \"reason\": \"r\", \"baseVersion\": 1}"), run, unknown);
    assertSameAsUnknown(outsider.delete("/api/runs/" + run + "/trace?reason=gone"),
        outsider.delete("/api/runs/" + unknown + "/trace?reason=gone"), run, unknown);

    // and nothing changed, nothing was logged as an error
    assertThat(engine.getTaskService().createTaskQuery().taskId(task).count()).isEqualTo(1);
    await().atMost(Runs.PATIENCE).until(() -> reviewer.get("/api/runs/" + run).statusCode() == 200);
    assertThat(output.toString().substring(before)).doesNotContain(" ERROR ").doesNotContain(SECRET);
  }

  /** Status, headers that matter and body alike, but for the id itself. */
  private static void assertSameAsUnknown(HttpResponse<String> mine, HttpResponse<String> none, String run,
      String unknown) {
    assertThat(mine.statusCode()).as(mine.body()).isEqualTo(none.statusCode()).isEqualTo(404);
    assertThat(mine.headers().firstValue("Content-Type")).isEqualTo(none.headers().firstValue("Content-Type"));
    assertThat(mine.body().replace(run, "ID")).isEqualTo(none.body().replace(unknown, "ID"));
    assertThat(mine.body()).doesNotContain(SECRET);
  }
}
