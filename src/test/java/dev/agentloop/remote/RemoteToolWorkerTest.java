package dev.agentloop.remote;

import static dev.agentloop.internal.trace.step.StepKind.ACTION;
import static dev.agentloop.internal.trace.step.StepKind.FINAL_ANSWER;
import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.PLAN;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepCost;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.camunda.bpm.client.backoff.ErrorAwareBackoffStrategy;
import org.camunda.bpm.client.exception.ExternalTaskClientException;
import org.camunda.bpm.client.task.ExternalTask;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngines;
import org.camunda.bpm.engine.externaltask.ExternalTaskQuery;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The agent's calls of a remote tool ({@code crm_lookup}, declared in the test profile) are served
 * only by the example remote worker, over the engine REST API with HTTP Basic authentication. Every
 * worker here is a real {@link CrmLookupWorker} with Camunda's client, talking HTTP to the app.
 */
@AgentLoopTest
class RemoteToolWorkerTest {

  private static final String WORKER_ID = "remote-crm-worker";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired RunInsights insights;

  private final List<CrmLookupWorker> workers = new ArrayList<>();

  @BeforeEach
  void initAssertions() {
    BpmnAwareTests.init(engine);
    // /engine-rest serves the engine registered JVM-wide as "default"; another Spring context must not own that name
    assertThat(ProcessEngines.getDefaultProcessEngine()).as("the engine behind /engine-rest").isSameAs(engine);
  }

  @AfterEach
  void stopWorkers() {
    workers.forEach(CrmLookupWorker::close);
  }

  @Test
  void should_have_the_remote_worker_alone_run_the_remote_calls_of_a_turn() {
    // given
    worker("worker", "worker", new CrmLookupWorker.SampleCrm(), 3);

    // when one turn calls a local tool and the remote tool three times, once with arguments that break its schema
    ProcessInstance instance = start("remote-tool: who is C-100, and C-999?");
    String run = instance.getId();
    RunView view = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

    // then the local call ran here, the bad one never left, and the worker served the other two, in order
    List<Step> trace = runs.trace(run, false);
    assertThat(Runs.kinds(trace)).containsExactly(PLAN, THOUGHT, ACTION, ACTION, ACTION, ACTION,
        OBSERVATION, OBSERVATION, OBSERVATION, OBSERVATION, FINAL_ANSWER);
    Step calculator = trace.get(6);
    Step refused = trace.get(7);
    Step found = trace.get(8);
    Step missing = trace.get(9);
    assertThat(calculator.author()).isEqualTo("calculator");
    assertThat(calculator.json().has("worker")).isFalse();
    assertThat(refused.author()).isEqualTo("agentloop");
    assertThat(refused.text("error")).contains("arguments for 'crm_lookup' do not match its schema");
    assertThat(found.author()).isEqualTo(CrmLookupWorker.TOOL);
    assertThat(found.text("worker")).isEqualTo(WORKER_ID);
    assertThat(found.text("callId")).isEqualTo(trace.get(3).text("callId"));
    assertThat(found.text("result")).isEqualTo("C-100: Ada Lovelace, tier gold, customer since 2019, open tickets: 1");
    assertThat(missing.text("worker")).isEqualTo(WORKER_ID);
    assertThat(missing.text("callId")).isEqualTo(trace.get(5).text("callId"));
    assertThat(missing.text("error")).isEqualTo("there is no customer with id C-999");
    // what the run waited for each remote call is kept beside its observation, as for a local one
    Map<Integer, StepCost> costs = insights.costs(run);
    assertThat(costs.get(found.stepNo()).latencyMillis()).isNotNull().isNotNegative();
    assertThat(costs.get(missing.stepNo()).latencyMillis()).isNotNull().isNotNegative();
    assertThat(costs.get(calculator.stepNo()).latencyMillis()).isNotNull();
    assertThat(view.toolCalls()).isEqualTo(3);
    assertThat(view.finalAnswer()).isEqualTo("C-100 is Ada Lovelace; there is no customer C-999.");
    BpmnAwareTests.assertThat(instance).isEnded()
        .hasPassed(ReactAgentProcess.CALL_REMOTE_TOOL, ReactAgentProcess.ANSWERED);
    assertThat(engine.getHistoryService().createHistoricActivityInstanceQuery().processInstanceId(run)
        .activityId(ReactAgentProcess.CALL_REMOTE_TOOL).count()).isEqualTo(2);
  }

