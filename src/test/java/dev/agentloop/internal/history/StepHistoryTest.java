package dev.agentloop.internal.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.history.HistoryLevel;
import org.camunda.bpm.engine.impl.history.event.HistoryEventTypes;
import org.camunda.bpm.engine.impl.persistence.entity.ExternalTaskEntity;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Camunda's history of an agent run keeps what Cockpit and Tasklist show, without the records of
 * every step that the step store holds already, and a process of the host keeps all of its history.
 */
@AgentLoopTest
class StepHistoryTest {

  private static final Set<String> STEP_TASKS =
      Set.of(ReactAgentProcess.PLAN, ReactAgentProcess.THINK, ReactAgentProcess.ACT);

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @Test
  void should_leave_the_agents_step_tasks_and_gateways_out_of_the_activity_history() {
    // when
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
        ReactAgentProcess.QUESTION.with("multi-step: What is 17 * 23 plus the days of a leap year?")).getId();
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

    // then the steps are in the trace, not in the activity history
    assertThat(runs.trace(run, false)).hasSize(8);
    HistoryService history = engine.getHistoryService();
    List<HistoricActivityInstance> activities =
        history.createHistoricActivityInstanceQuery().processInstanceId(run).list();
    assertThat(activities).extracting(HistoricActivityInstance::getActivityId)
        .doesNotContainAnyElementsOf(STEP_TASKS)
        .contains(ReactAgentProcess.AGENT_LOOP, ReactAgentProcess.ANSWERED);
    assertThat(activities).extracting(HistoricActivityInstance::getActivityType).doesNotContain("exclusiveGateway");
    // the run itself, its variables and its end stay in history
    assertThat(history.createHistoricProcessInstanceQuery().processInstanceId(run).singleResult().getEndTime())
        .isNotNull();
    assertThat(history.createHistoricVariableInstanceQuery().processInstanceId(run)
        .variableName(ReactAgentProcess.FINAL_ANSWER.name()).singleResult().getValue()).isEqualTo("757");
  }

  @Test
  void should_keep_the_history_of_review_tasks() {
    // given a run that waits for its plan to be reviewed
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED,
        ReactAgentProcess.QUESTION.with("multi-step: reviewed")).getId();
    await().atMost(Runs.PATIENCE).until(() -> engine.getTaskService().createTaskQuery().processInstanceId(run)
        .count() == 1);
    Task review = engine.getTaskService().createTaskQuery().processInstanceId(run).singleResult();

    // then Tasklist's task and its activity are in history, and the plan step before it is not
    assertThat(review.getTaskDefinitionKey()).isEqualTo(ReactAgentProcess.REVIEW_PLAN);
    HistoryService history = engine.getHistoryService();
    assertThat(history.createHistoricTaskInstanceQuery().taskId(review.getId()).count()).isOne();
    assertThat(history.createHistoricActivityInstanceQuery().processInstanceId(run)
        .activityId(ReactAgentProcess.REVIEW_PLAN).count()).isOne();
    assertThat(history.createHistoricActivityInstanceQuery().processInstanceId(run)
        .activityId(ReactAgentProcess.PLAN).count()).isZero();
    engine.getRuntimeService().deleteProcessInstance(run, "test done");
  }

  @Test
  void should_keep_all_history_of_a_process_that_is_not_an_agent() {
    // given a host process with a gateway, an external task and a user task
    engine.getRepositoryService().createDeployment().addModelInstance("host-process.bpmn",
        Bpmn.createExecutableProcess("host-process").camundaHistoryTimeToLive(1)
            .startEvent().exclusiveGateway("hostGateway")
            .serviceTask("hostTask").camundaExternalTask("host.topic")
            .userTask("hostReview").endEvent("hostDone").done()).deploy();
    String instance = engine.getRuntimeService().startProcessInstanceByKey("host-process").getId();

    // when it runs to its end
    var task = engine.getExternalTaskService().fetchAndLock(1, "host-worker").topic("host.topic", 60_000)
        .execute().get(0);
    engine.getExternalTaskService().complete(task.getId(), "host-worker", Map.of());
    engine.getTaskService().complete(engine.getTaskService().createTaskQuery().processInstanceId(instance)
        .singleResult().getId());

    // then every element it passed is in history
    assertThat(engine.getHistoryService().createHistoricActivityInstanceQuery().processInstanceId(instance).list())
        .extracting(HistoricActivityInstance::getActivityId)
        .contains("hostGateway", "hostTask", "hostReview", "hostDone");
  }

  @Test
  void should_keep_the_hosts_history_level_and_the_log_of_step_failures() {
    HistoryLevel level = ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getHistoryLevel();
    assertThat(level.getName()).isEqualTo(engine.getProcessEngineConfiguration().getHistory());

    // at level full, the external-task log keeps a step's failure and everything of other topics
    HistoryLevel full = new StepHistory(Set.of(ReactAgentProcess.TOPIC_THINK)).historyLevel(HistoryLevel.HISTORY_LEVEL_FULL);
    assertThat(full).isEqualTo(HistoryLevel.HISTORY_LEVEL_FULL);
    assertThat(full.getId()).isEqualTo(HistoryLevel.HISTORY_LEVEL_FULL.getId());
    ExternalTaskEntity think = new ExternalTaskEntity();
    think.setTopicName(ReactAgentProcess.TOPIC_THINK);
    ExternalTaskEntity host = new ExternalTaskEntity();
    host.setTopicName("host.topic");
    assertThat(full.isHistoryEventProduced(HistoryEventTypes.EXTERNAL_TASK_SUCCESS, think)).isFalse();
    assertThat(full.isHistoryEventProduced(HistoryEventTypes.EXTERNAL_TASK_FAIL, think)).isTrue();
    assertThat(full.isHistoryEventProduced(HistoryEventTypes.EXTERNAL_TASK_SUCCESS, host)).isTrue();
    assertThat(full.isHistoryEventProduced(HistoryEventTypes.INCIDENT_CREATE, null)).isTrue();
  }
}
