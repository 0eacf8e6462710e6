package dev.agentloop.internal.resilience;

import static dev.agentloop.internal.trace.step.StepKind.ACTION;
import static dev.agentloop.internal.trace.step.StepKind.FINAL_ANSWER;
import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.PLAN;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.review.ReviewException;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.variable.Variables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The escape route against a model that will not stop: calls of tools it was not offered, replies
 * refused again and again, loops with the answer already in hand, long cycles, and what the people
 * it escalates to see and may do (agentStuck, approveAction). Scripted model, real engine.
 */
@AgentLoopTest
class StubbornModelScenarioTest {

  private static final String TWO_STEP_AGENT = "two-step-agent";
  private static final String TWO_TOOL_CALL_AGENT = "two-tool-call-agent";
  private static final String NOOP_ONLY_AGENT = "noop-only-agent";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired Breakers breakers;

  @BeforeEach
  void deployAgents() {
    Map<String, String> unattended = Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true");
    deployOnce(TWO_STEP_AGENT, with(unattended, AgentSettings.MAX_STEPS, "2"));
    deployOnce(TWO_TOOL_CALL_AGENT, with(unattended, AgentSettings.MAX_TOOL_CALLS, "2"));
    deployOnce(NOOP_ONLY_AGENT, with(unattended, AgentSettings.ALLOWED_TOOLS, "noop"));
  }

  // ---- withheld tools ------------------------------------------------------------------------------

  @Test
  void should_refuse_a_tool_call_on_the_last_turn_of_the_budget_and_on_the_turn_a_guide_grants() {
    // when the model calls the calculator on every turn, also on its last one, when it is offered no tools
    String run = start(TWO_STEP_AGENT, "stubborn: never answers");
    Task stuck = awaitStuck(run);

    // then the call of the last turn was refused unrun, and the run escaped with its budget kept
    assertThat(local(stuck, "reason")).isEqualTo("BUDGET_EXHAUSTED: The run's budget is used up: all 2 steps (model"
        + " turns) were used.");
    assertThat(kinds(run)).containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION, OBSERVATION);
    Step refused = lastStep(run);
    assertThat(refused.text("failure")).isEqualTo("not_offered");
    assertThat(refused.author()).isEqualTo("agentloop");
    assertThat(refused.text("error")).startsWith("not run: no tools were offered to you this turn.")
        .endsWith("Give your final answer without calling tools.");
    assertThat(runs.view(run).toolCalls()).isEqualTo(1);

    // when a person guides it with one more step, and it calls the tool on that last turn, again
    complete(stuck, Map.of("decision", "guide", "note", "Answer now.", "newMaxSteps", 3L));
    Task again = await().atMost(Runs.PATIENCE).until(() -> stuckTask(run), task -> task != null
        && !task.getId().equals(stuck.getId()));

