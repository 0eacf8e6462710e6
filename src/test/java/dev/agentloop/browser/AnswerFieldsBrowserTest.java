package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.Dimension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A reviewer in Tasklist changes a field of an agent's answer, and the business process that asked the agent
 * follows the changed field: support-ticket asks support-triage-agent, whose answer review shows one field per
 * property of its answer schema (the enums as selects); the reviewer makes the ticket urgent, and the ticket's
 * gateway sends it to a call back. Then an operator sees the fields in Cockpit. Screenshots go to
 * {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnswerFieldsBrowserTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;
  private TasklistPage tasklist;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void open() {
    browser = Browser.open(port);
    browser.driver.manage().window().setSize(new Dimension(1440, 900));
    tasklist = new TasklistPage(browser).login("reviewer", "reviewer");
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_route_the_ticket_by_the_priority_the_reviewer_changed_in_tasklist() {
    // given a ticket whose triage run asked a colleague, who answered
    ProcessInstance ticket = engine.getRuntimeService().startProcessInstanceByKey("support-ticket",
        Map.of("question", "triage: My kettle stopped working 40 days after delivery."));
    String run = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService().createProcessInstanceQuery()
        .superProcessInstanceId(ticket.getId()).singleResult(), instance -> instance != null).getId();
    ApiClient api = ApiClient.as(port, "reviewer");
    String ask = api.awaitTask(run, "askHuman").get("id").asText();
    body(api.post("/api/runs/" + run + "/tasks/" + ask + "/complete", "{\"answer1\": \"KC-20417\"}"), 200);

    // when the reviewer opens the drafted reply: one field per property, as the agent answered
    tasklist.open(api.awaitTask(run, "reviewAnswer").get("id").asText());
    assertThat(tasklist.label("answerChoice1")).startsWith("Category");
    assertThat(tasklist.chosen("answerChoice1")).isEqualTo("defect");
    assertThat(tasklist.label("answerChoice2")).startsWith("Priority");
    assertThat(tasklist.chosen("answerChoice2")).isEqualTo("normal");
    assertThat(tasklist.field("answerText3").getAttribute("value")).startsWith("Dear customer,").contains("KC-20417");
    assertThat(tasklist.shows("answerText1")).as("an enum is a select, not a text").isFalse();
    tasklist.scrollTo("answerChoice2");
    browser.screenshot("tasklist-fields-1-as-answered");

    // and makes it urgent, and accepts
    tasklist.choose("answerChoice2", "urgent");
    tasklist.choose("decision", "Accept the answer");
    browser.screenshot("tasklist-fields-2-priority-changed");
    tasklist.complete();
    tasklist.awaitClosed();

    // then the ticket's gateway followed the changed priority: a call back before the repairs desk
    Task callBack = await().atMost(Runs.PATIENCE).until(() -> engine.getTaskService().createTaskQuery()
        .processInstanceId(ticket.getId()).taskDefinitionKey("callBack").singleResult(), task -> task != null);
    assertThat(callBack.getName()).isEqualTo("Call the customer back today");
    assertThat(engine.getRuntimeService().getVariable(ticket.getId(), "answer_priority")).isEqualTo("urgent");
    JsonNode view = body(api.get("/api/runs/" + run), 200);
    assertThat(view.at("/answerData/priority").asText()).isEqualTo("urgent");
    JsonNode answer = last(api, run);
    assertThat(answer.get("author").asText()).isEqualTo("reviewer");
    assertThat(answer.get("reason").asText()).isEqualTo("answer fields edited in answer review: priority");

    // and an operator sees the fields on the run's page in Cockpit (a browser of their own)
    Browser operator = Browser.open(port);
    try {
      operator.driver.manage().window().setSize(new Dimension(1440, 900));
      CockpitPage cockpit = new CockpitPage(operator).login("operator", "operator").openRun(run);
      cockpit.awaitFact("answerData", "urgent");
      assertThat(cockpit.fact("answerData")).contains("category", "defect", "priority", "urgent", "reply");
      operator.screenshot("cockpit-answer-fields");
    } finally {
      operator.close();
    }
  }

  private static JsonNode last(ApiClient api, String run) {
    JsonNode last = null;
    for (JsonNode step : body(api.get("/api/runs/" + run + "/trace"), 200).path("steps")) {
      if (step.path("kind").asText().equals("FINAL_ANSWER")) {
        last = step;
      }
    }
    return last;
  }
}
