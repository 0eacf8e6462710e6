package dev.agentloop.internal.resilience;

import static dev.agentloop.internal.trace.step.StepKind.ACTION;
import static dev.agentloop.internal.trace.step.StepKind.FINAL_ANSWER;
import static dev.agentloop.internal.trace.step.StepKind.HUMAN_INPUT;
import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.PLAN;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperties;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Every way out of the agent loop of react-agent (LOOP_DETECTED, BUDGET_EXHAUSTED, TOOL_UNAVAILABLE,
 * the run-time timer) into agentStuck, and every decision there (guide, retry, edit, stop), driven by the
 * scripted model through the embedded worker.
 */
@AgentLoopTest
class EscapeRouteScenarioTest {

  private static final String TOOL_BUDGET_AGENT = "tool-budget-agent";
  private static final String CALL_BUDGET_AGENT = "call-budget-agent";
  private static final String NO_TURN_AGENT = "no-turn-agent";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired Breakers breakers;
  @Autowired ResilienceMetrics metrics;

  @BeforeEach
  void deployAgentsWithSmallBudgets() {
    BpmnAwareTests.init(engine);
    Map<String, String> autoAccept = Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true");
    deployOnce(TOOL_BUDGET_AGENT, with(autoAccept, AgentSettings.MAX_TOOL_CALLS, "2"));
    deployOnce(CALL_BUDGET_AGENT, with(autoAccept, AgentSettings.MAX_MODEL_CALLS, "3"));
    deployOnce(NO_TURN_AGENT, with(autoAccept, AgentSettings.MAX_MODEL_CALLS, "1"));
  }

  @AfterEach
  void reset() {
    ClockUtil.reset();
    TestTools.UNRELIABLE_DOWN.set(true);
    breakers.tool("unreliable").close();
  }

