package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelerDeploy;
import dev.agentloop.Runs;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.beans.factory.annotation.Autowired;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.Dimension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The analyst, in headless Chromium at 1440×900: deploys a copied agent with their own account the way
 * Modeler does, starts it, and reads its run in Cockpit, where their login is let in; and starts an agent it deployed
 * in Tasklist, to try it. Screenshots go to
 * {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnalystBrowserTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void open() {
    browser = Browser.open(port);
    browser.driver.manage().window().setSize(new Dimension(1440, 900));
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_deploy_a_copied_agent_start_it_and_read_its_run_in_cockpit() {
    // the analyst deploys a copy of the default agent through /engine-rest, as Modeler's Deploy does
    ApiClient analyst = ApiClient.as(port, "analyst");
    body(ModelerDeploy.deploy(analyst, "refund-agent.bpmn", ModelerDeploy.copyOfReactAgent("refund-agent",
        "Refund agent")), 200);
    String run = body(analyst.post("/api/runs", "{\"agent\": \"refund-agent\", \"question\": \"review-plan: the"
        + " analyst's first run\"}"), 201).get("id").asText();

    // and reads it in Cockpit with the same account
    CockpitPage cockpit = new CockpitPage(browser).login("analyst", "analyst").openTrace(run);

    assertThat(cockpit.activePath()).anySatisfy(step -> assertThat(step).contains("PLAN"));
    browser.screenshot("analyst-1-reads-the-run-of-a-deployed-copy");
  }

  @Test
  void should_log_in_to_tasklist_and_start_an_agent_it_deployed_to_try_it() {
    // given a copy the analyst deployed from Modeler
    body(ModelerDeploy.deploy(ApiClient.as(port, "analyst"), "try-agent.bpmn", ModelerDeploy.copyOfReactAgent(
        "try-agent", "Agent to try")), 200);

    // when the analyst logs in to Tasklist and starts it there with a question (logged out of Cockpit first)
    browser.driver.manage().deleteAllCookies();
    TasklistPage tasklist = new TasklistPage(browser).login("analyst", "analyst").startProcess("Agent to try");
    tasklist.type("question", "review-plan: tried from Tasklist");
    browser.screenshot("analyst-2-starts-its-agent-in-tasklist");
    tasklist.submitStart();

    // then the run starts, started by the analyst, and waits for its plan's review
    var run = await().atMost(Runs.PATIENCE).until(() -> engine.getHistoryService().createHistoricProcessInstanceQuery()
        .processDefinitionKey("try-agent").singleResult(), instance -> instance != null);
    assertThat(run.getStartUserId()).isEqualTo("analyst");
    ApiClient.as(port, "reviewer").awaitTask(run.getId(), "reviewPlan");
  }
}