  @Test
  void should_keep_the_call_waiting_while_no_remote_worker_runs_and_lose_nothing() {
    // given no worker for the tool
    ProcessInstance instance = start("remote-wait: who is C-200?");
    String run = instance.getId();
    awaitRemoteTask(run);

    // when the embedded worker takes a whole other run from question to answer meanwhile (many fetches)
    Runs.awaitStatus(runs, start("no script for this one").getId(), RunStatus.ANSWERED);

    // then nobody took the call: the run waits, neither failed nor observed
    assertThat(remoteTask(run).singleResult().getWorkerId()).isNull();
    RunView waiting = runs.view(run);
    assertThat(waiting.status()).isEqualTo(RunStatus.RUNNING);
    assertThat(waiting.incident()).isNull();
    assertThat(Runs.kinds(runs.trace(run, false))).doesNotContain(OBSERVATION);
    BpmnAwareTests.assertThat(instance).isWaitingAt(ReactAgentProcess.CALL_REMOTE_TOOL);

    // when a worker comes, it answers the waiting call
    worker("worker", "worker", new CrmLookupWorker.SampleCrm(), 3);

    // then
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).isEqualTo("C-200 is Alan Turing.");
    assertThat(observations(run)).extracting(step -> step.text("worker")).containsExactly(WORKER_ID);
  }

  @Test
  void should_refuse_a_worker_with_a_wrong_password_and_leave_the_run_waiting() {
    // given a user of the worker group, and a worker that has its password wrong
    workerUser("worker2", AgentLoopGroups.WORKERS);
    RecordingBackoff backoff = new RecordingBackoff();
    CrmLookupWorker intruder = CrmLookupWorker.start(settings("worker2", "not-the-password", 3),
        new CrmLookupWorker.SampleCrm(), backoff);
    workers.add(intruder);

    // when
    ProcessInstance instance = start("remote-wait: who is C-200, asked with a wrong password?");
    String run = instance.getId();
    awaitRemoteTask(run);

    // then its fetches are refused with 401 and the call waits, unlocked and not failed
    await().atMost(Runs.PATIENCE).until(() -> !backoff.errors.isEmpty());
    assertThat(backoff.errors.get(0)).hasMessageContaining("HTTP 401: the engine refused the credentials of user 'worker2'");
    assertThat(remoteTask(run).singleResult().getWorkerId()).isNull();
    assertThat(runs.view(run).status()).isEqualTo(RunStatus.RUNNING);

    // when the worker is started with the right password
    intruder.close();
    worker("worker2", "worker2", new CrmLookupWorker.SampleCrm(), 3);

    // then
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).isEqualTo("C-200 is Alan Turing.");
  }

  @Test
  void should_give_no_tool_call_to_a_user_outside_the_worker_group() {
    // given workers that authenticate as a reviewer and as a user of no group
    RecordingBackoff reviewerFetches = new RecordingBackoff();
    RecordingBackoff outsiderFetches = new RecordingBackoff();
    workerUser("bystander", null);
    workers.add(CrmLookupWorker.start(settings("reviewer", "reviewer", 3), new CrmLookupWorker.SampleCrm(),
        reviewerFetches));
    workers.add(CrmLookupWorker.start(settings("bystander", "bystander", 3), new CrmLookupWorker.SampleCrm(),
        outsiderFetches));

    // when
    ProcessInstance instance = start("remote-wait: who is C-200, asked of the wrong users?");
    String run = instance.getId();
    awaitRemoteTask(run);
    int reviewerBefore = reviewerFetches.fetches.get();
    int outsiderBefore = outsiderFetches.fetches.get();
    await().atMost(Runs.PATIENCE).until(() -> reviewerFetches.fetches.get() > reviewerBefore + 2
        && outsiderFetches.fetches.get() > outsiderBefore + 2);

    // then both fetch without error, but the engine shows them no task
    assertThat(reviewerFetches.errors).isEmpty();
    assertThat(outsiderFetches.errors).isEmpty();
    assertThat(remoteTask(run).singleResult().getWorkerId()).isNull();
    assertThat(runs.view(run).status()).isEqualTo(RunStatus.RUNNING);
    engine.getRuntimeService().deleteProcessInstance(run, "test done");
  }

  @Test
  void should_raise_an_incident_when_the_remote_tool_keeps_failing_and_go_on_when_an_operator_retries() {
    // given a worker whose CRM is out of reach, with one retry
    AtomicInteger attempts = new AtomicInteger();
    CrmLookupWorker failing = worker("worker", "worker", id -> {
      attempts.incrementAndGet();
      throw new IOException("connect timed out");
    }, 1);

    // when
    ProcessInstance instance = start("remote-wait: who is C-200, while the CRM is down?");
    String run = instance.getId();
    RunView failed = Runs.awaitStatus(runs, run, RunStatus.FAILED);

    // then after the first attempt and the retry, an incident: the run stops at the call, nothing observed
    assertThat(failed.incident()).isEqualTo("the CRM is out of reach: connect timed out");
    assertThat(attempts).hasValue(2);
    BpmnAwareTests.assertThat(instance).isWaitingAt(ReactAgentProcess.CALL_REMOTE_TOOL);
    assertThat(Runs.kinds(runs.trace(run, false))).doesNotContain(OBSERVATION);

    // when the CRM is back and an operator retries the task (as in Cockpit)
    failing.close();
    worker("worker", "worker", new CrmLookupWorker.SampleCrm(), 1);
    engine.getExternalTaskService().setRetries(remoteTask(run).singleResult().getId(), 1);

    // then
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).isEqualTo("C-200 is Alan Turing.");
  }

  @Test
  void should_record_one_observation_when_a_worker_completes_a_call_twice() throws Exception {
    // given a call locked through the REST API as a worker does it
    String question = "remote-wait: who is C-200, answered twice?";
    ProcessInstance instance = start(question);
    String run = instance.getId();
    awaitRemoteTask(run);
    ApiClient worker = ApiClient.as(port, "worker");
    JsonNode locked = ApiClient.body(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "rest-worker", "maxTasks": 1, "topics": [{"topicName": "%s", "lockDuration": 30000,
         "localVariables": true, "variables": ["callId", "arguments"], "processVariables": {"question": "%s"}}]}"""
        .formatted(CrmLookupWorker.TOPIC, question)), 200);
    assertThat(locked).hasSize(1);
    assertThat(ApiClient.JSON.readTree(locked.get(0).at("/variables/arguments/value").asText()).get("customerId")
        .asText()).isEqualTo("C-200");
    String complete = "/engine-rest/external-task/" + locked.get(0).get("id").asText() + "/complete";
    String result = """
        {"workerId": "rest-worker", "localVariables": {"result": {"value": "C-200: Alan Turing", "type": "String"}}}""";

    // when it completes the call, and then again
    HttpResponse<String> first = worker.post(complete, result);
    HttpResponse<String> second = worker.post(complete, result);

    // then the second completion is refused and the call has one observation
    assertThat(first.statusCode()).isEqualTo(204);
    assertThat(second.statusCode()).isEqualTo(404);
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(observations(run)).singleElement().satisfies(observation -> {
      assertThat(observation.text("result")).isEqualTo("C-200: Alan Turing");
      assertThat(observation.text("worker")).isEqualTo("rest-worker");
    });
  }

  @Test
  void should_count_a_call_a_worker_holds_when_the_run_is_stopped_and_refuse_its_late_answer() throws Exception {
    // given a call a worker has fetched through the REST API and not answered yet
    String question = "remote-wait: who is C-200, stopped while it is looked up?";
    String run = start(question).getId();
    awaitRemoteTask(run);
    ApiClient worker = ApiClient.as(port, "worker");
    JsonNode locked = ApiClient.body(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "rest-worker", "maxTasks": 1, "topics": [{"topicName": "%s", "lockDuration": 30000,
         "localVariables": true, "variables": ["callId", "arguments"], "processVariables": {"question": "%s"}}]}"""
        .formatted(CrmLookupWorker.TOPIC, question)), 200);
    assertThat(locked).hasSize(1);
    int toolCallsBefore = runs.view(run).toolCalls();

    // when an operator stops the run, and the worker answers after that
    assertThat(ApiClient.body(ApiClient.as(port, "operator").post("/api/runs/" + run + "/stop",
        "{\"reason\": \"the customer called back\"}"), 200).get("status").asText()).isEqualTo("STOPPED");
    HttpResponse<String> late = worker.post("/engine-rest/external-task/" + locked.get(0).get("id").asText()
        + "/complete", """
        {"workerId": "rest-worker", "localVariables": {"result": {"value": "C-200: Alan Turing", "type": "String"}}}""");

    // then the late answer is refused, and the call the tool received counts as one tool call of the run
    assertThat(late.statusCode()).isEqualTo(404);
    assertThat(runs.view(run).toolCalls()).isEqualTo(toolCallsBefore + 1);
    assertThat(observations(run)).singleElement().satisfies(observation ->
        assertThat(observation.text("error")).contains("no result: the run was stopped by operator"));
  }

  @Test
  void should_write_nothing_for_a_waiting_call_that_is_cancelled() {
    // given a call no worker serves
    ProcessInstance instance = start("remote-wait: who is C-200, cancelled?");
    String run = instance.getId();
    awaitRemoteTask(run);

    // when the run is deleted while the call waits
    engine.getRuntimeService().deleteProcessInstance(run, "no longer needed");

    // then the cancelled call has no observation
    assertThat(runs.view(run).status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(Runs.kinds(runs.trace(run, false))).containsExactly(PLAN, THOUGHT, ACTION);
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private CrmLookupWorker worker(String user, String password, CrmLookupWorker.Crm crm, int retries) {
    CrmLookupWorker worker = CrmLookupWorker.start(settings(user, password, retries), crm, new RecordingBackoff());
    workers.add(worker);
    return worker;
  }

  private CrmLookupWorker.Settings settings(String user, String password, int retries) {
    return new CrmLookupWorker.Settings("http://localhost:" + port + "/engine-rest", user, password, WORKER_ID,
        Duration.ofSeconds(30), Duration.ofMillis(500), retries, Duration.ofMillis(100));
  }

  /** A user whose password is its id, in the group unless that is {@code null}. */
  private void workerUser(String id, String group) {
    if (engine.getIdentityService().createUserQuery().userId(id).count() == 0) {
      User user = engine.getIdentityService().newUser(id);
      user.setPassword(id);
      engine.getIdentityService().saveUser(user);
      if (group != null) {
        engine.getIdentityService().createMembership(id, group);
      }
    }
  }

  private ProcessInstance start(String question) {
    return engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY, ReactAgentProcess.QUESTION.with(question));
  }

  private ExternalTaskQuery remoteTask(String run) {
    return engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(run)
        .topicName(CrmLookupWorker.TOPIC);
  }

  private void awaitRemoteTask(String run) {
    await().atMost(Runs.PATIENCE).until(() -> remoteTask(run).count() == 1);
  }

  private List<Step> observations(String run) {
    return runs.trace(run, false).stream().filter(step -> step.kind() == OBSERVATION).toList();
  }

  /** Polls again soon, and keeps why fetches failed. */
  private static final class RecordingBackoff implements ErrorAwareBackoffStrategy {

    final List<ExternalTaskClientException> errors = new CopyOnWriteArrayList<>();
    final AtomicInteger fetches = new AtomicInteger();

    @Override
    public void reconfigure(List<ExternalTask> externalTasks, ExternalTaskClientException error) {
      fetches.incrementAndGet();
      if (error != null) {
        errors.add(error);
      }
    }

    @Override
    public long calculateBackoffTime() {
      return 100;
    }
  }
}
