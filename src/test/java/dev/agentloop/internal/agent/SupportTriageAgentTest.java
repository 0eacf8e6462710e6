package dev.agentloop.internal.agent;

import static dev.agentloop.ApiClient.body;
import static dev.agentloop.internal.trace.step.StepKind.ACTION;
import static dev.agentloop.internal.trace.step.StepKind.FINAL_ANSWER;
import static dev.agentloop.internal.trace.step.StepKind.HUMAN_INPUT;
import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.PLAN;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.runtime.Job;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * processes/support-triage-agent.bpmn, the agent built in Modeler from the element templates and
 * configuration alone, deployed by the app like react-agent: its own tools (read_document and
 * ask_human), plans accepted automatically, a 4-hour ask-human timeout and every reply reviewed.
 * It reuses react-agent's ids for the tasks of the same role, so the constants of
 * {@link ReactAgentProcess} name them.
 */
@AgentLoopTest
class SupportTriageAgentTest {

  private static final String KEY = "support-triage-agent";
  private static final String TICKET = "My kettle stopped working 40 days after delivery. Can I get my money back?";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @AfterEach
  void resetClock() {
    ClockUtil.reset();
  }

  @Test
  void should_triage_a_ticket_read_the_policy_ask_a_colleague_and_send_the_reply_to_review() {
    // given a ticket, sent to the triage agent through the API as a reviewer would
    ApiClient reviewer = ApiClient.as(port, "reviewer");
    JsonNode started = body(reviewer.post("/api/runs",
        "{\"question\": \"triage: " + TICKET + "\", \"agent\": \"" + KEY + "\"}"), 201);
    String run = started.get("id").asText();
    assertThat(started.get("agent").asText()).isEqualTo(KEY);

    // when the agent asks, then a colleague answers: the plan was accepted without a review
    JsonNode question = awaitTask(reviewer, run, ReactAgentProcess.ASK_HUMAN);
    assertThat(kinds(run)).containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION);
    assertThat(steps(run, OBSERVATION).get(0).text("result")).contains("2-year warranty");
    body(reviewer.post("/api/runs/" + run + "/tasks/" + question.get("id").asText() + "/complete",
        "{\"answer1\": \"KC-20417\"}"), 200);

    // then the drafted reply waits for a person, who accepts it
    JsonNode review = awaitTask(reviewer, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(steps(run, OBSERVATION).get(1).text("result")).contains("A: KC-20417");
    assertThat(steps(run, OBSERVATION).get(1).author()).isEqualTo("reviewer");
    body(reviewer.post("/api/runs/" + run + "/tasks/" + review.get("id").asText() + "/complete",
        "{\"decision\": \"accept\"}"), 200);

    RunView answered = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(answered.agent()).isEqualTo(KEY);
    assertThat(answered.finalAnswer()).startsWith("Category: defect\nPriority: normal\nReply:\n").contains("KC-20417");
    assertThat(kinds(run)).containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION, OBSERVATION, FINAL_ANSWER);
    assertThat(runs.view(run).toolCalls()).isEqualTo(1);
  }

  @Test
  void should_refuse_a_tool_outside_the_triage_agents_own_subset() {
    String run = start("triage-off-limits: How much is twice 49.90?");

    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);

    String refusal = steps(run, OBSERVATION).get(0).text("error");
    assertThat(refusal).startsWith("there is no tool named 'calculator' for this agent; available tools: ");
    assertThat(List.of(refusal.substring(refusal.indexOf("tools: ") + 7).split(", ")))
        .containsExactlyInAnyOrder("read_document", "ask_human");
  }

  @Test
  void should_wait_for_a_colleague_as_long_as_the_diagram_says_and_then_go_on_without_an_answer() {
    // given
    String run = start("triage: " + TICKET);
    Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);
    Job timer = engine.getManagementService().createJobQuery().processInstanceId(run).timers()
        .activityId(ReactAgentProcess.NO_ANSWER).singleResult();

    // then the timer is the diagram's PT4H, not the application's PT24H
    long waited = timer.getDuedate().getTime() - ClockUtil.getCurrentTime().getTime();
    assertThat(Duration.ofMillis(waited)).isBetween(Duration.ofHours(4).minusMinutes(1), Duration.ofHours(4));

    // when nobody answers in time
    ClockUtil.setCurrentTime(new Date(timer.getDuedate().getTime() + 1_000));
    engine.getManagementService().executeJob(timer.getId());

    // then the agent is told so and drafts its reply, which waits for review
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    assertThat(steps(run, OBSERVATION).get(1).text("error")).isEqualTo("no answer within PT4H; continue without it");
    assertThat(kinds(run)).doesNotContain(HUMAN_INPUT).endsWith(FINAL_ANSWER);
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private String start(String ticket) {
    return runs.start(KEY, ticket);
  }

  private static JsonNode awaitTask(ApiClient client, String run, String key) {
    return await().atMost(Runs.PATIENCE).until(() -> {
      for (JsonNode task : body(client.get("/api/runs/" + run + "/tasks"), 200)) {
        if (task.path("taskDefinitionKey").asText().equals(key)) {
          return task;
        }
      }
      return null;
    }, task -> task != null);
  }

  private List<StepKind> kinds(String run) {
    return Runs.kinds(runs.trace(run, false));
  }

  private List<Step> steps(String run, StepKind kind) {
    return runs.trace(run, false).stream().filter(step -> step.kind() == kind).toList();
  }
}
