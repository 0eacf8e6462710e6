package dev.agentloop.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An operator moves an agent's waiting runs to its new version in Cockpit, in headless Chromium: on the agent's
 * tab "Agent versions" the versions with their runs, the dry run shown first (what would move, what would stay and
 * why), a reason asked before anything moves, then what became of each run; the moved run's trace says so, and
 * its review form in Tasklist shows the new version. Screenshots go to {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CockpitMigrationBrowserTest {

  private static final String KEY = "mig-cockpit-agent";
  private static final String VERSIONS_TAB = "agentloop.processDefinition.versions";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  private Browser browser;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void log_in_as_an_operator() {
    browser = Browser.open(port);
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1400));
    try {
      new CockpitPage(browser).login("operator", "operator");
    } catch (TimeoutException e) {
      // on a busy machine the webapp's first load can outlast RequireJS's load timeout ("Load timeout for modules:
      // cockpit-plugin-…"), and Cockpit then never shows its login; the second load is served from warm caches
      new CockpitPage(browser).login("operator", "operator");
    }
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_show_the_dry_run_first_ask_a_reason_and_then_move_the_waiting_runs() {
    deploy(Map.of());
    String first = runs.start(KEY, "a plain question");
    String second = runs.start(KEY, "another plain question");
    String approving = runs.start(KEY, "approve: send the mail");
    Runs.awaitTask(engine, first, ReactAgentProcess.REVIEW_ANSWER);
    Runs.awaitTask(engine, second, ReactAgentProcess.REVIEW_ANSWER);
    Runs.awaitTask(engine, approving, ReactAgentProcess.APPROVE_ACTION);
    deploy(Map.of(AgentSettings.ALLOWED_TOOLS, "calculator"));
    ProcessDefinition v2 = engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(KEY)
        .latestVersion().singleResult();

    browser.go("/camunda/app/cockpit/default/#/process-definition/" + v2.getId() + "/runtime?detailsTab="
        + VERSIONS_TAB);
    assertThat(browser.await(By.cssSelector("[data-open-runs='1']")).getText()).isEqualTo("3");
    assertThat(browser.await(By.cssSelector("[data-open-runs='2']")).getText()).isEqualTo("0");
    browser.click(By.cssSelector("[data-action='dry-run']"));

    // the dry run first: what would happen to each run, and nothing has moved
    browser.awaitText(By.cssSelector("[data-dry-run-summary]"), "2 runs would move to version 2, 1 would stay");
    assertThat(browser.await(By.cssSelector("[data-migration-run='" + approving + "']")).getText())
        .contains("would stay", "the pending call of send_email", "needs a tool version 2 does not allow");
    assertThat(browser.await(By.cssSelector("[data-migration-run='" + first + "']")).getText())
        .contains("would move", "it waits in 'Review the answer' (reviewAnswer)");
    browser.screenshot("cockpit-migration-1-dry-run");
    assertThat(List.of(first, second, approving)).allSatisfy(run ->
        assertThat(runs.view(run).agentVersion()).isEqualTo(1));

    // a reason is asked before anything moves
    browser.click(By.cssSelector("[data-action='migrate']"));
    browser.awaitText(By.cssSelector(".agentloop-migration .agentloop-form-problem"), "Please give a reason");
    assertThat(runs.view(first).agentVersion()).isEqualTo(1);
    browser.await(By.cssSelector("[data-field='migration-reason']")).sendKeys("the answers need the new prompt");
    browser.click(By.cssSelector("[data-action='migrate']"));

    browser.awaitText(By.cssSelector("[data-migration-summary]"), "2 runs moved to version 2, 1 stays on its version.");
    browser.screenshot("cockpit-migration-2-moved");
    assertThat(runs.view(first).agentVersion()).isEqualTo(2);
    assertThat(runs.view(second).agentVersion()).isEqualTo(2);
    assertThat(runs.view(approving).agentVersion()).isEqualTo(1);
    // the tab counts the runs anew
    await().atMost(Runs.PATIENCE).until(() -> browser.await(By.cssSelector("[data-open-runs='2']")).getText()
        .equals("2"));

    // the run's trace says where it is now, and who moved it why
    new CockpitPage(browser).openTrace(first);
    assertThat(browser.await(By.cssSelector("[data-fact='agentVersion'] dd")).getText()).isEqualTo("2");
    assertThat(browser.await(By.cssSelector("[data-decision='migrate']")).getText())
        .startsWith("operator moved the run from version 1 to version 2 of its agent")
        .contains("the answers need the new prompt");
    browser.screenshot("cockpit-migration-3-trace");

    // and its review form in Tasklist (the operator reviews too; the webapps share the login)
    String task = engine.getTaskService().createTaskQuery().processInstanceId(first).singleResult().getId();
    TasklistPage tasklist = new TasklistPage(browser).open(task);
    assertThat(tasklist.field("agentVersion").getAttribute("value")).isEqualTo(KEY + ", version 2");
    assertThat(tasklist.field("lastChange").getAttribute("value"))
        .startsWith("operator moved the run from version 1 to version 2 of its agent");
    browser.screenshot("cockpit-migration-4-tasklist-form");
  }

  private void deploy(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "false",
        AgentSettings.CONVERSATION, "false"));
    all.putAll(settings);
    TestAgent.deployVariant(engine, KEY, all);
  }
}
