package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import java.time.Duration;
import java.time.Instant;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A reviewer who has Tasklist only, in headless Chromium at 1440×900: each form holds the evidence they
 * need (the steps behind an ask-human question, the arguments that really ran, what was changed last and
 * why), no form sends them to Cockpit, the task list shows the question and finds a run by a word of it,
 * and no decision is made for them. Screenshots go to {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReviewerWithoutCockpitBrowserTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;
  private TasklistPage tasklist;
  private ApiClient api;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void log_in_as_a_reviewer() {
    browser = Browser.open(port);
    browser.driver.manage().window().setSize(new Dimension(1440, 900));
    tasklist = new TasklistPage(browser).login("reviewer", "reviewer");
  }

  @BeforeEach
  void api() {
    api = ApiClient.as(port, "reviewer");
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_show_the_steps_behind_a_question_and_when_the_agent_stops_waiting_for_the_answer() {
    String run = startWithAcceptedPlan("ask-human: why does it ask, in the browser");
    String taskId = api.awaitTask(run, "askHuman").get("id").asText();

    tasklist.open(taskId);

    // the steps that led to the question, in the form
    assertThat(tasklist.field("steps").getAttribute("value")).contains("PLAN (model)\n",
        "THOUGHT (model)\nI need to ask.", "ACTION (model)\nask_human {\"questions\":[\"What is your name?\"");
    // the task is due when the agent stops waiting (askHumanTimeout, 24 hours by default), as Tasklist shows it
    String due = browser.await(By.cssSelector(".due-date")).getText();
    assertThat(due).doesNotContain("Set due date").contains("in a day");
    Task task = engine.getTaskService().createTaskQuery().taskId(taskId).singleResult();
    Job timer = engine.getManagementService().createJobQuery().processInstanceId(run).timers()
        .activityId("noAnswer").singleResult();
    assertThat(task.getDueDate()).isEqualTo(timer.getDuedate());
    assertThat(Duration.between(Instant.now(), task.getDueDate().toInstant())).isBetween(Duration.ofHours(23),
        Duration.ofHours(24));
    // the demo's scripted model says so, in a read-only field
    assertThat(tasklist.field("modelNotice").getAttribute("value")).startsWith("Scripted demo model");
    assertThat(tasklist.text()).doesNotContain("Cockpit");
    browser.screenshot("reviewer-1-ask-human-steps-and-due-date");
  }

  @Test
  void should_show_the_arguments_that_ran_in_the_answer_review_after_an_approval_edit() {
    String run = startWithAcceptedPlan("approve: edited in the browser, then reviewed");
    tasklist.open(api.awaitTask(run, "approveAction").get("id").asText());
    tasklist.choose("decision1", "Run with my edited arguments")
        .type("arguments1", "{\"to\": \"bea@example.com\", \"subject\": \"Hello\"}");
    tasklist.complete();
    tasklist.awaitClosed();

    tasklist.open(api.awaitTask(run, "reviewAnswer").get("id").asText());

    String steps = tasklist.field("steps").getAttribute("value");
    assertThat(steps).contains("send_email {\"to\":\"bea@example.com\",\"subject\":\"Hello\"}\n(ran with these arguments,"
        + " edited at approval by reviewer; the model had asked for {\"to\":\"ann@example.com\"");
    assertThat(steps).doesNotContain("ACTION (model)\nsend_email {\"to\":\"ann@example.com\"");
    tasklist.scrollTo("steps");
    browser.screenshot("reviewer-2-answer-review-shows-the-arguments-that-ran");
  }

  @Test
  void should_refuse_complete_until_the_reviewer_chooses_a_decision() {
    String run = startWithAcceptedPlan("multi-step: nobody chose, in the browser");
    String taskId = api.awaitTask(run, "reviewAnswer").get("id").asText();
    tasklist.open(taskId);

    // nothing is chosen for the reviewer: the select shows form-js's empty "Select"
    assertThat(tasklist.chosen("decision")).isEqualTo("Select");
    tasklist.scrollTo("decision");
    tasklist.complete();

    // Complete does nothing but say what is missing; the task stays open
    browser.awaitText(By.cssSelector(".fjs-form"), "Field is required.");
    browser.screenshot("reviewer-3-no-decision-chosen");
    assertThat(engine.getTaskService().createTaskQuery().taskId(taskId).count()).isOne();
    tasklist.dismissNotifications();

    tasklist.choose("decision", "Accept the answer");
    tasklist.complete();
    tasklist.awaitClosed();
    await().atMost(Runs.PATIENCE).until(() -> engine.getTaskService().createTaskQuery().taskId(taskId).count() == 0);
  }

  @Test
  void should_confirm_an_edit_in_the_next_form() {
    String run = startWithAcceptedPlan("multi-step: confirmed in the browser");
    String first = api.awaitTask(run, "reviewAnswer").get("id").asText();
    tasklist.open(first);
    tasklist.choose("decision", "Edit a step: the agent continues from it");
    String observation = slot("OBSERVATION (calculator)");
    tasklist.type(observation, "392").type("editReason", "the product is 392");
    tasklist.complete();
    tasklist.awaitClosed();

    JsonNode next = await().atMost(Runs.PATIENCE).until(() -> api.awaitTask(run, "reviewAnswer"),
        task -> !task.get("id").asText().equals(first));
    tasklist.open(next.get("id").asText());

    assertThat(tasklist.field("lastChange").getAttribute("value")).matches("reviewer edited step #\\d+ \\(OBSERVATION\\)"
        + " on .+ UTC; the agent went on from the edited step, #\\d+\\. Reason: the product is 392");
    browser.screenshot("reviewer-4-edit-confirmed");
  }

  @Test
  void should_show_the_reason_an_operator_gave_for_a_regenerate_in_the_next_form() {
    String run = startWithAcceptedPlan("regenerate: asked by an operator, in the browser");
    String first = api.awaitTask(run, "reviewAnswer").get("id").asText();

    // an operator regenerates with a reason, as Cockpit's Regenerate does
    body(ApiClient.as(port, "operator").post("/api/runs/" + run + "/regenerate",
        "{\"reason\": \"cite the policy this time\"}"), 200);

    JsonNode next = await().atMost(Runs.PATIENCE).until(() -> api.awaitTask(run, "reviewAnswer"),
        task -> !task.get("id").asText().equals(first));
    tasklist.open(next.get("id").asText());
    assertThat(tasklist.field("lastChange").getAttribute("value")).matches("operator had the agent answer again"
        + " \\(regenerate\\) on .+ UTC\\. Reason: cite the policy this time");
    browser.screenshot("reviewer-5-regenerate-reason-from-cockpit");
  }

  @Test
  void should_show_the_question_whole_in_the_task_list_and_find_the_run_by_a_word_of_it() {
    String question = "multi-step: Quokka invoices from the Perth branch for March, what is their total plus tax?";
    String run = startWithAcceptedPlan(question);
    String other = startWithAcceptedPlan("multi-step: something else entirely, in the browser");
    api.awaitTask(run, "reviewAnswer");
    api.awaitTask(other, "reviewAnswer");
    String subject = question.substring(0, 79) + "…";

    browser.go("/camunda/app/tasklist/default/");
    tasklist.dismissNotifications();
    WebElement search = browser.await(By.cssSelector("input.main-field[placeholder='Filter Tasks']"));
    search.sendKeys("Quokka");
    search.sendKeys(Keys.ENTER);

    // only the run's task is listed, its name carrying the question, all of it on screen
    By list = By.cssSelector("[cam-tasks] .tasks-list");
    browser.awaitText(list, "Review the answer: " + subject);
    await().atMost(Runs.PATIENCE).until(() -> !browser.await(list).getText().contains("something else entirely"));
    WebElement name = browser.all(By.cssSelector("[cam-tasks] .tasks-list h4.task")).stream().filter(element -> element.getText().contains("Quokka")).findFirst().orElseThrow();
    assertThat(name.getText()).isEqualTo("Review the answer: " + subject);
    assertThat(notClipped(name)).as("the task name is shown whole, not cut by the card").isTrue();
    browser.screenshot("reviewer-6-found-by-a-word-of-the-question");

    // Tasklist keeps a search for the next visit: the reviewer removes it again
    browser.click(By.cssSelector("[cam-widget-search-pill] a.remove-search"));
    browser.awaitText(list, "something else entirely");
  }

  /** Whether the element shows all of its text: no part cut off at its right edge. */
  private boolean notClipped(WebElement element) {
    return (Boolean) ((JavascriptExecutor) browser.driver).executeScript(
        "const e = arguments[0]; return e.scrollWidth <= e.clientWidth + 1;", element);
  }

  /** The key of the pre-filled edit field whose label names the step. */
  private String slot(String step) {
    for (int slot = 1; slot <= 8; slot++) {
      if (tasklist.shows("editContent" + slot) && tasklist.label("editContent" + slot).contains(step)) {
        return "editContent" + slot;
      }
    }
    throw new AssertionError("no edit field for " + step);
  }

  private String startWithAcceptedPlan(String question) {
    String run = body(api.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + TestAgent.REVIEWED
        + "\"}"), 201).get("id").asText();
    String review = api.awaitTask(run, "reviewPlan").get("id").asText();
    body(api.post("/api/runs/" + run + "/tasks/" + review + "/complete", "{\"decision\": \"accept\"}"), 200);
    return run;
  }
}
