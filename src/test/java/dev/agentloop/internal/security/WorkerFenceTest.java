package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
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
import dev.agentloop.remote.CrmLookupWorker;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A user of {@code agent-workers} can serve tool tasks through the engine REST API and do nothing
 * else: every other call is refused with 403, and a refused call changes nothing. Real HTTP to the app.
 */
@AgentLoopTest
class WorkerFenceTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  private ApiClient worker;

  @BeforeEach
  void asWorker() {
    BpmnAwareTests.init(engine);
    worker = ApiClient.as(port, "worker");
  }

  @Test
  void should_refuse_a_worker_every_call_on_runs_and_leave_the_run_waiting_for_its_review() {
    // given a run waiting for a person to review its plan
    ProcessInstance run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED,
        ReactAgentProcess.QUESTION.with("review-plan: a worker wants to skip the review"));
    await().atMost(Runs.PATIENCE).until(() -> runs.view(run.getId()).status() == RunStatus.WAITING);
    String instance = "/engine-rest/process-instance/" + run.getId();

    // when a worker lists, reads, writes, suspends and modifies it, and skips the review
    List<HttpResponse<String>> refused = List.of(
        worker.get("/engine-rest/process-instance"),
        worker.post("/engine-rest/process-instance", "{}"),
        worker.get(instance),
        worker.get(instance + "/variables"),
        worker.get(instance + "/variables/question"),
        worker.put(instance + "/variables/autoAcceptAnswer", "{\"value\": true, \"type\": \"Boolean\"}"),
        worker.post(instance + "/variables", "{\"modifications\": {\"autoAcceptAnswer\": {\"value\": true}}}"),
        worker.put(instance + "/suspended", "{\"suspended\": true}"),
        worker.post(instance + "/modification", """
            {"instructions": [{"type": "cancel", "activityId": "reviewPlan"},
                              {"type": "startBeforeActivity", "activityId": "agentLoop"}]}"""),
        worker.get("/engine-rest/engine/default/process-instance/" + run.getId() + "/variables"),
        worker.get("/engine-rest/history/process-instance"),
        worker.get("/engine-rest/history/variable-instance?processInstanceId=" + run.getId()),
        worker.get("/engine-rest/task?processInstanceId=" + run.getId()),
        worker.get("/engine-rest/external-task"),
        worker.get("/engine-rest/process-definition"),
        worker.post("/engine-rest/process-definition/key/" + TestAgent.KEY + "/start",
            "{\"variables\": {\"question\": {\"value\": \"hi\"}}}"),
        worker.post("/engine-rest/message", "{\"messageName\": \"anything\"}"),
        worker.get("/api/runs/" + run.getId()));

    // then each is refused, and the run still waits for the review with nothing changed
    refused.forEach(response -> assertProblem(response, 403, AgentLoopGroups.WORKERS));
    BpmnAwareTests.assertThat(run).isWaitingAt(ReactAgentProcess.REVIEW_PLAN);
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(run.getId()).active().count())
        .isEqualTo(1);
    assertThat(engine.getRuntimeService().getVariable(run.getId(), "autoAcceptAnswer")).isNull();
    engine.getRuntimeService().deleteProcessInstance(run.getId(), "test done");
  }

  @Test
  void should_refuse_a_worker_the_tasks_of_think_by_fetch_and_by_id() {
    // given a think task that stays, with an incident (the model is down)
    ProcessInstance run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
        ReactAgentProcess.QUESTION.with("model-down: a worker wants to think"));
    Runs.awaitStatus(runs, run.getId(), RunStatus.FAILED);
    ExternalTask think = engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(run.getId())
        .topicName(ReactAgentProcess.TOPIC_THINK).singleResult();
    String task = "/engine-rest/external-task/" + think.getId();

    // when a worker fetches think, alone or next to a tool topic, and calls the think task by its id
    assertProblem(worker.post("/engine-rest/external-task/fetchAndLock", fetch(ReactAgentProcess.TOPIC_THINK)),
        403, "topic 'agentloop.think' is not a tool topic");
    assertProblem(worker.post("/engine-rest/external-task/fetchAndLock",
        fetch(CrmLookupWorker.TOPIC, ReactAgentProcess.TOPIC_THINK)), 403, "agentloop.think");
    for (String call : List.of("complete", "failure", "bpmnError", "extendLock", "unlock", "lock")) {
      assertProblem(worker.post(task + "/" + call, """
          {"workerId": "w", "localVariables": {"result": {"value": "done"}}, "errorCode": "TOOL_UNAVAILABLE",
           "newDuration": 1000, "lockDuration": 1000, "retries": 1, "retryTimeout": 0}"""), 403, "is not a tool topic");
    }
    assertProblem(worker.put(task + "/retries", "{\"retries\": 3}"), 403, "not a call of a remote tool worker");

    // then the task is as it was
    ExternalTask after = engine.getExternalTaskService().createExternalTaskQuery().externalTaskId(think.getId())
        .singleResult();
    assertThat(after.getRetries()).isZero();
    assertThat(after.getWorkerId()).isEqualTo(think.getWorkerId());
    engine.getRuntimeService().deleteProcessInstance(run.getId(), "test done");
  }

  @Test
  void should_refuse_a_worker_a_body_larger_than_the_fence_reads_without_reading_it_whole() {
    // when a worker sends a completion of 5 MiB, more than any tool result it may hand in
    String huge = "{\"workerId\": \"w\", \"variables\": {\"result\": {\"value\": \""
        + "x".repeat(5 * 1024 * 1024) + "\"}}}";

    // then it is refused before the engine sees it
    assertProblem(worker.post("/engine-rest/external-task/some-task/complete", huge), 413, "at most 4194304 bytes");
  }

  @Test
  void should_let_a_worker_serve_a_tool_task_with_its_own_calls_and_nothing_more() throws Exception {
    // given a call of the remote tool waiting for a worker
    String question = "remote-wait: who is C-200, served within the fence?";
    ProcessInstance run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
        ReactAgentProcess.QUESTION.with(question));
    await().atMost(Runs.PATIENCE).until(() -> toolTask(run) != null);
    String task = "/engine-rest/external-task/" + toolTask(run).getId();

    // when it fetches without naming variables, or names one that is not the call's
    assertProblem(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "w", "maxTasks": 1, "topics": [{"topicName": "%s", "lockDuration": 30000}]}"""
        .formatted(CrmLookupWorker.TOPIC)), 403, "name the variables to fetch");
    assertProblem(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "w", "maxTasks": 1, "topics": [{"topicName": "%s", "lockDuration": 30000,
         "variables": ["arguments", "question"]}]}""".formatted(CrmLookupWorker.TOPIC)), 403,
        "variable 'question' is not one of a tool call's");

    // when it fetches what the engine would fail on: a filter with an object value, a topic without lockDuration
    assertProblem(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "w", "maxTasks": 1, "topics": [{"topicName": "%s", "lockDuration": 30000,
         "variables": ["arguments"], "processVariables": {"question": {"a": 1}}}]}""".formatted(CrmLookupWorker.TOPIC)),
        400, "processVariables.question must be a string, number or boolean");
    assertProblem(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "w", "maxTasks": 1, "topics": [{"topicName": "%s", "variables": ["arguments"]}]}"""
        .formatted(CrmLookupWorker.TOPIC)), 400, "lockDuration must be a positive number of milliseconds");
    assertThat(toolTask(run).getWorkerId()).isNull();

    // then; and lock, extend, unlock and fetch work
    assertThat(worker.post(task + "/lock", "{\"workerId\": \"w\", \"lockDuration\": 30000}").statusCode()).isEqualTo(204);
    assertThat(worker.post(task + "/extendLock", "{\"workerId\": \"w\", \"newDuration\": 60000}").statusCode())
        .isEqualTo(204);
    assertThat(worker.post(task + "/unlock", "").statusCode()).isEqualTo(204);
    JsonNode locked = body(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "w", "maxTasks": 1, "topics": [{"topicName": "%s", "lockDuration": 30000,
         "variables": ["callId", "tool", "arguments"], "processVariables": {"question": "%s"}}]}"""
        .formatted(CrmLookupWorker.TOPIC, question)), 200);
    assertThat(locked).hasSize(1);
    assertThat(locked.get(0).get("variables").fieldNames()).toIterable()
        .containsExactlyInAnyOrder("callId", "tool", "arguments");

    // when it completes writing process variables, or local ones other than result and error
    assertProblem(worker.post(task + "/complete", """
        {"workerId": "w", "variables": {"autoAcceptAnswer": {"value": true}},
         "localVariables": {"result": {"value": "C-200: Alan Turing"}}}"""), 403, "may not set process variables");
    assertProblem(worker.post(task + "/complete", """
        {"workerId": "w", "localVariables": {"result": {"value": "C-200"}, "resumeAt": {"value": "act"}}}"""),
        403, "local variable 'resumeAt' is not one of a tool call's [error, result]");
    assertProblem(worker.post(task + "/failure", """
        {"workerId": "w", "errorMessage": "down", "retries": 1, "retryTimeout": 0,
         "localVariables": {"route": {"value": "done"}}}"""), 403, "failure may not set variables");
    assertProblem(worker.post(task + "/bpmnError", "{\"workerId\": \"w\", \"errorCode\": \"ANSWERED_ALREADY\"}"),
        403, "bpmnError 'ANSWERED_ALREADY' is not caught by the agent's diagram");

    // then nothing of it happened; a proper completion answers the call, a NUL in its result stored as U+FFFD
    assertThat(engine.getRuntimeService().getVariable(run.getId(), "autoAcceptAnswer")).isNull();
    assertThat(worker.post(task + "/complete", """
        {"workerId": "w", "variables": {}, "localVariables": {"result": {"value": "C-200: Alan\\u0000 Turing"}}}""")
        .statusCode()).isEqualTo(204);
    assertThat(Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED).finalAnswer()).isEqualTo("C-200 is Alan Turing.");
    assertThat(runs.trace(run.getId(), false)).anySatisfy(step -> assertThat(step.json().toString())
        .contains("C-200: Alan\uFFFD Turing"));
  }

  @Test
  void should_let_a_worker_raise_only_an_error_the_diagram_catches() {
    // given
    ProcessInstance run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
        ReactAgentProcess.QUESTION.with("remote-wait: who is C-200, while the tool is gone?"));
    await().atMost(Runs.PATIENCE).until(() -> toolTask(run) != null);
    String task = "/engine-rest/external-task/" + toolTask(run).getId();
    body(worker.post("/engine-rest/external-task/fetchAndLock", """
        {"workerId": "w", "maxTasks": 1, "topics": [{"topicName": "%s", "lockDuration": 30000,
         "variables": ["callId"], "processVariables": {"question": "remote-wait: who is C-200, while the tool is gone?"}}]}"""
        .formatted(CrmLookupWorker.TOPIC)), 200);

    // when
    HttpResponse<String> raised = worker.post(task + "/bpmnError",
        "{\"workerId\": \"w\", \"errorCode\": \"TOOL_UNAVAILABLE\", \"errorMessage\": \"the CRM was retired\"}");

    // then the run escapes to a person
    assertThat(raised.statusCode()).as(raised.body()).isEqualTo(204);
    BpmnAwareTests.assertThat(run).isWaitingAt(ReactAgentProcess.AGENT_STUCK);
    engine.getRuntimeService().deleteProcessInstance(run.getId(), "test done");
  }

  @Test
  void should_keep_a_user_in_workers_and_operators_a_worker() {
    // given a user an administrator put in both groups
    var identity = engine.getIdentityService();
    if (identity.createUserQuery().userId("twofold").count() == 0) {
      var user = identity.newUser("twofold");
      user.setPassword("twofold");
      identity.saveUser(user);
      identity.createMembership("twofold", AgentLoopGroups.WORKERS);
      identity.createMembership("twofold", AgentLoopGroups.OPERATORS);
    }
    ApiClient twofold = ApiClient.as(port, "twofold");

    // then it may serve tools, and nothing an operator may
    assertThat(twofold.post("/engine-rest/external-task/fetchAndLock", fetch(CrmLookupWorker.TOPIC)).statusCode())
        .isEqualTo(200);
    assertThat(twofold.post("/engine-rest/engine/default/external-task/fetchAndLock", fetch(CrmLookupWorker.TOPIC))
        .statusCode()).isEqualTo(200);
    assertProblem(twofold.get("/engine-rest/process-instance"), 403, AgentLoopGroups.WORKERS);
    assertProblem(twofold.get("/api/runs"), 403, AgentLoopGroups.WORKERS);
  }

  @Test
  void should_refuse_a_worker_the_engine_api_of_the_webapps() throws Exception {
    // given a worker logged in to the webapps' welcome page, which any user may open
    CookieManager cookies = new CookieManager();
    HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).build();
    http.send(HttpRequest.newBuilder(uri("/camunda/app/welcome/default/")).build(), HttpResponse.BodyHandlers.discarding());
    HttpResponse<String> login = http.send(HttpRequest.newBuilder(uri("/camunda/api/admin/auth/user/default/login/welcome"))
        .header("Content-Type", "application/x-www-form-urlencoded").header("X-XSRF-TOKEN", csrf(cookies))
        .POST(HttpRequest.BodyPublishers.ofString("username=worker&password=worker")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);

    // when it uses the engine API the webapps serve
    HttpResponse<String> instances = http.send(HttpRequest.newBuilder(
        uri("/camunda/api/engine/engine/default/process-instance")).build(), HttpResponse.BodyHandlers.ofString());

    // then
    assertProblem(instances, 403, AgentLoopGroups.WORKERS);
  }

  private ExternalTask toolTask(ProcessInstance run) {
    return engine.getExternalTaskService().createExternalTaskQuery().processInstanceId(run.getId())
        .topicName(CrmLookupWorker.TOPIC).singleResult();
  }

  private static String fetch(String... topics) {
    StringBuilder json = new StringBuilder("{\"workerId\": \"w\", \"maxTasks\": 1, \"topics\": [");
    for (int i = 0; i < topics.length; i++) {
      json.append(i == 0 ? "" : ", ").append("{\"topicName\": \"").append(topics[i])
          .append("\", \"lockDuration\": 1000, \"variables\": [\"callId\"]}");
    }
    return json.append("]}").toString();
  }

  private static String csrf(CookieManager cookies) {
    return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("XSRF-TOKEN"))
        .map(HttpCookie::getValue).reduce((first, last) -> last).orElse("");
  }

  private URI uri(String path) {
    return URI.create("http://localhost:" + port + path);
  }
}