    // then that call was refused too, and the run is back with a person
    assertThat(local(again, "reason")).startsWith("BUDGET_EXHAUSTED");
    assertThat(lastStep(run).text("failure")).isEqualTo("not_offered");
    assertThat(runs.view(run).toolCalls()).isEqualTo(1);
  }

  @Test
  void should_count_calls_of_remote_tools_against_the_tool_call_budget() {
    // when one turn asks for a local call and two remote ones with a budget of two tool calls
    String run = start(TWO_TOOL_CALL_AGENT, "remote-tool: three calls for a budget of two");
    Task stuck = awaitStuck(run);

    // then none of them ran, none went to a remote worker, and each has its observation
    assertThat(local(stuck, "reason")).isEqualTo("BUDGET_EXHAUSTED: The run's tool-call budget is used up: 0 of 2"
        + " tool calls were made, and 3 more were asked for.");
    assertThat(runs.view(run).toolCalls()).isZero();
    List<Step> observations = runs.trace(run, false).stream().filter(s -> s.kind() == OBSERVATION).toList();
    assertThat(observations).hasSize(4).allSatisfy(o -> assertThat(o.text("failure")).isEqualTo("not_run"));
  }

  // ---- refusals count for loop detection -----------------------------------------------------------

  @Test
  void should_escape_with_loop_detected_when_the_same_reply_is_refused_again_and_again() {
    // when the model sends 17 calls per reply, more than a turn may have, every time
    String run = start(TestAgent.KEY, "too-many-calls: all at once");
    Task stuck = awaitStuck(run);

    // then it was warned at the third refusal and taken out of the loop at the fourth, not at the end of its budget
    assertThat(variable(run, ReactAgentProcess.ESCAPE_CODE.name())).isEqualTo(Escapes.LOOP_DETECTED);
    assertThat(local(stuck, "reason")).isEqualTo("LOOP_DETECTED: The agent is going round in circles: the model's"
        + " reply was refused 4 times for the same reason: you called 17 tools at once (noop ×17); call at most 16"
        + " per turn, also after a warning.");
    assertThat(runs.view(run).modelCalls()).isEqualTo(5);
    assertThat(runs.view(run).toolCalls()).isZero();
    // the refusal names the calls the model asked for
    assertThat(local(stuck, "lastSteps")).contains("you called 17 tools at once (noop ×17)");
  }

  // ---- a loop with the answer in hand -------------------------------------------------------------

  @Test
  void should_ask_for_the_final_answer_before_a_person_when_the_looping_calls_got_their_results() {
    // when the model repeats a call that succeeds, past the warning, and answers when asked to
    String run = start(TestAgent.KEY, "noop-answer: ok?");

    // then the loop ends in its answer, without a person
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).isEqualTo("noop said ok");
    assertThat(view.toolCalls()).isEqualTo(4);
    assertThat(view.modelCalls()).isEqualTo(6);
    assertThat(engine.getHistoryService().createHistoricActivityInstanceQuery().processInstanceId(run)
        .activityId(ReactAgentProcess.AGENT_STUCK).count()).isZero();
    assertThat(kinds(run)).endsWith(THOUGHT, ACTION, OBSERVATION, FINAL_ANSWER);
  }

  @Test
  void should_escape_when_the_model_calls_a_tool_on_the_turn_that_asked_for_its_answer_after_a_loop() {
    // when the model repeats a call that succeeds and keeps calling on the final-answer turn
    String run = start(TestAgent.KEY, "noop-loop: and never answers");
    Task stuck = awaitStuck(run);

    // then the call of that turn was not run, and a person is asked
    assertThat(local(stuck, "reason")).isEqualTo("LOOP_DETECTED: The agent is going round in circles: the same call"
        + " noop {} was made 5 times, also after a warning and a request for its final answer.");
    assertThat(runs.view(run).toolCalls()).isEqualTo(4);
    assertThat(lastStep(run).text("failure")).isEqualTo("not_offered");
  }

  // ---- long cycles --------------------------------------------------------------------------------

  @Test
  void should_find_a_cycle_of_seven_different_calls() {
    // when the model goes round seven different calculations, with their results in hand
    String run = start(TestAgent.KEY, "cycle-of-seven: round and round");
    Task stuck = awaitStuck(run);

    // then the cycle is found once it begins a third time: one turn for the answer, then a person
    assertThat(local(stuck, "reason")).startsWith("LOOP_DETECTED: The agent is going round in circles: the calls"
        + " calculator {\"expression\":\"1 + 1\"} → calculator {\"expression\":\"1 + 2\"}")
        .contains("were made in this order 2 times in a row and begun again");
    assertThat(runs.view(run).toolCalls()).isEqualTo(15);
    assertThat(lastStep(run).text("failure")).isEqualTo("not_offered");
  }

  // ---- what people see in agentStuck ---------------------------------------------------------------

  @Test
  void should_show_the_calls_the_model_asked_for_when_the_last_steps_are_all_not_run_observations() {
    // when a turn of 14 calls goes past the tool-call budget
    String run = start(TWO_TOOL_CALL_AGENT, "many-not-run: fourteen");
    Task stuck = awaitStuck(run);

    // then the last steps are all "not run", and the calls themselves are shown beside them
    assertThat(local(stuck, "lastSteps").lines().toList()).hasSize(12)
        .allSatisfy(line -> assertThat(line).contains("OBSERVATION (agentloop): ERROR: not run"));
    assertThat(local(stuck, "lastCalls").lines().toList()).hasSize(14)
        .first().asString().startsWith("noop {\"n\":1} → ERROR: not run: The run's tool-call budget is used up");
  }

  @Test
  void should_say_that_guide_and_retry_need_a_new_limit_when_the_budget_is_used_up() {
    String run = start(TWO_STEP_AGENT, "stubborn: tell me what guide does");
    Task stuck = awaitStuck(run);

    assertThat(local(stuck, "decisionHelp")).isEqualTo("The run's budget is used up (all 2 steps (model turns) were"
        + " used). Guide or retry only with a new limit for it below (it holds for the rest of the run, all its"
        + " turns); or stop the run.");
  }

  @Test
  void should_list_only_the_breakers_of_tools_the_agent_may_use() {
    breakers.tool("unreliable");
    String run = start(NOOP_ONLY_AGENT, "noop-loop: only noop");
    Task stuck = awaitStuck(run);

    assertThat(local(stuck, "breakers")).contains("tool:noop: CLOSED", "model:scripted: CLOSED")
        .doesNotContain("unreliable", "calculator");
    assertThat(local(stuck, "decisionHelp")).startsWith("Guide: the agent thinks again with your note and its tools");
  }

  // ---- approving tool calls -----------------------------------------------------------------------

  @Test
  void should_refuse_an_approval_whose_arguments_were_changed_and_run_them_only_as_an_edit() {
    int sentBefore = TestTools.SENT.get();
    String run = start(TestAgent.KEY, "approve: changed my mind about the address");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    // when the approver changes the address but leaves the decision on approve
    Map<String, Object> changed = Map.of("decision1", "approve",
        "arguments1", "{\"to\": \"bea@example.com\", \"subject\": \"Hello\"}");
    assertThatThrownBy(() -> complete(approval, changed)).hasRootCauseInstanceOf(ReviewException.class)
        .hasMessageContaining("you changed the arguments of send_email (call 1) but chose approve");
    assertThat(engine.getTaskService().createTaskQuery().taskId(approval.getId()).count()).isOne();
    assertThat(TestTools.SENT.get()).isEqualTo(sentBefore);

    // a new layout of the same arguments is no change
    complete(approval, Map.of("decision1", "approve", "arguments1", "{\"subject\":\"Hello\",  \"to\":\"ann@example.com\"}"));
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(runs.trace(run, false).stream().filter(s -> s.kind() == OBSERVATION).findFirst().orElseThrow()
        .text("result")).startsWith("sent to ann@example.com");
    assertThat(view.finalAnswer()).isEqualTo("done");
  }

  @Test
  void should_show_the_steps_that_led_to_the_calls_and_say_what_they_change() {
    String run = start(TestAgent.KEY, "approve: show me");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    assertThat(local(approval, "sideEffects")).isEqualTo("Calls of send_email change something outside AgentLoop.");
    assertThat(local(approval, "steps")).contains("THOUGHT (model): I send the mail and compute.")
        .contains("ACTION (model): send_email");
    complete(approval, Map.of("decision1", "reject"));
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
  }

  @Test
  void should_not_say_that_calls_change_something_when_their_tool_declares_no_side_effects() {
    String run = start(TestAgent.KEY, "audited: look it up");
    Task approval = Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION);

    assertThat(local(approval, "tool1")).isEqualTo(TestTools.AUDITED);
    assertThat(local(approval, "sideEffects")).isEmpty();
    complete(approval, Map.of("decision1", "approve"));
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).isEqualTo("looked up");
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private String start(String agent, String question) {
    return engine.getRuntimeService().startProcessInstanceByKey(agent, ReactAgentProcess.QUESTION.with(question)).getId();
  }

  private Task awaitStuck(String run) {
    return Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
  }

  private Task stuckTask(String run) {
    return engine.getTaskService().createTaskQuery().processInstanceId(run)
        .taskDefinitionKey(ReactAgentProcess.AGENT_STUCK).singleResult();
  }

  private void complete(Task task, Map<String, Object> fields) {
    engine.getIdentityService().setAuthentication("ann", List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(task.getId(), Variables.fromMap(fields));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }

  private String local(Task task, String name) {
    Object value = engine.getTaskService().getVariableLocal(task.getId(), name);
    return value == null ? null : value.toString();
  }

  private Object variable(String run, String name) {
    return engine.getRuntimeService().getVariable(run, name);
  }

  private List<StepKind> kinds(String run) {
    return Runs.kinds(runs.trace(run, false));
  }

  private Step lastStep(String run) {
    List<Step> trace = runs.trace(run, false);
    return trace.get(trace.size() - 1);
  }

  private void deployOnce(String key, Map<String, String> properties) {
    if (engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count() == 0) {
      TestAgent.deployVariant(engine, key, properties);
    }
  }

  private static Map<String, String> with(Map<String, String> base, String name, String value) {
    Map<String, String> all = new HashMap<>(base);
    all.put(name, value);
    return all;
  }
}
