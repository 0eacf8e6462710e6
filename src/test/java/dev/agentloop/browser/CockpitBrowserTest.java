package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An operator in Cockpit, in headless Chromium, with AgentLoop's plugin: a run's trace, budgets and
 * status on the process instance's tab "Agent trace"; editing a step there and seeing the run go on
 * from it with the old branch marked superseded; regenerating and stopping; restarting a finished
 * run from a step on the process definition's tab "Agent runs"; and a user without operator rights
 * who sees no enabled action and whom the API refuses. Screenshots go to {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CockpitBrowserTest {

  @LocalServerPort int port;

  private Browser browser;
  private CockpitPage cockpit;
  private ApiClient api;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = new TestWatcher() {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      if (browser != null) {
        browser.screenshot("failed-" + context.getRequiredTestMethod().getName());
      }
    }
  };

  @BeforeAll
  void log_in_as_an_operator() {
    api = ApiClient.as(port, "operator");
    browser = Browser.open(port);
    // tall enough for a whole trace in the screenshots
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1800));
    cockpit = new CockpitPage(browser).login("operator", "operator");
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_show_the_active_path_budgets_and_status_of_a_run() {
    String run = waitingForAnswerReview("multi-step: the trace in Cockpit");
    JsonNode view = body(api.get("/api/runs/" + run), 200);

    cockpit.openTrace(run);

    assertThat(cockpit.fact("status")).isEqualTo("WAITING");
    assertThat(cockpit.fact("waitingFor")).isEqualTo("reviewAnswer");
    assertThat(cockpit.fact("finalAnswer")).isEqualTo("757");
    assertThat(cockpit.budget("steps")).isEqualTo(view.get("steps").asText());
    assertThat(cockpit.budget("modelCalls")).isEqualTo(view.get("modelCalls").asText()).isNotEqualTo("0");
    assertThat(cockpit.budget("toolCalls")).isEqualTo("2");
    assertThat(cockpit.budget("tokens")).isEqualTo(view.get("tokens").asText());
    assertThat(cockpit.activePath()).containsExactly("#1 PLAN ACTIVE", "#2 THOUGHT ACTIVE", "#3 ACTION ACTIVE",
        "#4 OBSERVATION ACTIVE", "#5 THOUGHT ACTIVE", "#6 ACTION ACTIVE", "#7 OBSERVATION ACTIVE",
        "#8 FINAL_ANSWER ACTIVE");
    assertThat(cockpit.activeStep(1).getText()).contains("model", "Compute the product", "Add the days of a leap year");
    assertThat(cockpit.activeStep(3).getText()).contains("calculator", "\"expression\": \"17 * 23\"");
    assertThat(cockpit.activeStep(4).getText()).contains("calculator", "391");
    assertThat(cockpit.breakers()).containsAnyOf("no breaker information", "Circuit breakers");
    browser.screenshot("cockpit-1-agent-trace");
  }

  /** A run of the reviewed agent whose plan was accepted and whose answer waits for review. */
  private String waitingForAnswerReview(String question) {
    String run = start(TestAgent.REVIEWED, question);
    String review = awaitTask(run, "reviewPlan").get("id").asText();
    body(api.post("/api/runs/" + run + "/tasks/" + review + "/complete", "{\"decision\": \"accept\"}"), 200);
    awaitTask(run, "reviewAnswer");
    return run;
  }

  private String start(String agent, String question) {
    return body(api.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + agent + "\"}"), 201)
        .get("id").asText();
  }

  private JsonNode awaitTask(String run, String key) {
    return await().atMost(Runs.PATIENCE).until(() -> {
      for (JsonNode task : body(api.get("/api/runs/" + run + "/tasks"), 200)) {
        if (task.get("taskDefinitionKey").asText().equals(key)) {
          return task;
        }
      }
      return null;
    }, task -> task != null);
  }

  private List<String> trace(String run, String branches) {
    List<String> steps = new ArrayList<>();
    body(api.get("/api/runs/" + run + "/trace?branches=" + branches), 200).get("steps").forEach(step ->
        steps.add("#" + step.get("id").asInt() + " " + step.get("kind").asText() + " " + step.get("status").asText()));
    return steps;
  }
}
