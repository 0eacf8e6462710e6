package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.impl.RepositoryServiceImpl;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * An agent's steps (plan, think, act) run in their loop's execution: Camunda would give every
 * external task an execution of its own, created and deleted again at each step (issue 19).
 */
@AgentLoopTest
class AgentStepExecutionTest {

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;

  @Test
  void should_run_a_step_in_the_loop_execution_and_still_answer() {
    // given a run whose second model call takes 1.5 s
    String runId = runs.start(TestAgent.KEY, "resume-slow: scope of a step");

    // when it waits for that call in think
    await().atMost(Runs.PATIENCE).until(() -> thinkTask(runId) != null
        && store.activePath(runId).stream().anyMatch(step -> step.kind() == StepKind.OBSERVATION));
    ExternalTask think = thinkTask(runId);

    // then the task is the loop's execution's: the instance has that one and its own, no third
    assertThat(think).isNotNull();
    assertThat(engine.getRuntimeService().createExecutionQuery().processInstanceId(runId).list())
        .extracting(execution -> execution.getId())
        .containsExactlyInAnyOrder(runId, think.getExecutionId());
    assertThat(engine.getRuntimeService().getActivityInstance(runId).getActivityInstances(ReactAgentProcess.THINK))
        .hasSize(1);
    // and the run goes on to its answer
    assertThat(Runs.awaitStatus(runs, runId, RunStatus.ANSWERED).finalAnswer())
        .isEqualTo("the product is what the calculator said");
  }

  @Test
  void should_keep_a_step_a_scope_where_the_diagram_needs_one() {
    // given an agent whose think task has a boundary timer and whose act task maps its input
    BpmnModelInstance model = TestAgent.variant("scoped-steps", Map.of());
    model.<ServiceTask>getModelElementById(ReactAgentProcess.THINK).builder()
        .boundaryEvent("thinkTooLong").timerWithDuration("PT1H").endEvent();
    model.<ServiceTask>getModelElementById(ReactAgentProcess.ACT).builder().camundaInputParameter("note", "kept");

    // when it is deployed
    String definitionId = engine.getRepositoryService().createDeployment().addModelInstance("scoped-steps.bpmn", model)
        .deployWithResult().getDeployedProcessDefinitions().get(0).getId();

    // then those two stay scopes, and plan, without either, runs in its parent's execution
    ProcessDefinitionEntity definition = (ProcessDefinitionEntity) ((RepositoryServiceImpl) engine
        .getRepositoryService()).getDeployedProcessDefinition(definitionId);
    assertThat(definition.findActivity(ReactAgentProcess.THINK).isScope()).isTrue();
    assertThat(definition.findActivity(ReactAgentProcess.ACT).isScope()).isTrue();
    assertThat(definition.findActivity(ReactAgentProcess.PLAN).isScope()).isFalse();
  }

  private ExternalTask thinkTask(String runId) {
    return engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(runId)
        .activityId(ReactAgentProcess.THINK).singleResult();
  }
}
