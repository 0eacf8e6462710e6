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
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Edit, regenerate, stop and restart over real HTTP: the responses, the branches in the trace,
 * who may call them, and a clear problem for every request that does not fit.
 */
@AgentLoopTest
class ResumeApiTest {

  @LocalServerPort int port;
  @Autowired RunService runs;
  @Autowired ProcessEngine engine;

  @Test
  void should_edit_a_step_and_show_the_old_branch_beside_the_new_path() {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String run = startWaitingForAnswerReview(operator, "multi-step: over HTTP");
    int version = body(operator.get("/api/runs/" + run), 200).get("version").asInt();

    // when
    JsonNode result = body(operator.post("/api/runs/" + run + "/steps/4/edit",
        "{\"content\": {\"result\": \"391\"}, \"reason\": \"checked by hand\", \"baseVersion\": " + version + "}"), 200);

    // then
    assertThat(result.get("continuesAt").asText()).isEqualTo("think");
    assertThat(result.get("editedStep").asInt()).isEqualTo(4);
    assertThat(result.get("newStep").asInt()).isEqualTo(9);
    assertThat(result.get("version").asInt()).isGreaterThan(version);
    assertThat(result.get("sideEffects")).isEmpty();
    awaitAnswers(operator, run, 2);
    JsonNode all = body(operator.get("/api/runs/" + run + "/trace?branches=all"), 200).get("steps");
    JsonNode active = body(operator.get("/api/runs/" + run + "/trace"), 200).get("steps");
    assertThat(all.size()).isEqualTo(active.size() + 5);
    JsonNode edited = all.get(8);
    assertThat(edited.get("supersedes").asInt()).isEqualTo(4);
    assertThat(edited.get("author").asText()).isEqualTo("operator");
    assertThat(edited.get("reason").asText()).isEqualTo("checked by hand");
    assertThat(edited.get("createdAt").asText()).endsWith("Z");
    assertThat(all.get(3).get("status").asText()).isEqualTo("SUPERSEDED");
  }

  @Test
  void should_answer_each_request_that_does_not_fit_with_a_problem_and_change_nothing() {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String run = startWaitingForAnswerReview(operator, "multi-step: bad requests");
    int version = body(operator.get("/api/runs/" + run), 200).get("version").asInt();
    String edit = "/api/runs/" + run + "/steps/";

    // then
    assertProblem(operator.post("/api/runs/nope/steps/1/edit", editBody("{\"text\": \"x\"}", version)), 404, "nope");
    assertProblem(operator.post(edit + "99/edit", editBody("{\"text\": \"x\"}", version)), 404, "no step 99");
    assertProblem(operator.post(edit + "3/edit", editBody("{\"arguments\": {\"expression\": true}}", version)),
        400, "do not match its schema");
    assertProblem(operator.post(edit + "2/edit", editBody("{\"text\": \"x\"}", version - 1)), 409, "moved on");
    assertProblem(operator.post(edit + "2/edit", "{\"content\": {\"text\": \"x\"}, \"reason\": \"r\"}"), 400,
        "baseVersion");
    assertProblem(operator.post(edit + "2/edit", "{\"content\": {\"text\": \"x\"}, \"baseVersion\": 1}"), 400,
        "reason");
    assertProblem(operator.post(edit + "2/edit", "not json"), 400, "JSON");
    assertProblem(operator.post("/api/runs/" + run + "/restart", "{\"fromStep\": 2, \"reason\": \"r\"}"), 409,
        "edit one of its steps instead");
    assertThat(body(operator.get("/api/runs/" + run), 200).get("version").asInt()).isEqualTo(version);

    // and after an edit the old step is superseded
    body(operator.post(edit + "2/edit", editBody("{\"text\": \"Think again.\"}", version)), 200);
    int now = body(operator.get("/api/runs/" + run), 200).get("version").asInt();
    assertProblem(operator.post(edit + "2/edit", editBody("{\"text\": \"x\"}", now)), 409, "superseded branch");
  }

