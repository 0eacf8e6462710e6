package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.JSON;
import static dev.agentloop.ApiClient.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import java.net.http.HttpResponse;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** {@code /api/runs} over real HTTP: what a client sends, what it gets back, and every kind of bad request. */
@AgentLoopTest
class RunApiTest {

  @LocalServerPort int port;
  @Autowired RunService runs;
  @Autowired ProcessEngine engine;

  @Test
  void should_start_a_run_and_show_its_status_and_trace() throws Exception {
    // when
    HttpResponse<String> created = post("{\"question\": \"multi-step: via REST\", \"agent\": \"test-agent\"}");

    // then
    assertThat(created.statusCode()).isEqualTo(201);
    JsonNode run = JSON.readTree(created.body());
    String id = run.get("id").asText();
    assertThat(created.headers().firstValue("Location")).hasValue("/api/runs/" + id);
    assertThat(run.get("question").asText()).isEqualTo("multi-step: via REST");
    Runs.awaitStatus(runs, id, RunStatus.ANSWERED);

    JsonNode view = JSON.readTree(get("/api/runs/" + id).body());
    assertThat(view.get("status").asText()).isEqualTo("ANSWERED");
    assertThat(view.get("finalAnswer").asText()).isEqualTo("757");
    JsonNode trace = JSON.readTree(get("/api/runs/" + id + "/trace").body());
    assertThat(trace.get("steps")).hasSize(8);
    JsonNode action = trace.get("steps").get(2);
    assertThat(action.get("kind").asText()).isEqualTo("ACTION");
    assertThat(action.at("/content/tool").asText()).isEqualTo("calculator");
    assertThat(action.at("/content/arguments/expression").asText()).isEqualTo("17 * 23");
    assertThat(action.get("author").asText()).isEqualTo("model");
    assertThat(action.get("createdAt").asText()).endsWith("Z");
  }

  @Test
  void should_use_the_default_agent_when_none_is_named() throws Exception {
    HttpResponse<String> created = post("{\"question\": \"What is 17 * 23 plus the number of days in a leap year?\"}");

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(JSON.readTree(created.body()).get("agent").asText()).isEqualTo("react-agent");
  }

  @Test
  void should_answer_400_with_a_problem_when_the_body_is_not_json() throws Exception {
    HttpResponse<String> response = post("question=what");

    assertProblem(response, 400, "the body is not valid JSON at line 1, column 10: unrecognized token 'question';");
  }

  @Test
  void should_answer_400_when_the_question_is_missing_or_blank() throws Exception {
    assertProblem(post("{}"), 400, "question must not be blank");
    assertProblem(post("{\"question\": \"   \"}"), 400, "question must not be blank");
  }

  @Test
  void should_answer_400_naming_the_deployed_agents_when_the_agent_is_unknown() throws Exception {
    assertProblem(post("{\"question\": \"hi\", \"agent\": \"nope\"}"), 400, "there is no agent 'nope'");
    assertThat(JSON.readTree(post("{\"question\": \"hi\", \"agent\": \"nope\"}").body()).get("detail").asText())
        .contains("react-agent").contains("test-agent");
  }

  @Test
  void should_answer_400_and_start_nothing_when_the_process_named_is_no_agent() throws Exception {
    // given a process of the host, deployed next to the agents
    engine.getRepositoryService().createDeployment().addModelInstance("expenses.bpmn",
        Bpmn.createExecutableProcess("expenses").startEvent().userTask("approve").endEvent().done()).deploy();

    assertProblem(post("{\"question\": \"hi\", \"agent\": \"expenses\"}"), 400, "there is no agent 'expenses'");
    assertThat(engine.getRuntimeService().createProcessInstanceQuery().processDefinitionKey("expenses").count())
        .isZero();
  }

  @Test
  void should_start_a_run_on_the_latest_version_of_its_agent() throws Exception {
    // given an agent deployed twice
    ProcessDefinition testAgent = engine.getRepositoryService().createProcessDefinitionQuery()
        .processDefinitionKey("test-agent").latestVersion().singleResult();
    BpmnModelInstance model = engine.getRepositoryService().getBpmnModelInstance(testAgent.getId());
    Process process = model.getModelElementsByType(Process.class).iterator().next();
    process.setId("versioned-agent");
    // kept out of Tasklist's Start process list, which the browser tests pick agents from
    process.setCamundaIsStartableInTasklist(false);
    for (int i = 0; i < 2; i++) {
      engine.getRepositoryService().createDeployment().addModelInstance("versioned-agent.bpmn", model).deploy();
    }

    String id = JSON.readTree(post("{\"question\": \"multi-step: versions\", \"agent\": \"versioned-agent\"}").body())
        .get("id").asText();

    ProcessInstance run = engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(id).singleResult();
    assertThat(engine.getRepositoryService().getProcessDefinition(run.getProcessDefinitionId()).getVersion())
        .isEqualTo(2);
  }

  @Test
  void should_answer_404_for_an_unknown_run() throws Exception {
    assertProblem(get("/api/runs/no-such-run"), 404, "no run with id no-such-run");
    assertProblem(get("/api/runs/no-such-run/trace"), 404, "no run with id no-such-run");
  }

  @Test
  void should_answer_400_for_an_unknown_branches_value() throws Exception {
    String id = JSON.readTree(post("{\"question\": \"multi-step: branches\", \"agent\": \"test-agent\"}").body())
        .get("id").asText();

    assertProblem(get("/api/runs/" + id + "/trace?branches=some"), 400, "parameter 'branches' is 'some'");
    assertThat(get("/api/runs/" + id + "/trace?branches=all").statusCode()).isEqualTo(200);
  }

  private HttpResponse<String> post(String body) {
    return api().post("/api/runs", body);
  }

  private HttpResponse<String> get(String path) {
    return api().get(path);
  }

  private ApiClient api() {
    return ApiClient.as(port, "reviewer");
  }
}