  @Test
  void should_warn_the_model_and_then_escape_with_loop_detected_when_it_repeats_a_call() {
    // given
    double warnings = count("agentloop.loop.detections", "level", "warning");

    // when the model calls noop {} over and over
    String run = start(TestAgent.KEY, "noop-loop: forever");
    Task stuck = awaitStuck(run);

    // then it was warned at the third call, asked for its final answer without tools after the fourth, and
    // taken out of the loop when it called noop again (not run) instead of answering
    assertThat(variable(run, ReactAgentProcess.ESCAPE_CODE.name())).isEqualTo(Escapes.LOOP_DETECTED);
    assertThat(local(stuck, "reason")).isEqualTo("LOOP_DETECTED: The agent is going round in circles: the same"
        + " call noop {} was made 5 times, also after a warning and a request for its final answer.");
    assertThat(count("agentloop.loop.detections", "level", "warning")).isGreaterThan(warnings);
    RunView view = runs.view(run);
    assertThat(view.status()).isEqualTo(RunStatus.WAITING);
    assertThat(view.modelCalls()).isEqualTo(6);
    assertThat(view.toolCalls()).isEqualTo(4);
    assertThat(kinds(run)).containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION, OBSERVATION,
        THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION, OBSERVATION);
    assertThat(local(stuck, "lastSteps")).contains("#13 OBSERVATION (noop): ok")
        .endsWith("#16 OBSERVATION (agentloop): ERROR: not run: no tools were offered to you this turn. You are going"
            + " round in circles: the same call noop {} was made 4 times, also after a warning. Give your final"
            + " answer without calling tools.");
    assertThat(local(stuck, "breakers")).contains("tool:noop: CLOSED", "model:scripted: CLOSED");
    assertThat(engine.getTaskService().getVariablesLocal(stuck.getId())).containsEntry("decision", null);
    BpmnAwareTests.assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(run)
        .singleResult()).isWaitingAt(ReactAgentProcess.AGENT_STUCK);
  }

  @Test
  void should_go_back_to_thinking_with_the_persons_note_when_guided() {
    // given a run that escaped from its loop
    String run = start(TestAgent.KEY, "loop-guided: forever, unless told");
    Task stuck = awaitStuck(run);
    assertRefused(stuck, Map.of("decision", "guide", "note", " "), "write the note the agent should go on with");

    // when a person guides it
    complete(stuck, Map.of("decision", "guide", "note", "Stop calling noop and answer."));

    // then the model thinks again with the note, and loop detection starts afresh
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).isEqualTo("guided answer");
    List<Step> trace = runs.trace(run, false);
    Step note = trace.get(trace.size() - 2);
    assertThat(note.kind()).isEqualTo(HUMAN_INPUT);
    assertThat(note.text("text")).isEqualTo("Stop calling noop and answer.");
    assertThat(note.author()).isEqualTo("ann");
    assertThat(note.reason()).isEqualTo("guidance after LOOP_DETECTED");
    assertThat(trace.get(trace.size() - 1).kind()).isEqualTo(FINAL_ANSWER);
  }

  @Test
  void should_continue_from_a_step_a_person_edited_in_agent_stuck() {
    // given a run that escaped from its loop of noop calls
    String run = start(TestAgent.KEY, "loop-guided: edit me out of it");
    Task stuck = awaitStuck(run);
    assertRefused(stuck, Map.of("decision", "edit", "editStep", 99L, "editContent", "x"), "no step 99");

    // when a person edits the last observation
    complete(stuck, Map.of("decision", "edit", "editStep", 16L, "editContent", "noop is done; answer now",
        "editReason", "break the loop"));

    // then the loop starts afresh from the edited step, and the model answers
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).isEqualTo("guided answer");
    List<Step> trace = runs.trace(run, false);
    Step edited = trace.get(trace.size() - 2);
    assertThat(edited.supersedes()).isEqualTo(16);
    assertThat(edited.author()).isEqualTo("ann");
    assertThat(edited.reason()).isEqualTo("break the loop");
    assertThat(edited.text("result")).isEqualTo("noop is done; answer now");
  }

  @Test
  void should_escape_with_tool_unavailable_when_the_model_insists_on_a_tool_whose_breaker_is_open() {
    // when the tool fails, its breaker opens, the model is told and calls it again
    String run = start(TestAgent.KEY, "unreliable: call it twice");
    Task stuck = awaitStuck(run);

    // then the run left its loop; both calls have their observation, and the tool was tried once only
    assertThat(variable(run, ReactAgentProcess.ESCAPE_CODE.name())).isEqualTo(Escapes.TOOL_UNAVAILABLE);
    assertThat(local(stuck, "reason")).startsWith("TOOL_UNAVAILABLE: The model called 'unreliable' again");
    assertThat(local(stuck, "breakers")).startsWith("tool:unreliable: OPEN\n");
    List<Step> observations = steps(run, OBSERVATION);
    assertThat(observations).hasSize(2).allSatisfy(observation -> {
      assertThat(observation.text("failure")).isEqualTo("unavailable");
      assertThat(observation.text("error")).startsWith("'unreliable' is unavailable: it failed too often lately");
    });
    assertThat(runs.view(run).toolCalls()).isZero();
    assertThat(breakers.find("tool:unreliable").orElseThrow().state()).isEqualTo("OPEN");
  }

  @Test
  void should_run_the_last_calls_again_as_the_persons_turn_when_retried() {
    // given a run that escaped because its tool was down
    String run = start(TestAgent.KEY, "unreliable: retry it");
    Task stuck = awaitStuck(run);

    // when the service is back and a person retries
    TestTools.UNRELIABLE_DOWN.set(false);
    breakers.tool("unreliable").close();
    complete(stuck, Map.of("decision", "retry"));

    // then the call runs again, without a model turn, and the model goes on from its result
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).isEqualTo("done after the retry");
    List<Step> trace = runs.trace(run, false);
    List<Step> retry = trace.subList(trace.size() - 5, trace.size());
    assertThat(Runs.kinds(retry)).containsExactly(HUMAN_INPUT, THOUGHT, ACTION, OBSERVATION, FINAL_ANSWER);
    assertThat(retry.get(0).text("text")).isEqualTo("Run again: unreliable {}");
    assertThat(retry.get(0).reason()).isEqualTo("retry after TOOL_UNAVAILABLE");
    assertThat(retry).extracting(Step::author).containsExactly("ann", "ann", "ann", "unreliable", "model");
    assertThat(retry.get(3).text("result")).isEqualTo("unreliable is back");
    assertThat(retry.get(3).text("callId")).isEqualTo(retry.get(2).text("callId")).startsWith("retry");
    assertThat(view.modelCalls()).isEqualTo(4);
  }

  @Test
  void should_escape_before_a_call_past_the_tool_budget_and_end_stopped_with_the_reason() {
    // when the model asks for fourteen tool calls at once with a budget of two
    String run = start(TOOL_BUDGET_AGENT, "many-not-run: fourteen");
    Task stuck = awaitStuck(run);

    // then the calls are observed as not run and the budget is kept
    assertThat(variable(run, ReactAgentProcess.ESCAPE_CODE.name())).isEqualTo(Escapes.BUDGET_EXHAUSTED);
    assertThat(runs.view(run).toolCalls()).isZero();
    Step notRun = lastStep(run);
    assertThat(notRun.kind()).isEqualTo(OBSERVATION);
    assertThat(notRun.text("failure")).isEqualTo("not_run");
    assertThat(notRun.text("error")).isEqualTo("not run: The run's tool-call budget is used up: 0 of 2 tool calls"
        + " were made, and 14 more were asked for.");

    // when a person stops the run
    complete(stuck, Map.of("decision", "stop", "note", "Two pages are enough."));

    // then it ends STOPPED at the end event 'stopped', with the reason, and no call without its observation
    RunView view = Runs.awaitStatus(runs, run, RunStatus.STOPPED);
    assertThat(view.statusReason()).isEqualTo("stopped by ann: BUDGET_EXHAUSTED: The run's tool-call budget is used"
        + " up: 0 of 2 tool calls were made, and 14 more were asked for. Two pages are enough.");
    assertThat(BpmnAwareTests.historyService().createHistoricActivityInstanceQuery().processInstanceId(run)
        .activityId(ReactAgentProcess.STOPPED).count()).isOne();
    assertThat(lastStep(run).kind()).isEqualTo(HUMAN_INPUT);
    assertThat(lastStep(run).reason()).isEqualTo("stopped after BUDGET_EXHAUSTED");
    assertEveryCallObserved(run);
  }

  @Test
  void should_escape_when_the_model_calls_are_used_up_and_go_on_only_within_a_limit_a_person_raises() {
    // when the model ignores the request for its final answer and the model calls run out
    String run = start(CALL_BUDGET_AGENT, "budget: three model calls");
    Task stuck = awaitStuck(run);

    assertThat(local(stuck, "reason")).isEqualTo("BUDGET_EXHAUSTED: The run's budget is used up: all 3 model calls"
        + " were made.");
    assertThat(runs.view(run).modelCalls()).isEqualTo(3);
    assertThat(local(stuck, "budget")).contains("3 of 3 model calls");

    // then guidance alone grants nothing, and a new limit at or below what is used neither
    assertRefused(stuck, Map.of("decision", "guide", "note", "Answer with what you have."),
        "the run's budget is used up (all 3 model calls were made): give a new limit for it with your decision"
            + " (newMaxModelCalls), or stop the run");
    assertRefused(stuck, Map.of("decision", "guide", "note", "Answer.", "newMaxModelCalls", 3L),
        "newMaxModelCalls 3 grants nothing: 3 are used already");
    assertRefused(stuck, Map.of("decision", "guide", "note", "Answer.", "newMaxModelCalls", "four"),
        "newMaxModelCalls must be a whole number, was 'four'");
    assertRefused(stuck, Map.of("decision", "guide", "note", "Answer.", "newMaxModelCalls", 4.5),
        "newMaxModelCalls must be a whole number from 1 to");

    // a person's new limit buys the calls it allows: one, the last, for the final answer
    complete(stuck, Map.of("decision", "guide", "note", "Answer with what you have.", "newMaxModelCalls", 4L));
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(view.finalAnswer()).as("%s", runs.trace(run, true)).isEqualTo("answered at the end of the budget");
    assertThat(view.modelCalls()).isEqualTo(4);
    assertThat(view.budgets().modelCalls().limit()).isEqualTo(4L);
  }

  @Test
  void should_refuse_a_retry_when_the_run_has_made_no_tool_call() {
    String run = start(NO_TURN_AGENT, "budget: no model call left after the plan");
    Task stuck = awaitStuck(run);

    assertRefused(stuck, Map.of("decision", "retry"), "the run has made no tool call that could be run again");
    complete(stuck, Map.of("decision", "stop"));
    assertThat(Runs.awaitStatus(runs, run, RunStatus.STOPPED).statusReason())
        .isEqualTo("stopped by ann: BUDGET_EXHAUSTED: The run's budget is used up: all 1 model calls were made.");
  }

  @Test
  void should_leave_the_loop_when_its_run_time_is_used_up_and_close_the_call_that_waited() {
    // given a run that waits for a person's answer
    String run = start(TestAgent.KEY, "ask-human: slow colleague");
    Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);
    Job budget = runTimer(run);
    assertThat(budget.getDuedate()).isAfter(new Date(ClockUtil.getCurrentTime().getTime() + 47 * 3_600_000L));

    // when the loop's run time passes
    ClockUtil.setCurrentTime(new Date(budget.getDuedate().getTime() + 1_000));
    engine.getManagementService().executeJob(budget.getId());

    // then the run waits in agentStuck, and the question got an observation
    Task stuck = awaitStuck(run);
    assertThat(local(stuck, "reason"))
        .isEqualTo("BUDGET_EXHAUSTED: The run-time budget of the agent loop (PT48H) ran out.");
    assertThat(engine.getTaskService().createTaskQuery().processInstanceId(run)
        .taskDefinitionKey(ReactAgentProcess.ASK_HUMAN).count()).isZero();
    Step closed = lastStep(run);
    assertThat(closed.text("tool")).isEqualTo("ask_human");
    assertThat(closed.text("failure")).isEqualTo("not_run");
    assertThat(closed.author()).isEqualTo("agentloop");
    assertEveryCallObserved(run);

    // when the person asks again, the question goes to a person again, with a new run-time timer
    complete(stuck, Map.of("decision", "retry"));
    Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);
    assertThat(runTimer(run).getDuedate()).isAfter(budget.getDuedate());
  }

  @Test
  void should_turn_an_escape_into_an_incident_when_the_diagram_has_no_escape_route() {
    // given an agent without boundary events and agentStuck task, as deployed before the escape route existed
    String key = "agent-without-escape-route";
    BpmnModelInstance model = Bpmn.createExecutableProcess(key).camundaHistoryTimeToLive(1).startEvent()
        .serviceTask(ReactAgentProcess.PLAN).camundaExternalTask(ReactAgentProcess.TOPIC_PLAN)
        .exclusiveGateway("loop")
        .serviceTask(ReactAgentProcess.THINK).camundaExternalTask(ReactAgentProcess.TOPIC_THINK)
        .exclusiveGateway(ReactAgentProcess.NEXT_STEP).condition("done", "${route == 'done'}").endEvent()
        .moveToNode(ReactAgentProcess.NEXT_STEP)
        .serviceTask(ReactAgentProcess.ACT).camundaExternalTask(ReactAgentProcess.TOPIC_ACT).connectTo("loop")
        .done();
    property(model, ReactAgentProcess.PLAN, AgentSettings.AUTO_ACCEPT_PLAN, "true");
    property(model, ReactAgentProcess.THINK, AgentSettings.AUTO_ACCEPT_ANSWER, "true");
    property(model, ReactAgentProcess.THINK, AgentSettings.ALLOWED_TOOLS, "noop");
    deployOnce(key, model);

    // when its model goes round in circles
    String run = start(key, "noop-loop: no route out");

    // then an operator sees why in an incident, and the run keeps its trace
    RunView view = Runs.awaitStatus(runs, run, RunStatus.FAILED);
    assertThat(view.incident()).startsWith("The agent is going round in circles: the same call noop {} was made 5 times");
    assertEveryCallObserved(run);
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private String start(String agent, String question) {
    return engine.getRuntimeService().startProcessInstanceByKey(agent, ReactAgentProcess.QUESTION.with(question)).getId();
  }

  private Task awaitStuck(String run) {
    return Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
  }

  private Job runTimer(String run) {
    return engine.getManagementService().createJobQuery().processInstanceId(run).timers()
        .activityId(ReactAgentProcess.RUN_TIME_USED_UP).singleResult();
  }

  /** As Tasklist does it: a reviewer submits the form. */
  private void complete(Task task, Map<String, Object> fields) {
    engine.getIdentityService().setAuthentication("ann", List.of(AgentLoopGroups.REVIEWERS));
    try {
      VariableMap variables = Variables.createVariables();
      variables.putAll(fields);
      engine.getFormService().submitTaskForm(task.getId(), variables);
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }

  private void assertRefused(Task task, Map<String, Object> fields, String message) {
    assertThatThrownBy(() -> complete(task, fields)).hasRootCauseInstanceOf(ReviewException.class)
        .hasMessageContaining(message);
    assertThat(engine.getTaskService().createTaskQuery().taskId(task.getId()).count()).isOne();
  }

  /** A stop or an escape never leaves a tool call of the active path without its observation. */
  private void assertEveryCallObserved(String run) {
    List<Step> trace = runs.trace(run, false);
    Set<String> calls = trace.stream().filter(s -> s.kind() == ACTION).map(s -> s.text("callId")).collect(Collectors.toSet());
    Set<String> observed = trace.stream().filter(s -> s.kind() == OBSERVATION).map(s -> s.text("callId"))
        .collect(Collectors.toSet());
    assertThat(observed).containsAll(calls);
  }

  private String local(Task task, String name) {
    return String.valueOf(engine.getTaskService().getVariableLocal(task.getId(), name));
  }

  private Object variable(String run, String name) {
    return engine.getRuntimeService().getVariable(run, name);
  }

  private List<dev.agentloop.internal.trace.step.StepKind> kinds(String run) {
    return Runs.kinds(runs.trace(run, false));
  }

  private List<Step> steps(String run, dev.agentloop.internal.trace.step.StepKind kind) {
    return runs.trace(run, false).stream().filter(s -> s.kind() == kind).toList();
  }

  private Step lastStep(String run) {
    List<Step> trace = runs.trace(run, false);
    return trace.get(trace.size() - 1);
  }

  private double count(String meter, String tag, String value) {
    return metrics.registry().find(meter).tag(tag, value).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  private void deployOnce(String key, Map<String, String> properties) {
    if (engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count() == 0) {
      TestAgent.deployVariant(engine, key, properties);
    }
  }

  private void deployOnce(String key, BpmnModelInstance model) {
    if (engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count() == 0) {
      engine.getRepositoryService().createDeployment().addModelInstance(key + ".bpmn", model).deploy();
    }
  }

  private static void property(BpmnModelInstance model, String elementId, String name, String value) {
    org.camunda.bpm.model.bpmn.instance.BaseElement element = model.getModelElementById(elementId);
    org.camunda.bpm.model.bpmn.instance.ExtensionElements extensions = element.getExtensionElements();
    if (extensions == null) {
      extensions = model.newInstance(org.camunda.bpm.model.bpmn.instance.ExtensionElements.class);
      element.setExtensionElements(extensions);
      extensions.addChildElement(model.newInstance(CamundaProperties.class));
    }
    CamundaProperty property = model.newInstance(CamundaProperty.class);
    property.setCamundaName(name);
    property.setCamundaValue(value);
    extensions.getElementsQuery().filterByType(CamundaProperties.class).singleResult().addChildElement(property);
  }

  private static Map<String, String> with(Map<String, String> base, String name, String value) {
    Map<String, String> all = new java.util.HashMap<>(base);
    all.put(name, value);
    return all;
  }
}
