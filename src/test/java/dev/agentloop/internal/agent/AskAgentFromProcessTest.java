package dev.agentloop.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.resume.ResumeConflictException;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.EndEvent;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * An agent as a step of a business process: the example host's refund process asks the default agent through a call
 * activity (element template "Ask an agent") and routes on the run's outcome. Whatever the run's end — answered,
 * its plan rejected, stopped by a person — the calling process continues with the outcome, the reason and the run id;
 * stopping the run never deletes its caller.
 */
@AgentLoopTest
class AskAgentFromProcessTest {

  private static final Path REFUND_PROCESS = Path.of("examples/host-app/src/main/resources/bpmn/refund-request.bpmn");
  private static final Path DEFAULT_AGENT = Path.of("processes/react-agent.bpmn");
  private static final String PROCESS_KEY = "refund-request";

  @Autowired ProcessEngine engine;
  @Autowired ResumeService resume;
  @Autowired StepStore store;

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) throws IOException {
    try (InputStream diagram = Files.newInputStream(REFUND_PROCESS)) {
      engine.getRepositoryService().createDeployment().name("refund-request example")
          .addInputStream("refund-request.bpmn", diagram).enableDuplicateFiltering(true).deploy();
    }
  }

  @Test
  void should_continue_the_caller_with_the_answer_the_outcome_and_the_run_id() {
    // given a refund request whose agent run waits for its plan review
    ProcessInstance caller = startRefundRequest("A-17");
    String run = childRun(caller);

    // when the reviewer accepts the plan and then the answer
    decide(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN), "accept");
    decide(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER), "accept");

    // then the caller goes on to send the answer, with what the run found
    Task next = awaitCallerTask(caller, "sendAnswer");
    assertThat(variable(next, "agentOutcome")).isEqualTo("ANSWERED");
    assertThat(variable(next, "agentAnswer")).isEqualTo("Yes: the order is within the 30 days of the refund policy.");
    assertThat(variable(next, "agentRunId")).isEqualTo(run);
    assertThat(store.run(run).status()).isEqualTo(RunStatus.ANSWERED);
  }

  @Test
  void should_continue_the_caller_with_outcome_rejected_when_the_plan_is_rejected() {
    ProcessInstance caller = startRefundRequest("B-4");
    String run = childRun(caller);

    decide(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN), "reject", "feedback", "refunds are not for agents");

    Task next = awaitCallerTask(caller, "handleByHand");
    assertThat(variable(next, "agentOutcome")).isEqualTo("REJECTED");
    assertThat(variable(next, "agentAnswer")).isNull();
    assertThat((String) variable(next, "agentStatusReason")).contains("refunds are not for agents");
  }

  @Test
  void should_continue_the_caller_with_outcome_stopped_when_a_person_stops_the_run() {
    // given a run that waits for its plan review inside the caller
    ProcessInstance caller = startRefundRequest("C-9");
    String run = childRun(caller);
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);

    // when an operator stops the run
    resume.stop(run, "the customer withdrew the request", "olga");

    // then the run ended stopped, through its end event, and the caller was not terminated but goes on
    assertThat(store.run(run).status()).isEqualTo(RunStatus.STOPPED);
    assertThat(store.run(run).statusReason()).isEqualTo("stopped by olga: the customer withdrew the request");
    assertThat(Runs.kinds(store.activePath(run))).endsWith(StepKind.HUMAN_INPUT);
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceId(caller.getId())
        .singleResult().getState()).isEqualTo("ACTIVE");
    Task next = awaitCallerTask(caller, "handleByHand");
    assertThat(variable(next, "agentOutcome")).isEqualTo("STOPPED");
    assertThat(variable(next, "agentStatusReason")).isEqualTo("stopped by olga: the customer withdrew the request");
    assertThat(variable(next, "agentRunId")).isEqualTo(run);
  }

  @Test
  void should_end_a_called_run_with_its_answer_even_where_its_agent_holds_conversations() throws IOException {
    // given an agent that waits for follow-up questions after its answers, asked by a business process
    String key = "conversing-agent";
    dev.agentloop.TestAgent.deployVariant(engine, key, Map.of(AgentSettings.CONVERSATION, "true",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    engine.getRepositoryService().createDeployment()
        .addString(PROCESS_KEY + "-3.bpmn", Files.readString(REFUND_PROCESS)
            .replace("id=\"" + PROCESS_KEY + "\"", "id=\"" + PROCESS_KEY + "-3\"")
            .replace("calledElement=\"react-agent\"", "calledElement=\"" + key + "\""))
        .deploy();

    // when
    ProcessInstance caller = engine.getRuntimeService().startProcessInstanceByKey(PROCESS_KEY + "-3", "order-E-5",
        Map.of("orderId", "E-5", "customerMessage", "Still waiting."));

    // then the run answers once and ends, so that its caller goes on: nobody could ask it a follow-up
    Task next = awaitCallerTask(caller, "sendAnswer");
    assertThat(variable(next, "agentOutcome")).isEqualTo("ANSWERED");
    assertThat(store.run((String) variable(next, "agentRunId")).status()).isEqualTo(RunStatus.ANSWERED);
  }

  @Test
  void should_refuse_to_stop_a_called_run_whose_diagram_cannot_end_stopped_and_delete_nothing() throws IOException {
    // given an agent copied without the 'stopped' end event, called by a process
    String key = "agent-without-stopped-end";
    String caller = Files.readString(REFUND_PROCESS);
    BpmnModelInstance model = Bpmn.readModelFromFile(DEFAULT_AGENT.toFile());
    model.getModelElementsByType(Process.class).forEach(process -> process.setId(key));
    model.<EndEvent>getModelElementById(ReactAgentProcess.STOPPED).setId("endedByPerson");
    engine.getRepositoryService().createDeployment().addModelInstance(key + ".bpmn", model).deploy();
    engine.getRepositoryService().createDeployment()
        .addString(PROCESS_KEY + "-2.bpmn", caller.replace("id=\"" + PROCESS_KEY + "\"", "id=\"" + PROCESS_KEY + "-2\"")
            .replace("calledElement=\"react-agent\"", "calledElement=\"" + key + "\""))
        .deploy();
    ProcessInstance instance = engine.getRuntimeService().startProcessInstanceByKey(PROCESS_KEY + "-2", "order-D-1",
        Map.of("orderId", "D-1", "customerMessage", "late"));
    String run = childRun(instance);
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN);

    // when / then
    assertThatThrownBy(() -> resume.stop(run, "no longer needed", "olga"))
        .isInstanceOf(ResumeConflictException.class)
        .hasMessageContaining("stopping it would delete the calling process too");
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(instance.getId()).count())
        .isOne();
    assertThat(store.run(run).status().isFinished()).isFalse();
    assertThat(Runs.kinds(store.activePath(run))).doesNotContain(StepKind.HUMAN_INPUT);
  }

  private ProcessInstance startRefundRequest(String orderId) {
    return engine.getRuntimeService().startProcessInstanceByKey(PROCESS_KEY, "order-" + orderId,
        Map.of("orderId", orderId, "customerMessage", "The parcel arrived broken."));
  }

  private String childRun(ProcessInstance caller) {
    ProcessInstance run = engine.getRuntimeService().createProcessInstanceQuery()
        .superProcessInstanceId(caller.getId()).singleResult();
    assertThat(run).as("the agent run called by " + caller.getId()).isNotNull();
    assertThat(run.getBusinessKey()).isEqualTo(caller.getBusinessKey());
    return run.getId();
  }

  private Task awaitCallerTask(ProcessInstance caller, String taskKey) {
    return Runs.awaitTask(engine, caller.getId(), taskKey);
  }

  private Object variable(Task task, String name) {
    return engine.getRuntimeService().getVariable(task.getProcessInstanceId(), name);
  }

  private void decide(Task task, String decision, String... more) {
    Map<String, Object> fields = new HashMap<>(Map.of("decision", decision));
    for (int i = 0; i < more.length; i += 2) {
      fields.put(more[i], more[i + 1]);
    }
    Runs.submitForm(engine, task, "rita", fields);
  }
}
