package dev.agentloop.internal.trace;

import dev.agentloop.internal.trace.retention.RunNotFinishedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.trace.retention.TraceDeletion;
import dev.agentloop.internal.trace.retention.TraceRetention;
import java.util.Map;
import javax.sql.DataSource;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Nothing is kept forever: a run's trace goes with its Camunda history, when the history cleanup
 * removes that after the agent's historyTimeToLive, and an operator can delete a finished run's trace
 * at once, leaving a tombstone. Run on H2 ({@link TraceRetentionTest}, with the REST API) and on
 * PostgreSQL ({@link TraceRetentionOnPostgresTest}).
 */
public abstract class TraceRetentionScenarios {

  /** An agent whose runs' history is due for removal as soon as they end: time-to-live 0 days. */
  static final String SHORT_LIVED = "short-lived-agent";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired TraceRetention retention;
  @Autowired ConversationClaims claims;
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
    // given a finished run whose history is due, and one whose history is kept 30 days, each under a conversation id
    String dueId = "due-" + System.nanoTime();
    String keptId = "kept-" + System.nanoTime();
    String due = answered(SHORT_LIVED, "multi-step: forget me", dueId);
    String kept = answered(TestAgent.KEY, "multi-step: keep me", keptId);
    int keptSteps = store.allSteps(kept).size();
    assertThat(store.allSteps(due)).isNotEmpty();
    assertThat(costAndPromptRows(due)).isPositive();

    // when Camunda's history cleanup runs
    engine.getHistoryService().cleanUpHistoryAsync(true);

    // then the due run's history and trace are gone together, the other run's are whole
    await().atMost(Runs.PATIENCE).until(() -> store.findRun(due).isEmpty());
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(due).count()).isZero();
    assertThat(stepRows(due)).isZero();
    assertThat(costAndPromptRows(due)).as("what the calls cost and the prompts go with the steps").isZero();
    assertThat(costAndPromptRows(kept)).isPositive();
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(kept).count()).isOne();
    assertThat(store.allSteps(kept)).hasSize(keptSteps);
    assertThat(store.run(kept).question()).isEqualTo("multi-step: keep me");
    // and the due run's conversation id is held by no run any more, the other's still is
    assertThat(claims.holder(dueId)).isEmpty();
    assertThat(claims.holder(keptId)).contains(kept);
  }

  @Test
  void should_drop_the_claim_of_a_run_whose_trace_is_deleted_and_no_other() {
    // given a conversation id that an ended run held and a second run took over
    String id = "erased-" + System.nanoTime();
    String first = answered(TestAgent.KEY, "multi-step: first under the id", id);
    String second = answered(TestAgent.KEY, "multi-step: second under the id", id);
    assertThat(claims.holder(id)).contains(second);

    // when the first run's trace is deleted, the second still holds the id
    retention.deleteTrace(first, "operator", "customer asked for erasure");
    assertThat(claims.holder(id)).contains(second);

    // when the second run's trace is deleted too, no claim is left, naming either run
    retention.deleteTrace(second, "operator", "customer asked for erasure");
    assertThat(claims.holder(id)).isEmpty();
    assertThat(new JdbcTemplate(dataSource).queryForObject(
        "SELECT COUNT(*) FROM agentloop_conversation WHERE run_id IN (?, ?)", Long.class, first, second)).isZero();

    // then the id starts a new run, which holds it
    String third = answered(TestAgent.KEY, "multi-step: third under the id", id);
    assertThat(claims.holder(id)).contains(third);
  }

  @Test
  void should_delete_a_finished_runs_trace_at_once_and_keep_a_tombstone() {
    // given a finished run and one that waits for its plan review
    String finished = answered(TestAgent.KEY, "multi-step: personal data inside");
    String running = waitingForReview("review-plan: still running");
    int steps = store.allSteps(finished).size();
    assertThat(costAndPromptRows(finished)).isPositive();

    // when a running run's trace, or no run's, is to be deleted
    assertThatThrownBy(() -> retention.deleteTrace(running, "operator", "too early"))
        .isInstanceOf(RunNotFinishedException.class).hasMessageContaining("has not finished");
    assertThatThrownBy(() -> retention.deleteTrace("no-such-run", "operator", "because"))
        .isInstanceOf(UnknownRunException.class);

    // then nothing is deleted
    assertThat(store.allSteps(running)).isNotEmpty();
    assertThat(retention.deletion(running)).isEmpty();

    // when the finished run's trace is deleted, twice
    TraceDeletion deletion = retention.deleteTrace(finished, "operator", "customer asked for erasure");
    TraceDeletion again = retention.deleteTrace(finished, "someone", "once more");

    // then its steps, question and reasons are gone, and the first tombstone stays
    assertThat(deletion.stepsDeleted()).isEqualTo(steps);
    assertThat(again).isEqualTo(deletion);
    assertThat(retention.deletion(finished)).contains(deletion);
    assertThat(stepRows(finished)).isZero();
    assertThat(costAndPromptRows(finished)).isZero();
    RunRecord run = store.run(finished);
    assertThat(run.question()).isEmpty();
    assertThat(run.status()).isEqualTo(RunStatus.ANSWERED);
    engine.getRuntimeService().deleteProcessInstance(running, "test done");
  }

  String answered(String agent, String question) {
    String run = engine.getRuntimeService().startProcessInstanceByKey(agent, ReactAgentProcess.QUESTION.with(question))
        .getId();
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    return run;
  }

  /** A run started as the API starts one, under a conversation id, once it has answered. */
  String answered(String agent, String question, String conversationId) {
    String run = runs.start(agent, question, conversationId);
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    return run;
  }

  String waitingForReview(String question) {
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED,
        ReactAgentProcess.QUESTION.with(question)).getId();
    await().atMost(Runs.PATIENCE).until(() -> !store.allSteps(run).isEmpty());
    return run;
  }

  /** What is kept of a run's calls: the steps' costs and the prompts. */
  long costAndPromptRows(String run) {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    return jdbc.queryForObject("SELECT COUNT(*) FROM agentloop_step WHERE run_id = ? AND cost_model_call IS NOT NULL",
        Long.class, run)
        + jdbc.queryForObject("SELECT COUNT(*) FROM agentloop_prompt WHERE run_id = ?", Long.class, run);
  }

  long stepRows(String run) {
    return new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM agentloop_step WHERE run_id = ?",
        Long.class, run);
  }

}