  @Test
  void should_point_to_restart_for_a_finished_run_and_restart_it() {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String run = body(operator.post("/api/runs", "{\"question\": \"multi-step: finished\", \"agent\": \""
        + TestAgent.KEY + "\"}"), 201).get("id").asText();
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    int version = body(operator.get("/api/runs/" + run), 200).get("version").asInt();

    // then
    assertProblem(operator.post("/api/runs/" + run + "/steps/4/edit", editBody("{\"result\": \"1\"}", version)), 409,
        "restart it from a step");
    assertProblem(operator.post("/api/runs/" + run + "/regenerate", "{}"), 409, "restart");
    assertProblem(operator.post("/api/runs/" + run + "/restart", "{\"fromStep\": 8, \"reason\": \"again\"}"), 400,
        "final answer");
    assertProblem(operator.post("/api/runs/" + run + "/restart", "{\"fromStep\": 77, \"reason\": \"again\"}"), 404,
        "no step 77");
    JsonNode actions = body(operator.get("/api/runs/" + run + "/actions"), 200);
    assertThat(actions.get("edit").asBoolean()).isFalse();
    assertThat(actions.get("restart").asBoolean()).isTrue();

    // when
    var created = operator.post("/api/runs/" + run + "/restart", "{\"fromStep\": 4, \"reason\": \"second half\"}");

    // then
    JsonNode restarted = body(created, 201);
    assertThat(created.headers().firstValue("Location")).hasValue("/api/runs/" + restarted.get("id").asText());
    assertThat(restarted.get("restartedFrom").asText()).isEqualTo(run);
    assertThat(restarted.get("restartedFromStep").asInt()).isEqualTo(4);
    assertThat(body(operator.get("/api/runs/" + run), 200).get("restarts").get(0).asText())
        .isEqualTo(restarted.get("id").asText());
    Runs.awaitStatus(runs, restarted.get("id").asText(), RunStatus.ANSWERED);
    JsonNode finished = body(operator.get("/api/runs?agent=" + TestAgent.KEY + "&finished=true&limit=500"), 200);
    List<String> ids = new ArrayList<>();
    finished.forEach(view -> ids.add(view.get("id").asText()));
    assertThat(ids).contains(run, restarted.get("id").asText());
  }

  @Test
  void should_let_reviewers_change_only_runs_waiting_on_their_task_and_operators_any() {
    // given a run waiting for its answer review, offered to agent-reviewers
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = startWaitingForAnswerReview(reviewer, "regenerate: who may");
    JsonNode actions = body(reviewer.get("/api/runs/" + run + "/actions"), 200);
    assertThat(actions.get("regenerate").asBoolean()).isTrue();
    assertThat(actions.get("restart").asBoolean()).isFalse();

    // when the reviewer regenerates, the run goes on; while it thinks, no task is theirs
    body(reviewer.post("/api/runs/" + run + "/regenerate", "{\"reason\": \"too short\"}"), 200);
    awaitAnswers(reviewer, run, 2);

    // then a run that waits on nobody's task is for operators only
    String running = body(ApiClient.as(port, "operator").post("/api/runs", "{\"question\": \"tool-hangs: busy\","
        + " \"agent\": \"" + TestAgent.KEY + "\"}"), 201).get("id").asText();
    assertProblem(reviewer.post("/api/runs/" + running + "/stop", "{\"reason\": \"mine\"}"), 403, "agent-operators");
    assertThat(body(reviewer.get("/api/runs/" + running + "/actions"), 200).get("stop").asBoolean()).isFalse();
    User outsider = engine.getIdentityService().newUser("resumeOutsider" + System.nanoTime());
    outsider.setPassword("secret");
    engine.getIdentityService().saveUser(outsider);
    assertProblem(ApiClient.as(port, outsider.getId(), "secret").post("/api/runs/" + running + "/stop", "{\"reason\": \"x\"}"), 404,
        "no run with id " + running);
    assertThat(body(ApiClient.as(port, "operator").post("/api/runs/" + running + "/stop",
        "{\"reason\": \"hangs\"}"), 200).get("status").asText()).isEqualTo("STOPPED");
  }

  private static String editBody(String content, int version) {
    return "{\"content\": " + content + ", \"reason\": \"a reason\", \"baseVersion\": " + version + "}";
  }

  private String startWaitingForAnswerReview(ApiClient client, String question) {
    String run = body(client.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \""
        + TestAgent.ANSWER_REVIEWED + "\"}"), 201).get("id").asText();
    awaitAnswers(client, run, 1);
    return run;
  }

  private void awaitAnswers(ApiClient client, String run, int answers) {
    await().atMost(Runs.PATIENCE).until(() -> {
      JsonNode all = body(client.get("/api/runs/" + run + "/trace?branches=all"), 200).get("steps");
      int count = 0;
      for (JsonNode step : all) {
        count += step.get("kind").asText().equals("FINAL_ANSWER") ? 1 : 0;
      }
      return count == answers && runs.view(run).waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER);
    });
  }
}
