package dev.agentloop.security;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelerDeploy;
import java.net.http.HttpResponse;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An analyst ({@code agent-analysts}, the demo user {@code analyst}) deploys a copied agent the way
 * Camunda Modeler does — a multipart POST to {@code /engine-rest/deployment/create} with their own
 * account — starts it and reads its run; and may do nothing more: no process that is no agent, no
 * review, no change of a run.
 */
@AgentLoopTest
class AnalystDeployTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @Test
  void should_deploy_a_copied_agent_and_start_and_read_its_run() {
    // given the default agent copied under a key of its own, as an analyst saves a copy in Modeler
    ApiClient analyst = ApiClient.as(port, "analyst");
    String copy = ModelerDeploy.copyOfReactAgent("analyst-agent", "Analyst's agent");

    // when the analyst deploys it through the engine REST API
    JsonNode deployment = body(ModelerDeploy.deploy(analyst, "analyst-agent.bpmn", copy), 200);

    // then it is deployed, an agent, and theirs to start and read
    assertThat(deployment.get("deployedProcessDefinitions").toString()).contains("\"key\":\"analyst-agent\"");
    String run = body(analyst.post("/api/runs", "{\"agent\": \"analyst-agent\", \"question\": \"review-plan: from"
        + " the analyst's copy\"}"), 201).get("id").asText();
    // (the analyst may not read the run's tasks: they are the reviewers')
    JsonNode plan = ApiClient.as(port, "reviewer").awaitTask(run, "reviewPlan");
    assertThat(body(analyst.get("/api/runs/" + run), 200).get("agent").asText()).isEqualTo("analyst-agent");
    assertThat(body(analyst.get("/api/runs/" + run + "/trace"), 200).get("steps").toString()).contains("PLAN");

    // and nothing more: the review stays with the reviewers, the run's course with the operators
    HttpResponse<String> review = analyst.post("/api/runs/" + run + "/tasks/" + plan.get("id").asText() + "/complete",
        "{\"decision\": \"accept\"}");
    assertThat(review.statusCode()).isIn(403, 404);
    assertThat(analyst.post("/engine-rest/process-instance/" + run + "/modification",
        "{\"instructions\": [{\"type\": \"cancel\", \"activityId\": \"reviewPlan\"}]}").statusCode()).isEqualTo(403);
    assertThat(analyst.delete("/engine-rest/process-instance/" + run).statusCode()).isIn(403, 404);
    assertThat(engine.getTaskService().createTaskQuery().processInstanceId(run).taskDefinitionKey("reviewPlan")
        .count()).isOne();
  }

  @Test
  void should_refuse_an_analysts_deployment_of_a_process_that_is_no_agent_in_words_and_deploy_nothing() {
    // given a business process that is no agent
    ApiClient analyst = ApiClient.as(port, "analyst");
    String invoice = """
        <?xml version="1.0" encoding="UTF-8"?>
        <bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="x">
          <bpmn:process id="analyst-invoice" isExecutable="true"><bpmn:startEvent id="s"/></bpmn:process>
        </bpmn:definitions>
        """;

    // when the analyst deploys it
    HttpResponse<String> refused = ModelerDeploy.deploy(analyst, "analyst-invoice.bpmn", invoice);

    // then it is refused, naming the process and why, and nothing of it is deployed
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.body()).contains("may deploy agents only", "'analyst-invoice' in analyst-invoice.bpmn is no agent", "Nothing was deployed");
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("analyst-invoice")
        .count()).isZero();
  }

  @Test
  void should_let_no_reviewer_deploy() {
    HttpResponse<String> refused = ModelerDeploy.deploy(ApiClient.as(port, "reviewer"), "reviewer-agent.bpmn", "<x/>");

    assertThat(refused.statusCode()).isEqualTo(403);
  }
}
