package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A conversation on Cockpit's run page, in headless Chromium: its turns as questions and answers with
 * what each cost, and after turn 2 was regenerated with turn 3 asked again, the superseded branch (turn
 * 2's old answer and the old turn 3) in a column beside the turns that replaced it. Screenshots go to
 * {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CockpitConversationBrowserTest {

  private static final String AGENT = "cockpit-conversation-agent";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;
  private CockpitPage cockpit;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void log_in_as_an_operator() {
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true"));
    browser = Browser.open(port);
    browser.driver.manage().window().setSize(new Dimension(1440, 1800));
    cockpit = new CockpitPage(browser).login("operator", "operator");
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_show_the_turns_and_the_branch_of_a_regenerated_turn_beside_the_new_one() {
    // given three turns, then turn 2 regenerated with turn 3 asked again
    ApiClient api = ApiClient.as(port, "operator");
    String run = body(api.post("/api/runs", "{\"question\": \"conv: in Cockpit\", \"agent\": \"" + AGENT
        + "\", \"conversationId\": \"cockpit-" + System.nanoTime() + "\"}"), 201).get("id").asText();
    awaitTurns(api, run, 1, 1);
    body(api.post("/api/runs/" + run + "/messages", "{\"question\": \"conv: and the second?\"}"), 202);
    awaitTurns(api, run, 2, 2);
    body(api.post("/api/runs/" + run + "/messages", "{\"question\": \"conv: and the third?\"}"), 202);
    awaitTurns(api, run, 3, 3);
    body(api.post("/api/runs/" + run + "/regenerate",
        "{\"turn\": 2, \"replayLaterTurns\": true, \"reason\": \"the tool was down\"}"), 200);
    awaitTurns(api, run, 3, 5);

    // when the operator opens its run page
    cockpit.openRun(run);
    browser.await(By.cssSelector(".agentloop-conversation[data-turns='3']"));

    // then turn 1 reads as question and answer, with the steps that led to it folded and what it cost
    WebElement first = browser.await(By.cssSelector(".agentloop-conversation > [data-turn='1']"));
    assertThat(first.findElement(By.cssSelector("[data-question='1']")).getText())
        .contains("operator asked").contains("conv: in Cockpit");
    assertThat(first.findElement(By.cssSelector("[data-answer='1']")).getText())
        .contains("first answer to 'conv: in Cockpit'");
    assertThat(first.findElement(By.cssSelector("details.agentloop-turn-steps")).getAttribute("open")).isNull();
    assertThat(first.findElement(By.cssSelector("[data-turn-cost='1']")).getText()).contains("120 tokens");

    // the active branch holds the new answer of turn 2 and turn 3 asked again ...
    WebElement active = browser.await(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='2']"
        + " > [data-branch='active']"));
    assertThat(texts(active, "[data-answer]")).hasSize(2);
    assertThat(active.findElement(By.cssSelector("[data-answer='2']")).getText())
        .contains("second answer to 'conv: and the second?'");
    assertThat(active.findElement(By.cssSelector("[data-question='3']")).getText()).contains("conv: and the third?");
    // ... and beside it, the superseded branch keeps turn 2's old answer and the old turn 3
    WebElement old = browser.await(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='2']"
        + " > .agentloop-branch-superseded"));
    assertThat(old.findElement(By.cssSelector(".agentloop-branch-head")).getText())
        .contains("Superseded branch").contains("1 later turn kept here");
    assertThat(old.findElement(By.cssSelector("[data-answer='2']")).getText())
        .contains("first answer to 'conv: and the second?'");
    assertThat(old.findElement(By.cssSelector("[data-answer='3']")).getText())
        .contains("first answer to 'conv: and the third?' after 'first answer to 'conv: and the second?'");
    assertThat(old.getRect().getX()).isGreaterThan(active.getRect().getX() + active.getRect().getWidth() - 1);
    assertThat(old.getRect().getY()).isEqualTo(active.getRect().getY());
    // the whole turn 2 cost: its new answer, its old one and the old turn 3
    assertThat(active.findElement(By.cssSelector("[data-turn-cost='2']")).getText()).contains("360 tokens");
    assertThat(browser.textOf(By.cssSelector("[data-fact='conversationId']"))).contains("cockpit-");
    browser.screenshot("cockpit-conversation-regenerated-turn");
  }

  @Test
  void should_let_an_operator_redo_turn_1_with_the_later_questions_asked_again_beside_the_old_branch() {
    // given a conversation of three turns, waiting for its fourth question
    ApiClient api = ApiClient.as(port, "operator");
    String run = body(api.post("/api/runs", "{\"question\": \"conv: redo in Cockpit\", \"agent\": \"" + AGENT
        + "\", \"conversationId\": \"redo-" + System.nanoTime() + "\"}"), 201).get("id").asText();
    awaitTurns(api, run, 1, 1);
    body(api.post("/api/runs/" + run + "/messages", "{\"question\": \"conv: redo, second?\"}"), 202);
    awaitTurns(api, run, 2, 2);
    body(api.post("/api/runs/" + run + "/messages", "{\"question\": \"conv: redo, third?\"}"), 202);
    awaitTurns(api, run, 3, 3);
    cockpit.openRun(run);
    browser.await(By.cssSelector(".agentloop-conversation[data-turns='3']"));
    // the newest turn's redo is the run's "Regenerate answer"; the earlier ones have their own
    assertThat(browser.all(By.cssSelector("[data-action='redo-turn']")))
        .extracting(button -> button.getAttribute("data-redo-turn")).containsExactly("1", "2");

    // when the operator redoes turn 1 with a reason, the later questions asked again (offered checked)
    browser.await(By.cssSelector("[data-action='redo-turn'][data-redo-turn='1']")).click();
    WebElement form = browser.await(By.cssSelector("form[data-redo-form='1']"));
    form.findElement(By.cssSelector("[data-field='redo-reason']")).sendKeys("the tool was down");
    assertThat(form.findElement(By.cssSelector("[data-field='redo-replay']")).isSelected()).isTrue();
    form.findElement(By.cssSelector("[data-action='submit-redo']")).click();

    // then the confirmation stands under turn 1, where the button was ...
    browser.awaitText(By.cssSelector("[data-turn-slot='1'] .alert-success"),
        "Turn 1 is being redone on a new branch");
    assertThat(browser.textOf(By.cssSelector("[data-turn-slot='1']")))
        .contains("their questions are asked again on the new one");
    // ... and once the questions were asked again, the new branch shows three turns beside the old one
    awaitTurns(api, run, 3, 6);
    browser.awaitText(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='1'] > [data-branch='active']"
        + " [data-answer='3']"), "answer to 'conv: redo, third?'");
    WebElement active = browser.await(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='1']"
        + " > [data-branch='active']"));
    assertThat(active.findElement(By.cssSelector("[data-answer='1']")).getText())
        .contains("second answer to 'conv: redo in Cockpit'");
    assertThat(texts(active, "[data-question]")).hasSize(3);
    assertThat(active.findElement(By.cssSelector("[data-question='2']")).getText()).contains("conv: redo, second?");
    assertThat(active.findElement(By.cssSelector("[data-question='3']")).getText()).contains("conv: redo, third?");
    // the question asked again was answered on the new turn 1's answer
    assertThat(active.findElement(By.cssSelector("[data-answer='2']")).getText())
        .contains("after 'second answer to 'conv: redo in Cockpit'");
    WebElement old = browser.await(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='1']"
        + " > .agentloop-branch-superseded"));
    assertThat(old.findElement(By.cssSelector(".agentloop-branch-head")).getText())
        .contains("regenerated by operator").contains("the tool was down").contains("2 later turns kept here");
    assertThat(old.findElement(By.cssSelector("[data-answer='1']")).getText())
        .contains("first answer to 'conv: redo in Cockpit'");
    assertThat(old.findElement(By.cssSelector("[data-answer='3']")).getText())
        .contains("first answer to 'conv: redo, third?'");
    assertThat(old.getRect().getX()).isGreaterThan(active.getRect().getX() + active.getRect().getWidth() - 1);
    browser.screenshot("cockpit-conversation-redo-turn-1");
  }

  @Test
  void should_offer_the_later_questions_again_when_an_edit_lies_in_an_earlier_turn_and_drop_them_when_unchecked() {
    // given a conversation of two turns: #1 plan, #2 answer | #3 follow-up, #4 plan, #5 answer
    ApiClient api = ApiClient.as(port, "operator");
    String run = twoTurns(api, "conv: edit, dropped");

    // a step of the newest turn has no later questions to ask again
    browser.await(By.cssSelector(".agentloop-active-path > li[data-step='4'] [data-action='edit']")).click();
    WebElement newest = browser.await(By.cssSelector("form[data-editor='4']"));
    assertThat(newest.findElements(By.cssSelector("[data-field='edit-replay']"))).isEmpty();
    newest.findElement(By.xpath(".//button[text()='Cancel']")).click();
    browser.awaitGone(By.cssSelector("form[data-editor='4']"));

    // when the operator edits turn 1's plan and unchecks "ask the later questions again"
    editTurnOnePlan(false);

    // then turn 1 is answered anew and the second question is not asked again: it stays on the old branch
    awaitTurns(api, run, 1, 3);
    browser.awaitText(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='1'] > .agentloop-branch-superseded"
        + " .agentloop-branch-head"), "1 later turn kept here");
    WebElement active = browser.await(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='1']"
        + " > [data-branch='active']"));
    assertThat(texts(active, "[data-question]")).hasSize(1);
    assertThat(browser.textOf(By.cssSelector(".agentloop-branch-superseded [data-question='2']")))
        .contains("conv: edit, dropped, second?");
  }

  @Test
  void should_ask_the_later_questions_again_after_an_edit_in_an_earlier_turn_when_left_checked() {
    ApiClient api = ApiClient.as(port, "operator");
    String run = twoTurns(api, "conv: edit, asked again");

    editTurnOnePlan(true);

    // the second question is asked again on the new branch, after turn 1's new answer
    awaitTurns(api, run, 2, 4);
    browser.awaitText(By.cssSelector(".agentloop-conversation-fork[data-fork-turn='1'] > [data-branch='active']"
        + " [data-question='2']"), "conv: edit, asked again, second?");
    assertThat(browser.textOf(By.cssSelector(".agentloop-branch-superseded [data-question='2']")))
        .contains("conv: edit, asked again, second?");
  }

  /** A conversation of two turns, open on its run page. */
  private String twoTurns(ApiClient api, String question) {
    String run = body(api.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + AGENT
        + "\", \"conversationId\": \"edit-" + System.nanoTime() + "\"}"), 201).get("id").asText();
    awaitTurns(api, run, 1, 1);
    body(api.post("/api/runs/" + run + "/messages", "{\"question\": \"" + question + ", second?\"}"), 202);
    awaitTurns(api, run, 2, 2);
    cockpit.openRun(run);
    browser.await(By.cssSelector(".agentloop-conversation[data-turns='2']"));
    return run;
  }

  /** Edits step #1 (turn 1's plan) with the checkbox, offered checked, left so or unchecked. */
  private void editTurnOnePlan(boolean askAgain) {
    browser.await(By.cssSelector(".agentloop-active-path > li[data-step='1'] [data-action='edit']")).click();
    WebElement form = browser.await(By.cssSelector("form[data-editor='1']"));
    WebElement replay = form.findElement(By.cssSelector("[data-field='edit-replay']"));
    assertThat(replay.isSelected()).isTrue();
    if (!askAgain) {
      replay.click();
    }
    assertThat(replay.isSelected()).isEqualTo(askAgain);
    form.findElement(By.cssSelector("[data-field='plan']")).sendKeys("\nAnswer briefly");
    form.findElement(By.cssSelector("[data-field='reason']")).sendKeys("a shorter plan");
    form.findElement(By.cssSelector("[data-action='submit-edit']")).click();
  }

  private static List<String> texts(WebElement in, String css) {
    return in.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
  }

  /** Waits until the run waits for a follow-up with this many turns and this many answers on any branch. */
  private static void awaitTurns(ApiClient api, String run, int turns, int answers) {
    await().atMost(Runs.PATIENCE).until(() -> {
      JsonNode view = body(api.get("/api/runs/" + run), 200);
      JsonNode trace = body(api.get("/api/runs/" + run + "/trace?branches=all"), 200);
      long written = 0;
      for (JsonNode step : trace.get("steps")) {
        written += step.get("kind").asText().equals("FINAL_ANSWER") ? 1 : 0;
      }
      return view.get("turns").size() == turns && view.get("waitingFor").toString().contains("follow-up")
          && written == answers;
    });
  }
}
