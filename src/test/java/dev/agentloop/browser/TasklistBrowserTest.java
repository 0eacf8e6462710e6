package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A reviewer in Tasklist, in headless Chromium: each of the five Camunda Forms rendered from the
 * run's data, filled in and completed, and the run's next state checked through the API.
 * Screenshots of every form go to {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TasklistBrowserTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;
  private TasklistPage tasklist;
  private ApiClient api;

  /** What the browser showed when a test failed, for the report. */
  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void log_in_as_a_reviewer() {
    browser = Browser.open(port);
    // the size the walk through Tasklist used: what is below the fold there is below it here
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
  void should_accept_a_plan_the_reviewer_edited_in_the_form() {
    String run = start("review-plan: in the browser");

    tasklist.open(api.awaitTask(run, "reviewPlan").get("id").asText());
    assertThat(tasklist.text()).startsWith("Review the plan\n");
    assertThat(tasklist.field("question").getAttribute("value")).isEqualTo("review-plan: in the browser");
    assertThat(tasklist.field("plan").getAttribute("value")).isEqualTo("Look it up\nAnswer");
    tasklist.type("plan", "Look it up in the handbook\nAnswer\nCite the page");
    tasklist.choose("decision", "Accept the plan (with my edits)");
    browser.screenshot("tasklist-1-review-plan");
    tasklist.complete();
    tasklist.awaitClosed();

    JsonNode plan = last(run, "PLAN");
    assertThat(plan.get("author").asText()).isEqualTo("reviewer");
    assertThat(plan.at("/content/steps").toString())
        .isEqualTo("[\"Look it up in the handbook\",\"Answer\",\"Cite the page\"]");
    api.awaitTask(run, "reviewAnswer");
  }

  @Test
  void should_give_the_agent_the_answers_typed_into_the_ask_human_form() {
    String run = startWithAcceptedPlan("ask-human: in the browser");

    tasklist.open(api.awaitTask(run, "askHuman").get("id").asText());
    assertThat(tasklist.field("question1").getAttribute("value")).isEqualTo("What is your name?");
    assertThat(tasklist.field("question2").getAttribute("value")).isEqualTo("Which city do you live in?");
    tasklist.type("answer1", "Ann").type("answer2", "Lisbon");
    browser.screenshot("tasklist-2-ask-human");
    tasklist.complete();
    tasklist.awaitClosed();

    api.awaitTask(run, "reviewAnswer");
    JsonNode observation = last(run, "OBSERVATION");
    assertThat(observation.get("author").asText()).isEqualTo("reviewer");
    assertThat(observation.at("/content/result").asText()).contains("Ann").contains("Lisbon");
  }

  @Test
  void should_refuse_arguments_that_break_the_schema_then_run_the_edited_call() {
    int sentBefore = TestTools.SENT.get();
    String run = startWithAcceptedPlan("approve: in the browser");
    String task = api.awaitTask(run, "approveAction").get("id").asText();
    tasklist.open(task);
    assertThat(tasklist.field("tool1").getAttribute("value")).isEqualTo("send_email");
    assertThat(tasklist.field("arguments1").getAttribute("value")).contains("ann@example.com");
    assertThat(tasklist.field("steps").getAttribute("value")).contains("ACTION (model): send_email");
    assertThat(tasklist.field("sideEffects").getAttribute("value"))
        .contains("Calls of send_email change something outside AgentLoop.");

    // arguments that break the tool's schema: Tasklist shows why, the task stays open
    tasklist.choose("decision1", "Run with my edited arguments").type("arguments1", "{\"to\": \"nobody\"}");
    tasklist.complete();
    assertThat(tasklist.awaitError()).contains("do not match its schema").doesNotContain("ENGINE-", "Cannot submit");
    browser.screenshot("tasklist-3-approve-action-refused");
    assertThat(body(api.get("/api/runs/" + run + "/tasks"), 200).get(0).get("id").asText()).isEqualTo(task);

    // valid edited arguments: the call runs with them
    tasklist.type("arguments1", "{\"to\": \"bea@example.com\", \"subject\": \"Hello\"}");
    browser.screenshot("tasklist-3-approve-action");
    tasklist.complete();
    tasklist.awaitClosed();

    api.awaitTask(run, "reviewAnswer");
    assertThat(steps(run, "OBSERVATION")).anySatisfy(observation ->
        assertThat(observation.at("/content/result").asText()).startsWith("sent to bea@example.com"));
    assertThat(TestTools.SENT.get()).isEqualTo(sentBefore + 1);
  }

  @Test
  void should_regenerate_the_answer_from_the_review_form() {
    String run = startWithAcceptedPlan("regenerate: in the browser");

    tasklist.open(api.awaitTask(run, "reviewAnswer").get("id").asText());
    assertThat(tasklist.field("answer").getAttribute("value")).isEqualTo("first answer");
    tasklist.choose("decision", "Regenerate: let the agent answer again");
    tasklist.type("regenerateReason", "the first answer was too short");
    browser.screenshot("tasklist-4-review-answer");
    tasklist.complete();
    tasklist.awaitClosed();

    JsonNode next = await().atMost(Runs.PATIENCE).until(() -> api.awaitTask(run, "reviewAnswer"),
        task -> task.at("/form/answer").asText().equals("second answer"));
    tasklist.open(next.get("id").asText());
    assertThat(tasklist.text()).contains("Attempt 2. The agent answered this question before");
    assertThat(tasklist.field("earlierAnswers").getAttribute("value")).matches("Answer 1 \\(#\\d+\\):\nfirst answer");
    // what the regenerate did, confirmed with the reason given
    assertThat(tasklist.field("lastChange").getAttribute("value")).matches("reviewer had the agent answer again"
        + " \\(regenerate\\) on .+ UTC\\. Reason: the first answer was too short");
    browser.screenshot("tasklist-4-review-answer-attempt-2");
    JsonNode all = body(api.get("/api/runs/" + run + "/trace?branches=all"), 200).get("steps");
    List<String> answers = new ArrayList<>();
    all.forEach(step -> {
      if (step.get("kind").asText().equals("FINAL_ANSWER")) {
        answers.add(step.at("/content/text").asText() + "/" + step.get("status").asText());
      }
    });
    assertThat(answers).containsExactly("first answer/SUPERSEDED", "second answer/ACTIVE");
  }

  @Test
  void should_guide_a_stuck_agent_from_the_agent_stuck_form() {
    String run = startWithAcceptedPlan("loop-guided: in the browser");

    tasklist.open(api.awaitTask(run, "agentStuck").get("id").asText());
    assertThat(tasklist.text()).startsWith("Help the stuck agent\n");
    assertThat(tasklist.field("question").getAttribute("value")).isEqualTo("loop-guided: in the browser");
    assertThat(tasklist.field("reason").getAttribute("value")).startsWith("LOOP_DETECTED: The agent is going round in"
        + " circles: the same call noop {} was made 5 times");
    assertThat(tasklist.field("lastSteps").getAttribute("value")).contains("ACTION (model): noop {}");
    assertThat(tasklist.field("lastCalls").getAttribute("value")).startsWith("noop {} → ERROR: not run");
    assertThat(tasklist.field("decisionHelp").getAttribute("value")).startsWith("Guide: the agent thinks again");
    assertThat(tasklist.field("breakers").getAttribute("value")).contains("tool:noop: CLOSED");
    tasklist.choose("decision", "Guide: the agent goes on with my note").type("note", "Stop calling noop; answer.");
    browser.screenshot("tasklist-5-agent-stuck");
    tasklist.complete();
    tasklist.awaitClosed();

    assertThat(api.awaitTask(run, "reviewAnswer").at("/form/answer").asText()).isEqualTo("guided answer");
    JsonNode note = last(run, "HUMAN_INPUT");
    assertThat(note.get("author").asText()).isEqualTo("reviewer");
    assertThat(note.at("/content/text").asText()).isEqualTo("Stop calling noop; answer.");
  }

  @Test
  void should_show_the_steps_behind_the_answer_with_no_decision_chosen_and_the_question_in_the_list() {
    String question = "multi-step: what is 17 * 23, plus the days of a leap year? Asked by Rita in the browser today";
    String run = startWithAcceptedPlan(question);
    String subject = question.substring(0, 79) + "…";

    tasklist.open(api.awaitTask(run, "reviewAnswer").get("id").asText());

    assertThat(tasklist.text()).startsWith("Review the answer\n");
    assertThat(tasklist.field("question").getAttribute("value")).isEqualTo(question);
    assertThat(tasklist.listText(subject)).contains("Review the answer: " + subject);
    assertThat(tasklist.chosen("decision")).isEqualTo("Select");
    assertThat(tasklist.field("steps").getAttribute("value")).contains(
        "PLAN (model)\nCompute the product\nAdd the days of a leap year\n\n",
        "THOUGHT (model)\nFirst 17 * 23.\n\n",
        "ACTION (model)\ncalculator {\"expression\":\"17 * 23\"}\n\n",
        "OBSERVATION (calculator)\n391\n\n");
    assertThat(tasklist.shows("earlierAnswers")).isFalse();
    assertThat(tasklist.shows("editContent1")).isFalse();
    browser.screenshot("tasklist-6-review-answer-steps");
    tasklist.scrollTo("decision");
    browser.screenshot("tasklist-6-review-answer-steps-decision");
  }

  @Test
  void should_show_the_answer_reviews_decisions_in_the_window_and_complete_it_with_clicks_alone() {
    // given an answer whose review holds the steps behind it, at 1440 x 900
    String run = startWithAcceptedPlan("multi-step: decided at 900 pixels");
    tasklist.open(api.awaitTask(run, "reviewAnswer").get("id").asText());
    String unscrolled = tasklist.scrollPositions();

    // when the reviewer clicks the decision: its list opens in the window, every option in sight
    List<WebElement> options = tasklist.openList("decision");
    browser.screenshot("tasklist-11-answer-decisions");
    assertThat(options).extracting(option -> option.getText().trim()).containsExactly("Accept the answer",
        "Regenerate: let the agent answer again", "Give feedback: the agent continues with it",
        "Edit a step: the agent continues from it");
    assertThat(options).allMatch(tasklist::inSight, "in sight");
    assertThat(tasklist.scrollPositions()).isEqualTo(unscrolled);

    // then a click picks one, and Complete ends the review
    options.get(0).click();
    assertThat(tasklist.chosen("decision")).isEqualTo("Accept the answer");
    browser.screenshot("tasklist-11-answer-decided");
    tasklist.completeByHand();
    tasklist.awaitClosed();
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + run), 200).get("status").asText(),
        "ANSWERED"::equals);
  }

  @Test
  void should_show_the_approvals_decisions_in_the_window_and_complete_it_with_clicks_alone() {
    // given a call waiting for approval, with the steps that led to it
    int sentBefore = TestTools.SENT.get();
    String run = startWithAcceptedPlan("approve: decided at 900 pixels");
    tasklist.open(api.awaitTask(run, "approveAction").get("id").asText());
    String unscrolled = tasklist.scrollPositions();

    // when the reviewer clicks the call's decision: its list opens in the window
    List<WebElement> options = tasklist.openList("decision1");
    browser.screenshot("tasklist-12-approval-decisions");
    assertThat(options).hasSizeGreaterThanOrEqualTo(3).allMatch(tasklist::inSight, "in sight");
    assertThat(tasklist.scrollPositions()).isEqualTo(unscrolled);

    // then a click approves it, and Complete runs the call
    options.stream().filter(option -> option.getText().trim().startsWith("Approve")).findFirst().orElseThrow().click();
    tasklist.completeByHand();
    tasklist.awaitClosed();
    api.awaitTask(run, "reviewAnswer");
    assertThat(TestTools.SENT.get()).isEqualTo(sentBefore + 1);
  }

  @Test
  void should_head_the_drafted_reply_review_with_its_own_task_and_keep_the_policy_it_read_whole() {
    String run = body(api.post("/api/runs", "{\"question\": \"triage: My kettle stopped working 40 days after delivery.\","
        + " \"agent\": \"support-triage-agent\"}"), 201).get("id").asText();
    String ask = api.awaitTask(run, "askHuman").get("id").asText();
    body(api.post("/api/runs/" + run + "/tasks/" + ask + "/complete", "{\"answer1\": \"KC-20417\"}"), 200);

    tasklist.open(api.awaitTask(run, "reviewAnswer").get("id").asText());

    assertThat(tasklist.text()).startsWith("Review the drafted reply\n").doesNotContain("Review the answer");
    assertThat(tasklist.field("question").getAttribute("value")).startsWith("triage: My kettle stopped working");
    assertThat(tasklist.field("steps").getAttribute("value")).contains("OBSERVATION (read_document)\n"
        + "# Refund policy of Kettle & Co (demo document)\n\n- Customers may return any item within 30 days",
        "- A warranty claim needs the order number; the customer does not have to send the item back before\n"
        + "  support has approved the claim.");
    browser.screenshot("tasklist-7-review-drafted-reply");
  }

  @Test
  void should_prefill_the_steps_to_edit_and_refuse_a_broken_edit_in_plain_words() {
    String run = startWithAcceptedPlan("multi-step: edited in the browser");
    String task = api.awaitTask(run, "reviewAnswer").get("id").asText();
    tasklist.open(task);
    tasklist.choose("decision", "Edit a step: the agent continues from it");

    String action = slot("ACTION (model)");
    assertThat(tasklist.field(action).getAttribute("value")).isEqualTo("{\n  \"expression\" : \"17 * 23\"\n}");
    assertThat(tasklist.field(slot("OBSERVATION (calculator)")).getAttribute("value")).isEqualTo("391");
    assertThat(tasklist.field(slot("PLAN (model)")).getAttribute("value"))
        .isEqualTo("Compute the product\nAdd the days of a leap year");
    tasklist.scrollTo(action);
    browser.screenshot("tasklist-8-edit-prefilled");

    // arguments that are no JSON: the sentence for the person, no engine codes, and the task stays open
    tasklist.type(action, "17 * 24");
    tasklist.complete();
    String error = tasklist.awaitErrorShown();
    browser.screenshot("tasklist-9-edit-refused");
    assertThat(error).contains("the arguments of 'calculator' must be a JSON object, but were: 17 * 24").doesNotContain("ENGINE-", "Cannot submit",
        "TaskListener", task);
    tasklist.dismissNotifications();
    assertThat(body(api.get("/api/runs/" + run + "/tasks"), 200).get(0).get("id").asText()).isEqualTo(task);

    tasklist.type(action, "{\"expression\": \"17 * 24\"}").type("editReason", "the product was of 24");
    tasklist.complete();
    tasklist.awaitClosed();

    api.awaitTask(run, "reviewAnswer");
    JsonNode edited = steps(run, "ACTION").get(0);
    assertThat(edited.at("/content/arguments/expression").asText()).isEqualTo("17 * 24");
    assertThat(edited.get("author").asText()).isEqualTo("reviewer");
  }

  @Test
  void should_start_an_agent_from_tasklist_with_the_question_its_start_form_asks_for() {
    String ticket = "triage: My kettle broke after 40 days. Started from Tasklist.";

    tasklist.startProcess("Support ticket triage");
    assertThat(tasklist.startFormText()).contains("Give the agent its question", "Question");
    tasklist.type("question", ticket);
    browser.screenshot("tasklist-10-start-form");
    tasklist.submitStart();

    ProcessInstance run = await().atMost(Runs.PATIENCE).until(() -> engine.getRuntimeService()
        .createProcessInstanceQuery().processDefinitionKey("support-triage-agent")
        .variableValueEquals("question", ticket).singleResult(), instance -> instance != null);
    JsonNode ask = api.awaitTask(run.getId(), "askHuman");
    assertThat(ask.at("/form/subject").asText()).isEqualTo(ticket);
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

  private String start(String question) {
    return body(api.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + TestAgent.REVIEWED + "\"}"),
        201).get("id").asText();
  }

  @Test
  void should_show_links_and_images_a_model_wrote_as_text_never_as_elements() {
    // given a question, ask-human questions and an answer holding a Markdown link and an HTML image
    String link = "[Your session expired](http://127.0.0.1:9/phish)";
    String run = startWithAcceptedPlan("phish: " + link + " <img src=x>");

    // when the reviewer opens the ask-human form
    tasklist.open(api.awaitTask(run, "askHuman").get("id").asText());

    // then each shows as the text it is, in a field, and the form has no link and no image
    assertThat(tasklist.field("question").getAttribute("value")).isEqualTo("phish: " + link + " <img src=x>");
    assertThat(tasklist.field("question1").getAttribute("value")).isEqualTo(link);
    assertThat(tasklist.field("question2").getAttribute("value")).isEqualTo("<img src=x> Where do you sign in?");
    assertThat(tasklist.elements("a[href*='127.0.0.1']")).isEmpty();
    assertThat(tasklist.elements("img")).isEmpty();
    browser.screenshot("tasklist-9-ask-human-link-as-text");
    tasklist.type("answer1", "I will not click that").complete();
    tasklist.awaitClosed();

    // and the answer review shows the model's answer as text too
    tasklist.open(api.awaitTask(run, "reviewAnswer").get("id").asText());
    assertThat(tasklist.field("answer").getAttribute("value")).isEqualTo(link + " <img src=x>");
    assertThat(tasklist.elements("a[href*='127.0.0.1']")).isEmpty();
    assertThat(tasklist.elements("img")).isEmpty();
    browser.screenshot("tasklist-9-review-answer-link-as-text");
  }

  private String startWithAcceptedPlan(String question) {
    String run = start(question);
    String review = api.awaitTask(run, "reviewPlan").get("id").asText();
    body(api.post("/api/runs/" + run + "/tasks/" + review + "/complete", "{\"decision\": \"accept\"}"), 200);
    return run;
  }

  private List<JsonNode> steps(String run, String kind) {
    List<JsonNode> steps = new ArrayList<>();
    body(api.get("/api/runs/" + run + "/trace"), 200).get("steps").forEach(step -> {
      if (step.get("kind").asText().equals(kind)) {
        steps.add(step);
      }
    });
    return steps;
  }

  private JsonNode last(String run, String kind) {
    List<JsonNode> steps = steps(run, kind);
    assertThat(steps).as("%s steps of run %s", kind, run).isNotEmpty();
    return steps.get(steps.size() - 1);
  }
}
