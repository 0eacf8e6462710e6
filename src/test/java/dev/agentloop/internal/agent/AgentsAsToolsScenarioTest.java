package dev.agentloop.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ModelCalls;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.BudgetUse;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resume.ResumeResult;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.resume.StepEdit;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Observation;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.repository.DeploymentBuilder;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.CallActivity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Agents as tools of other agents, on the real engine with the scripted model: a coordinator names a child agent in
 * its allowedTools, the model calls it like a tool, the call activity callAgent runs the child as a run of its own,
 * and the child's answer (or its outcome) is the call's observation, which the coordinator's model reads next.
 */
@AgentLoopTest
class AgentsAsToolsScenarioTest {

  private static final String CHILD = "child-agent";
  private static final String REVIEWED_CHILD = "reviewed-child-agent";
  private static final String COORDINATOR = "coordinator-agent";
  private static final String REVIEWED_COORDINATOR = "reviewed-coordinator-agent";

  @Autowired ProcessEngine engine;
  @Autowired StepStore store;
  @Autowired ResumeService resume;
  @Autowired RunInsights insights;
  @Autowired RunService runs;

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) {
    TestAgent.deployVariant(engine, CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, REVIEWED_CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS,
        "calculator, " + CHILD + ", " + REVIEWED_CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, REVIEWED_COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, " + CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true"));
  }

  @Test
  void should_run_a_child_agent_for_a_call_and_give_its_answer_to_the_coordinators_model() {
    // when
    String run = start(COORDINATOR, "coordinate: what does the child say?");

    // then the child ran as a run of its own, called by the coordinator, and answered the call
    awaitEnded(run);
    assertThat(store.run(run).status()).isEqualTo(RunStatus.ANSWERED);
    Observation observed = observations(run).get(0);
    assertThat(observed.tool()).isEqualTo(CHILD);
    assertThat(observed.result()).isEqualTo("4");
    assertThat(observed.childRun()).isNotNull();
    assertThat(store.run(observed.childRun()).agentKey()).isEqualTo(CHILD);
    assertThat(store.run(observed.childRun()).question()).isEqualTo("child: what is 2 + 2?");
    assertThat(store.run(observed.childRun()).status()).isEqualTo(RunStatus.ANSWERED);
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(observed.childRun())
        .singleResult().getSuperProcessInstanceId()).isEqualTo(run);
    // the scripted model answers so only when the tool result it read was the child's answer
    assertThat(finalAnswer(run)).isEqualTo("The child agent says 4.");
    // the coordinator's own use: its plan and two turns, one call of an agent; what the child used counts against
    // the coordinator's budget too, as the view of it says
    var child = store.run(observed.childRun());
    assertThat(child.modelCalls()).isPositive();
    assertThat(store.run(run).modelCalls()).isEqualTo(3);
    assertThat(store.run(run).toolCalls()).isEqualTo(1);
    BudgetUse budgets = runs.view(run).budgets();
    assertThat(budgets.modelCalls()).isEqualTo(new BudgetUse.Amount(3 + child.modelCalls(), 40L, 3));
    assertThat(budgets.toolCalls().used()).isEqualTo(1 + child.toolCalls());
    assertThat(budgets.toolCalls().own()).isEqualTo(1);
    // the child started with at most what the coordinator had left: 40 less its plan and turn, its agent's 60 tools
    assertThat(child.budget().maxModelCalls()).isEqualTo(38);
    assertThat(ModelCalls.received(List.of(run, child.runId()))).isEqualTo(budgets.modelCalls().used());
  }

  @Test
  void should_run_two_calls_of_agents_of_one_turn_each_in_a_child_run_of_its_own() {
    String run = start(COORDINATOR, "coordinate-two: ask twice");

    awaitEnded(run);
    List<Observation> observed = observations(run);
    assertThat(observed).extracting(Observation::result).containsExactly("4", "6");
    assertThat(observed).extracting(Observation::childRun).doesNotHaveDuplicates().doesNotContainNull();
    assertThat(finalAnswer(run)).isEqualTo("4 and 6");
  }

  @Test
  void should_run_the_calls_of_agents_of_one_reply_in_parallel_and_observe_them_in_the_order_of_the_calls() {
    // given a coordinator whose model calls two agents in one reply, each child waiting in its plan review
    String run = start(COORDINATOR, "coordinate-parallel: ask both at once");
    List<ProcessInstance> children = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().superProcessInstanceId(run).list(), list -> list.size() == 2);
    Task first = reviewOf(children, "child: what is 2 + 2?");
    Task second = reviewOf(children, "child: what is 3 + 3?");

    // then both child runs exist and are active at the same time, each started by its own instance of callAgent
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().superProcessInstanceId(run).active().count())
        .isEqualTo(2);
    assertThat(engine.getRuntimeService().getActivityInstance(run)
        .getActivityInstances(ReactAgentProcess.CALL_AGENT)).hasSize(2);
    assertThat(store.run(run).status().isFinished()).isFalse();

    // when the second call's child answers first
    submit(second, Map.of("decision", "accept"));
    String secondRun = second.getProcessInstanceId();
    await().atMost(Runs.PATIENCE).until(() -> store.run(secondRun).status() == RunStatus.ANSWERED);
    // then the coordinator still waits for the first, and has observed nothing yet
    // (the child's end left a job of the coordinator's: callAgent is asynchronous after)
    await().atMost(Runs.PATIENCE).until(() -> engine.getManagementService().createJobQuery().processInstanceId(run)
        .messages().count() == 0);
    assertThat(observations(run)).isEmpty();
    assertThat(engine.getRuntimeService().getActivityInstance(run)
        .getActivityInstances(ReactAgentProcess.CALL_AGENT)).hasSize(1);

    // when the first answers too
    submit(first, Map.of("decision", "accept"));

    // then both answers are observed in the order of the calls, and the model read them so
    awaitEnded(run);
    List<Observation> observed = observations(run);
    assertThat(observed).extracting(Observation::result).containsExactly("4", "6");
    assertThat(observed).extracting(Observation::childRun)
        .containsExactly(first.getProcessInstanceId(), secondRun);
    assertThat(finalAnswer(run)).isEqualTo("4 and 6");
    Step answer = store.activePath(run).stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER).findFirst()
        .orElseThrow();
    List<String> toolResults = new java.util.ArrayList<>();
    insights.prompt(run, answer.stepNo()).orElseThrow().messages().forEach(message -> {
      if ("tool".equals(message.path("role").asText())) {
        toolResults.add(message.path("text").asText());
      }
    });
    assertThat(toolResults).containsExactly("4", "6");
    // both children's use counts against the coordinator's budget: its plan, two turns, and two calls of agents
    assertThat(store.run(run).modelCalls()).isEqualTo(3);
    assertThat(store.run(run).toolCalls()).isEqualTo(2);
    assertThat(runs.view(run).budgets().modelCalls().used()).isEqualTo(3
        + store.run(first.getProcessInstanceId()).modelCalls() + store.run(secondRun).modelCalls());
  }

  @Test
  void should_refuse_at_deployment_an_agent_that_names_an_agent_that_is_not_deployed() {
    assertThatThrownBy(() -> TestAgent.deployVariant(engine, "typo-agent",
        Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, " + CHILD + "-typo")))
        .hasMessageContaining("names the unknown tool '" + CHILD + "-typo'")
        .hasMessageContaining(CHILD);
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("typo-agent").count())
        .isZero();
  }

  @Test
  void should_run_the_calls_one_after_another_where_a_diagram_draws_callAgent_as_a_single_activity() {
    // given a coordinator whose diagram predates parallel calls: callAgent is one activity, not multi-instance
    BpmnModelInstance single = TestAgent.variant("single-call-coordinator", Map.of(AgentSettings.ALLOWED_TOOLS,
        "calculator, " + CHILD, AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    CallActivity callAgent = single.getModelElementById(ReactAgentProcess.CALL_AGENT);
    callAgent.removeChildElement(callAgent.getLoopCharacteristics());
    callAgent.setCamundaAsyncAfter(false);
    engine.getRepositoryService().createDeployment().addModelInstance("single-call-coordinator.bpmn", single).deploy();

    // when its model calls the child twice in one reply
    String run = start("single-call-coordinator", "coordinate-two: one after the other");

    // then each call ran in a child run of its own, and both are observed in the order of the calls
    awaitEnded(run);
    List<Observation> observed = observations(run);
    assertThat(observed).extracting(Observation::result).containsExactly("4", "6");
    assertThat(observed).extracting(Observation::childRun).doesNotHaveDuplicates().doesNotContainNull();
    assertThat(finalAnswer(run)).isEqualTo("4 and 6");
  }

  @Test
  void should_observe_that_the_child_did_not_answer_when_a_person_rejected_its_plan() {
    // given a child whose plan waits for a review
    String run = start(COORDINATOR, "coordinate-reviewed: ask the reviewed child");
    ProcessInstance child = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().superProcessInstanceId(run).singleResult(), instance -> instance != null);
    Task review = Runs.awaitTask(engine, child.getId(), ReactAgentProcess.REVIEW_PLAN);
    assertThat(store.run(run).status().isFinished()).isFalse();
    // the reviewer's inbox says which conversation the child's task serves
    assertThat((String) engine.getTaskService().getVariableLocal(review.getId(), "subject"))
        .isEqualTo("[coordinate-reviewed: ask the re…] child: what is 2 + 2?");

    // when the reviewer rejects the child's plan
    submit(review, Map.of("decision", "reject", "feedback", "not for this customer"));

    // then the coordinator goes on, and its model reads why there is no answer
    awaitEnded(run);
    Observation observed = observations(run).get(0);
    assertThat(observed.error()).isEqualTo("the agent '" + REVIEWED_CHILD + "' did not answer: a person rejected its"
        + " plan: " + store.run(child.getId()).statusReason());
    assertThat(observed.error()).contains("not for this customer");
    assertThat(observed.failure()).isEqualTo("rejected");
    assertThat(finalAnswer(run)).isEqualTo("The child agent could not answer.");
  }

  @Test
  void should_cancel_the_child_when_the_coordinator_is_stopped() {
    String run = start(COORDINATOR, "coordinate-reviewed: stop us both");
    ProcessInstance child = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().superProcessInstanceId(run).singleResult(), instance -> instance != null);
    Runs.awaitTask(engine, child.getId(), ReactAgentProcess.REVIEW_PLAN);

    resume.stop(run, "the customer called", "olga");

    assertThat(store.run(run).status()).isEqualTo(RunStatus.STOPPED);
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(child.getId()).count())
        .isZero();
    assertThat(store.run(child.getId()).status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(engine.getTaskService().createTaskQuery().processInstanceId(child.getId()).count()).isZero();
  }

  @Test
  void should_cancel_every_child_running_in_parallel_when_the_coordinator_is_stopped() {
    // given two children of one reply, both waiting in their plan reviews
    String run = start(COORDINATOR, "coordinate-parallel: stop us all");
    List<ProcessInstance> children = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().superProcessInstanceId(run).list(), list -> list.size() == 2);
    children.forEach(child -> Runs.awaitTask(engine, child.getId(), ReactAgentProcess.REVIEW_PLAN));

    // when the coordinator is stopped
    resume.stop(run, "the customer called", "olga");

    // then neither child outlives it, and the calls are closed as stopped, answered by no child
    assertThat(store.run(run).status()).isEqualTo(RunStatus.STOPPED);
    for (ProcessInstance child : children) {
      assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(child.getId()).count())
          .isZero();
      assertThat(store.run(child.getId()).status()).isEqualTo(RunStatus.CANCELLED);
    }
    assertThat(engine.getTaskService().createTaskQuery().processInstanceIdIn(children.stream()
        .map(ProcessInstance::getId).toArray(String[]::new)).count()).isZero();
    assertThat(observations(run)).hasSize(2).allSatisfy(observed -> {
      assertThat(observed.error()).startsWith("no result: the run was stopped by olga");
      assertThat(observed.childRun()).isNull();
    });
  }

  @Test
  void should_answer_the_call_again_when_a_person_edits_a_step_of_the_finished_child() {
    // given a coordinator waiting in answer review with the answer of a finished child, which computed 2 + 2
    String run = start(REVIEWED_COORDINATOR, "coordinate-edit: what does the child say?");
    awaitAnswers(run, 1);
    assertThat(finalAnswer(run)).isEqualTo("The child agent says 4.");
    String child = observations(run).get(0).childRun();
    assertThat(store.run(child).status()).isEqualTo(RunStatus.ANSWERED);
    Step computed = store.activePath(child).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .findFirst().orElseThrow();
    int coordinatorCalls = store.run(run).modelCalls();

    // when an operator edits the child's observation
    ResumeResult result = resume.edit(new StepEdit(child, computed.stepNo(), json("{\"result\": \"5\"}"),
        "recounted", store.run(child).head().version(), "olga"));

    // then the child is started again from the edit, and its new answer replaces the coordinator's observation
    String reopened = result.runId();
    assertThat(reopened).isNotEqualTo(child);
    assertThat(result.continuesAt()).isEqualTo(ReactAgentProcess.THINK);
    awaitAnswers(run, 2);
    assertThat(finalAnswer(reopened)).isEqualTo("5");
    assertThat(store.run(reopened).restartedFrom().runId()).isEqualTo(child);
    Observation replaced = observations(run).get(0);
    assertThat(replaced.result()).isEqualTo("5");
    assertThat(replaced.childRun()).isEqualTo(reopened);
    assertThat(finalAnswer(run)).isEqualTo("The child agent says 5.");
    // exactly the model calls after the edit: one in the child, one in the coordinator
    assertThat(store.run(reopened).modelCalls()).isEqualTo(1);
    assertThat(store.run(run).modelCalls()).isEqualTo(coordinatorCalls + 1);
    // the old answer stays stored, superseded, and the old child keeps its trace
    assertThat(store.allSteps(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .map(step -> step.contentAs(Observation.class)).map(Observation::childRun)).contains(child, reopened);
    assertThat(store.run(child).status()).isEqualTo(RunStatus.ANSWERED);
  }

  @Test
  void should_refuse_to_reopen_a_child_whose_caller_has_ended_and_change_nothing() {
    String run = start(COORDINATOR, "coordinate: and then it ended");
    awaitEnded(run);
    String child = observations(run).get(0).childRun();
    Step plan = store.activePath(child).get(0);
    int steps = store.allSteps(child).size();

    assertThatThrownBy(() -> resume.edit(new StepEdit(child, plan.stepNo(), json("{\"steps\": [\"Guess\"]}"),
        "too late", store.run(child).head().version(), "olga")))
        .isInstanceOf(dev.agentloop.internal.resume.ResumeConflictException.class)
        .hasMessageContaining("run " + run + " has ended");
    assertThat(store.allSteps(child)).hasSize(steps);
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processDefinitionKey(CHILD)
        .variableValueEquals(ReactAgentProcess.REANSWERS.name(), run + "/" + observationStep(run)).count()).isZero();
  }

  @Test
  void should_refuse_at_deployment_an_agent_that_calls_itself_or_a_cycle_of_agents() {
    assertThatThrownBy(() -> TestAgent.deployVariant(engine, "self-agent",
        Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, self-agent")))
        .hasMessageContaining("names the agent 'self-agent', which leads back to this agent: self-agent → self-agent");

    DeploymentBuilder cycle = engine.getRepositoryService().createDeployment().name("a cycle of agents")
        .addModelInstance("loop-a.bpmn", TestAgent.variant("loop-a", Map.of(AgentSettings.ALLOWED_TOOLS, "loop-b")))
        .addModelInstance("loop-b.bpmn", TestAgent.variant("loop-b", Map.of(AgentSettings.ALLOWED_TOOLS, "loop-a")));
    // whichever of the two the engine parses first is refused, naming the cycle from itself
    assertThatThrownBy(cycle::deploy)
        .hasMessageMatching("(?s).*(loop-a → loop-b → loop-a|loop-b → loop-a → loop-b); agents may not call .*");
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("loop-a").count())
        .isZero();
  }

  @Test
  void should_refuse_calls_of_agents_past_the_depth_limit_with_an_observation_the_model_reads() {
    // given five agents deployed together, each calling the next: depth-a → depth-b → … → depth-e
    DeploymentBuilder chain = engine.getRepositoryService().createDeployment().name("a chain of agents");
    List<String> keys = List.of("depth-a", "depth-b", "depth-c", "depth-d", "depth-e");
    for (int i = 0; i < keys.size(); i++) {
      String allowed = i + 1 < keys.size() ? keys.get(i + 1) : "calculator";
      chain.addModelInstance(keys.get(i) + ".bpmn", TestAgent.variant(keys.get(i), Map.of(AgentSettings.ALLOWED_TOOLS,
          allowed, AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true")));
    }
    chain.deploy();

    // when the top one is asked
    String run = start("depth-a", "depth-1: go");

    // then depth-d, three calls below the top, may not call depth-e, and says so; the others answer up the chain
    awaitEnded(run);
    assertThat(finalAnswer(run)).isEqualTo("depth 1 done");
    String b = observations(run).get(0).childRun();
    String c = observations(b).get(0).childRun();
    String d = observations(c).get(0).childRun();
    assertThat(store.run(d).agentKey()).isEqualTo("depth-d");
    Observation refused = observations(d).get(0);
    assertThat(refused.childRun()).isNull();
    assertThat(refused.failure()).isEqualTo(Observation.NOT_RUN);
    assertThat(refused.error()).contains("agents call agents at most 3 deep (agentloop.agent.max-agent-depth)");
    assertThat(finalAnswer(d)).isEqualTo("too deep at 4");
  }

  /** The plan review of the child run that was asked this question. */
  private Task reviewOf(List<ProcessInstance> children, String question) {
    String child = children.stream().filter(instance -> question.equals(store.run(instance.getId()).question()))
        .findFirst().orElseThrow().getId();
    return Runs.awaitTask(engine, child, ReactAgentProcess.REVIEW_PLAN);
  }

  private String start(String agent, String question) {
    return engine.getRuntimeService().startProcessInstanceByKey(agent, ReactAgentProcess.QUESTION.with(question))
        .getId();
  }

  /** Waits until the run waits in answer review with this many answers written (any branch). */
  private void awaitAnswers(String run, int answers) {
    await().atMost(Runs.PATIENCE).until(() -> store.allSteps(run).stream()
        .filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers
        && engine.getTaskService().createTaskQuery().processInstanceId(run)
            .taskDefinitionKey(ReactAgentProcess.REVIEW_ANSWER).count() == 1);
  }

  private static com.fasterxml.jackson.databind.JsonNode json(String text) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private void awaitEnded(String run) {
    await().atMost(Runs.PATIENCE).until(() -> store.run(run).status().isFinished());
  }

  private int observationStep(String run) {
    return store.activePath(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION).findFirst()
        .orElseThrow().stepNo();
  }

  private List<Observation> observations(String run) {
    return store.activePath(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .map(step -> step.contentAs(Observation.class)).toList();
  }

  private String finalAnswer(String run) {
    List<Step> path = store.activePath(run);
    return path.stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER)
        .map(step -> step.text("text")).reduce((first, last) -> last).orElse(null);
  }

  private void submit(Task task, Map<String, Object> fields) {
    Runs.submitForm(engine, task, "rita", fields);
  }
}
