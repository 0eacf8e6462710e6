package dev.agentloop.internal.security;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelerDeploy;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An analyst ({@code agent-analysts}, the demo user {@code analyst}) deploys a copied agent the way
 * Camunda Modeler does — a multipart POST to {@code /engine-rest/deployment/create} with their own
 * account — starts it and reads its run; and may do nothing more: no process that is no agent, no
 * review, no change of a run.
 */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
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
    assertThat(refused.body()).contains("may deploy agents only", "analyst-invoice.bpmn: process 'analyst-invoice': is no agent", "Nothing was deployed");
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("analyst-invoice")
        .count()).isZero();
  }

  @Test
  void should_warn_of_a_copied_agent_that_keeps_the_originals_prompts_and_documentation(CapturedOutput log)
      throws IOException {
    // given the support-triage agent copied with only its id changed, and a copy with words of its own
    String triage = Files.readString(Path.of("processes/support-triage-agent.bpmn"));
    // (each under a name of its own: other tests pick the original by its name in Tasklist)
    String unchanged = triage.replace("\"support-triage-agent\"", "\"triage-copy\"")
        .replace("name=\"Support ticket triage\"", "name=\"Triage copy\"");
    String own = unchanged.replace("Triages a customer support ticket", "Sorts the mail of the sales team")
        .replace("name=\"Triage copy\"", "name=\"Mail sorter\"")
        .replace("Write a short plan for triaging this support ticket", "Write a short plan for sorting this mail")
        .replace("You triage customer support tickets for Kettle", "You sort the mail for Kettle")
        .replace("\"triage-copy\"", "\"mail-sorter\"");
    ApiClient analyst = ApiClient.as(port, "analyst");

    // when the analyst deploys both
    JsonNode copied = body(ModelerDeploy.deploy(analyst, "triage-copy.bpmn", unchanged), 200);
    JsonNode written = body(ModelerDeploy.deploy(analyst, "mail-sorter.bpmn", own), 200);

    // then the unchanged copy is named in a warning, with what it kept, in the log and in the deployment's answer,
    // which the analyst in Modeler reads; the other is not
    String warning = "agent 'triage-copy' keeps other agents' words unchanged: the planner prompt, system prompt,"
        + " documentation of 'support-triage-agent'. It will plan";
    assertThat(log.getOut()).contains("AGENTLOOP-102 " + warning);
    assertThat(copied.get("agentloopWarnings")).hasSize(1);
    assertThat(copied.get("agentloopWarnings").get(0).asText()).startsWith(warning);
    assertThat(copied.at("/deployedProcessDefinitions").toString()).contains("\"key\":\"triage-copy\"");
    assertThat(log.getOut()).doesNotContain("agent 'mail-sorter' keeps");
    assertThat(written.has("agentloopWarnings")).isFalse();
  }

  @Test
  void should_refuse_a_negative_budget_and_a_word_for_a_number_with_every_problem_named_and_no_error_logged(
      CapturedOutput log) {
    // given a copy whose think task names another agent, a budget of -3 steps and "six" model calls
    String slip = Bpmn.convertToString(TestAgent.variant("slip-budget", Map.of(AgentSettings.ALLOWED_TOOLS,
        "calculator, support-triage-agent", AgentSettings.MAX_STEPS, "-3", AgentSettings.MAX_MODEL_CALLS, "six")));
    int before = log.length();

    // when an analyst deploys it
    HttpResponse<String> refused = ModelerDeploy.deploy(ApiClient.as(port, "analyst"), "slip-budget.bpmn", slip);

    // then it is a 400 naming the element and both properties, nothing is deployed, and nothing went wrong inside
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).contains("element 'think': agent property 'maxSteps' is '-3' but must be a whole number"
        + " of at least 1", "element 'think': agent property 'maxModelCalls' is 'six' but must be a whole number");
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("slip-budget")
        .count()).isZero();
    assertNoErrorSince(log, before);
  }

  @Test
  void should_refuse_a_cycle_of_agents_with_no_error_in_the_log(CapturedOutput log) {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("ring-a.bpmn", Bpmn.convertToString(TestAgent.variant("ring-a", Map.of(AgentSettings.ALLOWED_TOOLS,
        "ring-b"))));
    files.put("ring-b.bpmn", Bpmn.convertToString(TestAgent.variant("ring-b", Map.of(AgentSettings.ALLOWED_TOOLS,
        "ring-a"))));
    int before = log.length();

    HttpResponse<String> refused = ModelerDeploy.deploy(ApiClient.as(port, "analyst"), "a ring of agents", files);

    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).containsPattern("ring-a → ring-b → ring-a|ring-b → ring-a → ring-b");
    assertNoErrorSince(log, before);
  }

  @Test
  void should_deploy_and_run_the_research_coordinator_of_the_docs_as_an_analyst() {
    // given the walk-through's two sub-agents and their coordinator, copies of the default agent, in one deployment
    Map<String, String> settings = Map.of(AgentSettings.ALLOWED_TOOLS, "calculator", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true");
    Map<String, String> files = new LinkedHashMap<>();
    files.put("web-researcher.bpmn", Bpmn.convertToString(TestAgent.variant("web-researcher", settings)));
    files.put("fact-checker.bpmn", Bpmn.convertToString(TestAgent.variant("fact-checker", settings)));
    files.put("research-coordinator.bpmn", Bpmn.convertToString(TestAgent.variant("research-coordinator", Map.of(
        AgentSettings.ALLOWED_TOOLS, "web-researcher, fact-checker", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"))));
    ApiClient analyst = ApiClient.as(port, "analyst");

    // when the analyst deploys them from Modeler and asks the coordinator
    body(ModelerDeploy.deploy(analyst, "research", files), 200);
    String run = body(analyst.post("/api/runs", "{\"agent\": \"research-coordinator\", \"question\": \"research:"
        + " what do both say?\"}"), 201).get("id").asText();

    // then both sub-agents answer in child runs of their own, and the coordinator combines their answers
    await().atMost(Runs.PATIENCE).until(() -> engine.getHistoryService().createHistoricProcessInstanceQuery()
        .processInstanceId(run).singleResult().getEndTime() != null);
    JsonNode answered = body(analyst.get("/api/runs/" + run), 200);
    assertThat(answered.get("status").asText()).isEqualTo("ANSWERED");
    assertThat(answered.get("finalAnswer").asText()).isEqualTo("The researcher found 4 and the checker 6.");
    assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery().superProcessInstanceId(run).list())
        .extracting(child -> child.getProcessDefinitionKey()).containsExactlyInAnyOrder("web-researcher", "fact-checker");
  }

  private static void assertNoErrorSince(CapturedOutput log, int before) {
    String logged = log.toString().substring(before);
    assertThat(logged.lines().filter(line -> line.matches(".*\\bERROR\\b.*")).toList()).isEmpty();
    assertThat(logged).doesNotContain("ENGINE-16004").doesNotContain("\tat ");
  }

  @Test
  void should_let_no_reviewer_deploy() {
    HttpResponse<String> refused = ModelerDeploy.deploy(ApiClient.as(port, "reviewer"), "reviewer-agent.bpmn", "<x/>");

    assertThat(refused.statusCode()).isEqualTo(403);
  }
}
