package dev.agentloop.trace;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.agent.AgentRuns;
import dev.agentloop.agent.AgentSettings;
import dev.agentloop.agent.ReactAgentProcess;
import java.util.Map;
import javax.sql.DataSource;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Nothing is kept forever: a run's trace goes with its Camunda history, when the history cleanup
 * removes that after the agent's historyTimeToLive, and an operator can delete a finished run's trace
 * at once, leaving a tombstone. Run on H2 ({@link TraceRetentionTest}) and on PostgreSQL
 * ({@link TraceRetentionOnPostgresTest}).
 */
abstract class TraceRetentionScenarios {

  /** An agent whose runs' history is due for removal as soon as they end: time-to-live 0 days. */
  static final String SHORT_LIVED = "short-lived-agent";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired AgentRuns runs;
  @Autowired StepStore store;
  @Autowired TraceRetention retention;
  @Autowired DataSource dataSource;

  @BeforeEach
  void deployShortLivedAgent() {
    if (engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(SHORT_LIVED).count() == 0) {
      BpmnModelInstance model = TestAgent.variant(SHORT_LIVED, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
          AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
      model.getModelElementsByType(Process.class).iterator().next().setCamundaHistoryTimeToLiveString("0");
      engine.getRepositoryService().createDeployment().addModelInstance(SHORT_LIVED + ".bpmn", model).deploy();
    }
  }

  @Test
  void should_remove_a_runs_trace_when_the_history_cleanup_removes_its_history() {
    // given a finished run whose history is due, and one whose history is kept 30 days
    String due = answered(SHORT_LIVED, "multi-step: forget me");
    String kept = answered(TestAgent.KEY, "multi-step: keep me");
    int keptSteps = store.allSteps(kept).size();
    assertThat(store.allSteps(due)).isNotEmpty();

    // when Camunda's history cleanup runs
    engine.getHistoryService().cleanUpHistoryAsync(true);

    // then the due run's history and trace are gone together, the other run's are whole
    await().atMost(Runs.PATIENCE).until(() -> store.findRun(due).isEmpty());
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(due).count()).isZero();
    assertThat(stepRows(due)).isZero();
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(kept).count()).isOne();
    assertThat(store.allSteps(kept)).hasSize(keptSteps);
    assertThat(store.run(kept).question()).isEqualTo("multi-step: keep me");
  }

  @Test
  void should_let_only_an_operator_delete_a_finished_runs_trace_with_a_reason_and_keep_a_tombstone() {
    // given a finished run and one that waits for its plan review
    String finished = answered(TestAgent.KEY, "multi-step: personal data inside");
    String running = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED,
        ReactAgentProcess.QUESTION.with("review-plan: still running")).getId();
    await().atMost(Runs.PATIENCE).until(() -> !store.allSteps(running).isEmpty());
    int steps = store.allSteps(finished).size();
    ApiClient operator = ApiClient.as(port, "operator");

    // when others try, without a reason, on a running run, or on no run
    assertProblem(ApiClient.as(port, "reviewer").delete(trace(finished, "because")), 403, "agent-operators");
    assertProblem(operator.delete("/api/runs/" + finished + "/trace"), 400, "reason");
    assertProblem(operator.delete(trace(running, "too%20early")), 409, "has not finished");
    assertProblem(operator.delete(trace("no-such-run", "because")), 404, "no-such-run");

    // then nothing was deleted
    assertThat(store.allSteps(finished)).hasSize(steps);
    assertThat(store.allSteps(running)).isNotEmpty();

    // when an operator deletes it with a reason, twice
    JsonNode deletion = body(operator.delete(trace(finished, "customer%20asked%20for%20erasure")), 200);
    JsonNode again = body(operator.delete(trace(finished, "once%20more")), 200);

    // then the steps and the question are gone, the tombstone says who, when and why, the run is still listed
    assertThat(deletion.get("runId").asText()).isEqualTo(finished);
    assertThat(deletion.get("deletedBy").asText()).isEqualTo("operator");
    assertThat(deletion.get("reason").asText()).isEqualTo("customer asked for erasure");
    assertThat(deletion.get("stepsDeleted").asInt()).isEqualTo(steps);
    assertThat(again).isEqualTo(deletion);
    assertThat(stepRows(finished)).isZero();
    assertThat(body(operator.get("/api/runs/" + finished + "/trace?branches=all"), 200).get("steps")).isEmpty();
    JsonNode run = body(operator.get("/api/runs/" + finished), 200);
    assertThat(run.get("question").asText()).isEmpty();
    assertThat(run.get("status").asText()).isEqualTo(RunStatus.ANSWERED.name());
    assertThat(retention.deletion(finished)).hasValueSatisfying(tombstone -> {
      assertThat(tombstone.deletedBy()).isEqualTo("operator");
      assertThat(tombstone.reason()).isEqualTo("customer asked for erasure");
    });
    assertThat(retention.deletion(running)).isEmpty();
    engine.getRuntimeService().deleteProcessInstance(running, "test done");
  }

  private String answered(String agent, String question) {
    String run = engine.getRuntimeService().startProcessInstanceByKey(agent, ReactAgentProcess.QUESTION.with(question))
        .getId();
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    return run;
  }

  private long stepRows(String run) {
    return new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM agentloop_step WHERE run_id = ?",
        Long.class, run);
  }

  private static String trace(String run, String reason) {
    return "/api/runs/" + run + "/trace?reason=" + reason;
  }
}
