package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Every human decision is in the trace: who accepted a plan unchanged or an answer, who regenerated
 * an answer and why, who stopped a run; and the run says who ended it. Over real HTTP, as Cockpit
 * and other clients read it.
 */
@AgentLoopTest
class DecisionsApiTest {

  @LocalServerPort int port;

  @Test
  void should_keep_who_accepted_the_plan_unchanged_and_the_answer_and_say_who_ended_the_run() {
    // given a run whose plan and answer are reviewed
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = start(reviewer, TestAgent.REVIEWED, "multi-step: decisions");

    // when the reviewer accepts the plan as it is, and then the answer
    complete(reviewer, run, ReactAgentProcess.REVIEW_PLAN, "{\"decision\": \"accept\"}");
    complete(reviewer, run, ReactAgentProcess.REVIEW_ANSWER, "{\"decision\": \"accept\"}");

    // then
    JsonNode view = awaitStatus(reviewer, run, "ANSWERED");
    assertThat(view.get("endedBy").asText()).isEqualTo("reviewer");
    JsonNode trace = body(reviewer.get("/api/runs/" + run + "/trace"), 200);
    List<String> decisions = decisions(trace);
    assertThat(decisions).containsExactly("accept PLAN by reviewer", "accept FINAL_ANSWER by reviewer");
    assertThat(trace.get("decisions").get(0).get("decidedAt").asText()).endsWith("Z");
  }

  @Test
  void should_keep_the_regenerate_reason_given_through_the_api_with_the_answer_it_replaced() {
    // given a run waiting with its answer
    ApiClient operator = ApiClient.as(port, "operator");
    String run = start(operator, TestAgent.ANSWER_REVIEWED, "multi-step: regenerate with a reason");
    operator.awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    int answer = body(operator.get("/api/runs/" + run), 200).get("steps").asInt();

    // when
    body(operator.post("/api/runs/" + run + "/regenerate", "{\"reason\": \"cite the policy\"}"), 200);

    // then the decision names the superseded answer, who asked and why
    JsonNode decision = last(body(operator.get("/api/runs/" + run + "/trace?branches=all"), 200));
    assertThat(decision.get("stepNo").asInt()).isEqualTo(answer);
    assertThat(decision.get("decision").asText()).isEqualTo("regenerate");
    assertThat(decision.get("author").asText()).isEqualTo("operator");
    assertThat(decision.get("reason").asText()).isEqualTo("cite the policy");
  }

  @Test
  void should_keep_who_regenerated_in_tasklist_and_why() {
    // given
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    String run = start(reviewer, TestAgent.ANSWER_REVIEWED, "multi-step: regenerate in the form");

    // when the reviewer regenerates from the answer review, saying why in the feedback
    complete(reviewer, run, ReactAgentProcess.REVIEW_ANSWER,
        "{\"decision\": \"regenerate\", \"feedback\": \"too vague\"}");

    // then
    reviewer.awaitTask(run, ReactAgentProcess.REVIEW_ANSWER);
    JsonNode decision = last(body(reviewer.get("/api/runs/" + run + "/trace"), 200));
    assertThat(decision.get("decision").asText()).isEqualTo("regenerate");
    assertThat(decision.get("author").asText()).isEqualTo("reviewer");
    assertThat(decision.get("reason").asText()).isEqualTo("too vague");
  }

  @Test
  void should_say_that_the_agent_accepted_its_answer_itself_and_that_a_person_stopped_a_run() {
    // given
    ApiClient operator = ApiClient.as(port, "operator");
    String unattended = start(operator, TestAgent.KEY, "multi-step: accepted automatically");
    String stopped = start(operator, TestAgent.ANSWER_REVIEWED, "multi-step: stopped");
    operator.awaitTask(stopped, ReactAgentProcess.REVIEW_ANSWER);

    // when
    body(operator.post("/api/runs/" + stopped + "/stop", "{\"reason\": \"wrong question\"}"), 200);

    // then
    assertThat(awaitStatus(operator, unattended, "ANSWERED").get("endedBy").asText()).isEqualTo("agentloop");
    assertThat(decisions(body(operator.get("/api/runs/" + unattended + "/trace"), 200)))
        .containsExactly("accept PLAN by agentloop", "accept FINAL_ANSWER by agentloop");
    assertThat(last(body(operator.get("/api/runs/" + unattended + "/trace"), 200)).get("reason").asText())
        .isEqualTo("accepted automatically (autoAcceptAnswer)");
    JsonNode view = awaitStatus(operator, stopped, "STOPPED");
    assertThat(view.get("endedBy").asText()).isEqualTo("operator");
    assertThat(last(body(operator.get("/api/runs/" + stopped + "/trace"), 200)).get("reason").asText())
        .isEqualTo("wrong question");
  }

  private static String start(ApiClient client, String agent, String question) {
    return body(client.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + agent + "\"}"), 201)
        .get("id").asText();
  }

  private static void complete(ApiClient client, String run, String taskKey, String fields) {
    JsonNode task = client.awaitTask(run, taskKey);
    body(client.post("/api/runs/" + run + "/tasks/" + task.get("id").asText() + "/complete", fields), 200);
  }

  private static JsonNode awaitStatus(ApiClient client, String run, String status) {
    return await().atMost(Runs.PATIENCE).until(() -> body(client.get("/api/runs/" + run), 200),
        view -> view.get("status").asText().equals(status));
  }

  /** "decision KIND by author" for each decision of a trace, the kind being the step's decided on. */
  private static List<String> decisions(JsonNode trace) {
    List<String> described = new ArrayList<>();
    for (JsonNode decision : trace.get("decisions")) {
      String kind = "";
      for (JsonNode step : trace.get("steps")) {
        kind = step.get("id").asInt() == decision.get("stepNo").asInt() ? step.get("kind").asText() : kind;
      }
      described.add(decision.get("decision").asText() + " " + kind + " by " + decision.get("author").asText());
    }
    return described;
  }

  private static JsonNode last(JsonNode trace) {
    JsonNode decisions = trace.get("decisions");
    return decisions.get(decisions.size() - 1);
  }
}
