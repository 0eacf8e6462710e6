package dev.agentloop.internal.agent.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ModelCalls;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.ActiveStep;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.spi.ModelRequest.Purpose;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ExternalTaskService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A child run that cannot finish is its caller's news: stuck, it shows in the caller's live line with why; failed
 * (an incident) or out of its own time, it is stopped and its caller reads why at once, in words, and goes on; and
 * when the caller's own time runs out, the answers already in are kept and the children still at work are stopped
 * saying why, not with the engine's words.
 */
@AgentLoopTest
class ChildNewsScenarioTest {

  private static final String PARENT = "news-parent-agent";
  private static final String HURRIED_PARENT = "hurried-parent-agent";
  private static final String SLOW_CHILD = "slow-child-agent";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) {
    TestAgent.deployVariant(engine, TreeBudgetScenarioTest.CHILD, Map.of(AgentSettings.ALLOWED_TOOLS,
        "calculator, noop, crm_lookup", AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER,
        "true"));
    TestAgent.deployVariant(engine, SLOW_CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.MAX_RUN_TIME, "PT2S"));
    TestAgent.deployVariant(engine, PARENT, Map.of(AgentSettings.ALLOWED_TOOLS,
        TreeBudgetScenarioTest.CHILD + ", " + SLOW_CHILD, AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, HURRIED_PARENT, Map.of(AgentSettings.ALLOWED_TOOLS, TreeBudgetScenarioTest.CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.MAX_RUN_TIME, "PT6S"));
  }

  @Test
  void should_show_a_child_waiting_in_agentStuck_in_its_callers_live_line_with_why() {
    // when the child goes round in circles and waits for a person
    String run = runs.start(PARENT, "stuck-child-parent: ask");

    // then the parent's live line says which child is stuck, and why
    ActiveStep.Child child = await().atMost(Runs.PATIENCE).until(() -> children(runs.view(run)),
        list -> list.size() == 1 && list.get(0).activeStep() != null
            && ReactAgentProcess.AGENT_STUCK.equals(list.get(0).activeStep().activity())).get(0);
    assertThat(child.agent()).isEqualTo(TreeBudgetScenarioTest.CHILD);
    assertThat(child.activeStep().problem()).startsWith("LOOP_DETECTED: The agent is going round in circles");
    assertThat(runs.view(run).status()).isNotEqualTo(RunStatus.FAILED);
  }

  @Test
  void should_observe_at_once_that_a_child_failed_with_an_incident_and_go_on() {
    // given a child whose remote tool call waits for a remote worker
    String run = runs.start(PARENT, "failing-child-parent: ask");
    ProcessInstance child = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().superProcessInstanceId(run).singleResult(), instance -> instance != null);
    ExternalTaskService tasks = engine.getExternalTaskService();

    // when a remote worker reports a failure with no retries left: an incident in the child
    ExternalTask call = await().atMost(Runs.PATIENCE).until(() -> tasks.createExternalTaskQuery()
        .processInstanceId(child.getId()).topicName(ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX + "crm_lookup")
        .singleResult(), task -> task != null);
    tasks.lock(call.getId(), "crm-worker", 60_000);
    tasks.handleFailure(call.getId(), "crm-worker", "the CRM answered 503", null, 0, 0);

    // then the child is stopped with the incident's words, and the parent reads them and answers without it
    RunView parent = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(parent.finalAnswer()).isEqualTo("the child failed, so I answer without it");
    Observation observed = observations(run).get(0);
    assertThat(observed.childRun()).isEqualTo(child.getId());
    assertThat(observed.error()).isEqualTo("the agent '" + TreeBudgetScenarioTest.CHILD + "' did not answer: its run"
        + " was stopped: stopped by agentloop: its step 'callRemoteTool' failed and will not be retried (an"
        + " incident): the CRM answered 503");
    assertThat(store.run(child.getId()).status()).isEqualTo(RunStatus.STOPPED);
    assertThat(engine.getRuntimeService().createIncidentQuery().processInstanceId(child.getId()).count()).isZero();
    assertThat(engine.getRuntimeService().createIncidentQuery().processInstanceId(run).count()).isZero();
  }

  @Test
  void should_observe_at_once_that_a_child_ran_out_of_its_time_and_go_on() {
    // given a child whose model keeps its turn waiting past its loop's run time of 2 s
    ModelCalls.hold("quiet-child: times out", Purpose.THINK);

    // when the parent asks it
    String run = runs.start(PARENT, "timeout-child-parent: ask");

    // then the child is stopped when its time runs out, and the parent reads why and answers
    RunView parent = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(parent.finalAnswer()).isEqualTo("the child ran out of time");
    Observation observed = observations(run).get(0);
    assertThat(observed.error()).isEqualTo("the agent '" + SLOW_CHILD + "' did not answer: its run was stopped:"
        + " stopped by agentloop: its run time (PT2S) ran out before it answered");
    RunRecord child = store.run(observed.childRun());
    assertThat(child.status()).isEqualTo(RunStatus.STOPPED);
    ModelCalls.release("quiet-child: times out");
    await().atMost(Runs.PATIENCE).until(() -> store.run(child.runId()).modelCalls()
        == ModelCalls.received(child.runId()));
  }

  @Test
  void should_keep_the_answers_in_and_stop_the_late_children_in_words_when_the_callers_time_runs_out() {
    // given one child that answers at once and one whose model keeps it waiting
    ModelCalls.hold("quiet-child: too slow");

    // when the parent's run time (6 s) runs out while it waits for the second
    String run = runs.start(HURRIED_PARENT, "late-child-parent: ask both");
    Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);

    // then the answer that was in is its observation, the other call says why it has none
    List<Observation> observed = observations(run);
    assertThat(observed).hasSize(2);
    assertThat(observed.get(0).result()).isEqualTo("4");
    assertThat(store.run(observed.get(0).childRun()).status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(observed.get(1).error()).isEqualTo("no result: the run left its agent loop before this call was done"
        + " (BUDGET_EXHAUSTED: The run-time budget of the agent loop (PT6S) ran out.)");
    // and the late child was stopped with its caller, in words
    String late = engine.getHistoryService().createHistoricProcessInstanceQuery().superProcessInstanceId(run).list()
        .stream().map(instance -> instance.getId()).filter(id -> !id.equals(observed.get(0).childRun())).findFirst()
        .orElseThrow();
    await().atMost(Runs.PATIENCE).until(() -> store.run(late).status().isFinished());
    assertThat(store.run(late).status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(store.run(late).statusReason()).isEqualTo("stopped with the call of run " + run + " that started it:"
        + " its run time (PT6S) ran out");
    // and what its model was paid for is kept with it
    ModelCalls.release("quiet-child: too slow");
    await().atMost(Runs.PATIENCE).until(() -> store.run(late).modelCalls() == ModelCalls.received(late));
    assertThat(store.run(late).modelCalls()).isEqualTo(1);
  }

  private static List<ActiveStep.Child> children(RunView view) {
    return view.activeStep() == null ? List.of() : view.activeStep().children();
  }

  private List<Observation> observations(String run) {
    return store.activePath(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .map(step -> step.contentAs(Observation.class)).toList();
  }
}
