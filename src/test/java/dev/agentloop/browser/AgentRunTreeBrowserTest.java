package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.api.AgentLoopGroups;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
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
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * One run tree across agents, as an operator sees it in Cockpit (headless Chromium): while a coordinator waits for
 * the two sub-agents it called at once, its live line says what each does, with links to their runs; once they have
 * answered, each call's observation holds the child's steps, folded, and the child's run page links back to the
 * coordinator. Screenshots go to {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentRunTreeBrowserTest {

  // the scripted model's tool calls name these agents (scripts/test-script.json, scenario coordinate-parallel)
  private static final String REVIEWED_CHILD = "reviewed-child-agent";
  private static final String COORDINATOR = "tree-coordinator-agent";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;
  private CockpitPage cockpit;
  private ApiClient api;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void deploy_and_log_in_as_an_operator() {
    TestAgent.deployVariant(engine, REVIEWED_CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, " + REVIEWED_CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    api = ApiClient.as(port, "operator");
    browser = Browser.open(port);
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
  @SuppressWarnings("unchecked")
  void should_show_the_children_live_then_their_steps_nested_under_the_calls_with_links_both_ways() {
    // given a coordinator that called two sub-agents at once, both waiting in their plan reviews
    String run = engine.getRuntimeService().startProcessInstanceByKey(COORDINATOR,
        ReactAgentProcess.QUESTION.with("coordinate-parallel: in Cockpit")).getId();
    List<ProcessInstance> children = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().superProcessInstanceId(run).list(), list -> list.size() == 2);
    List<Task> reviews = children.stream()
        .map(child -> Runs.awaitTask(engine, child.getId(), ReactAgentProcess.REVIEW_PLAN)).toList();

    // then the coordinator's tab says what it waits for, child by child, with a link to each child's run
    cockpit.openTrace(run);
    browser.awaitText(By.cssSelector(".agentloop-live"), "waiting for " + REVIEWED_CHILD + ": its plan review");
    assertThat(cockpit.live()).startsWith("RUNNING — waiting for " + REVIEWED_CHILD + ": its plan review (run ");
    // (read in one go: the line is drawn again every second, as its seconds count on)
    assertThat((List<Object>) ((JavascriptExecutor) browser.driver).executeScript("return [...document.querySelectorAll("
        + "'.agentloop-live [data-child-link]')].map(link => link.dataset.childLink)"))
        .containsExactlyInAnyOrderElementsOf(children.stream().map(child -> (Object) child.getId()).toList());
    browser.screenshot("cockpit-14-waiting-for-sub-agents");

    // when both reviewers accept, and the coordinator answers
    reviews.forEach(review -> accept(review));
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + run), 200).get("status").asText(),
        "ANSWERED"::equals);

    // then each call's observation holds its child's steps, folded, read when the operator opens them
    cockpit.openRun(run);
    // (read in one go: the tab nests the children's folds into the path it has just drawn)
    List<List<Object>> nested = await().atMost(Runs.PATIENCE).until(() -> (List<List<Object>>)
        ((JavascriptExecutor) browser.driver).executeScript("return [...document.querySelectorAll("
            + "'.agentloop-active-path > li > details.agentloop-child-run')].map(d => [d.dataset.childRun, d.open])"),
        folds -> folds.size() == 2);
    assertThat(nested).allSatisfy(fold -> assertThat(fold.get(1)).isEqualTo(false));
    String firstChild = (String) nested.get(0).get(0);
    String fold = "details[data-child-run='" + firstChild + "']";
    // found anew before each click: the tab may still be drawing the page it just opened, and a click on the
    // fold it replaced opens nothing; a person then clicks again
    List<WebElement> childSteps = await().atMost(Runs.PATIENCE).pollInterval(Duration.ofSeconds(1)).until(() -> {
      List<WebElement> steps = browser.all(By.cssSelector(fold + " .agentloop-child-path > li.agentloop-step"));
      if (steps.isEmpty() && browser.all(By.cssSelector(fold + "[open]")).isEmpty()) {
        browser.click(By.cssSelector(fold + " > summary"));
      }
      return steps;
    }, steps -> !steps.isEmpty());
    assertThat(childSteps).extracting(step -> step.getAttribute("data-kind")).first().isEqualTo("PLAN");
    assertThat(childSteps).extracting(step -> step.getAttribute("data-kind")).last().isEqualTo("FINAL_ANSWER");
    assertThat(childSteps.get(childSteps.size() - 1).getText()).contains("4");
    // the nested steps are the child's, not rows of the coordinator's path
    assertThat(cockpit.activePath()).extracting(step -> step.split(" ")[1])
        .containsExactly("PLAN", "THOUGHT", "ACTION", "ACTION", "OBSERVATION", "OBSERVATION", "FINAL_ANSWER");
    browser.screenshot("cockpit-15-child-steps-nested-under-the-call");

    // and the child's run page, reached from the call, links back to the coordinator
    browser.click(By.cssSelector("details[data-child-run='" + firstChild + "'] > summary a[data-child-link]"));
    cockpit.awaitRunPage(firstChild);
    assertThat(cockpit.fact("calledBy")).isEqualTo("run " + run);
    browser.screenshot("cockpit-16-child-run-page-links-to-its-caller");
    browser.click(By.cssSelector("a[data-caller-link='" + run + "']"));
    cockpit.awaitRunPage(run);
  }

  private void accept(Task review) {
    engine.getIdentityService().setAuthentication("rita", List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(review.getId(), new HashMap<>(Map.of("decision", "accept")));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }
}
