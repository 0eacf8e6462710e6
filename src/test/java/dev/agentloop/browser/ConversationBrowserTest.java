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
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
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
 * A conversation in Tasklist: the reviewer accepts an answer and asks the follow-up in the answer
 * review form itself, and the next answer review shows the earlier turn above the new answer.
 * Screenshots go to {@code target/screenshots/}.
 */
@AgentLoopTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConversationBrowserTest {

  private static final String AGENT = "browser-conversation-agent";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;
  private TasklistPage tasklist;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void log_in_as_a_reviewer() {
    browser = Browser.open(port);
    browser.driver.manage().window().setSize(new Dimension(1440, 900));
    tasklist = new TasklistPage(browser).login("reviewer", "reviewer");
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.CONVERSATION, "true"));
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_accept_and_ask_a_follow_up_and_show_both_turns_in_the_next_review() {
    ApiClient api = ApiClient.as(port, "reviewer");
    String run = body(api.post("/api/runs", "{\"question\": \"conv: in the browser\", \"agent\": \"" + AGENT + "\"}"),
        201).get("id").asText();
    JsonNode first = api.awaitTask(run, "reviewAnswer");

    tasklist.open(first.get("id").asText());
    assertThat(tasklist.shows("followUpQuestion")).isFalse();
    tasklist.choose("decision", "Accept and ask a follow-up");
    tasklist.type("followUpQuestion", "conv: and in the next turn?");
    browser.screenshot("tasklist-conversation-accept-and-ask");
    tasklist.complete();
    tasklist.awaitClosed();

    JsonNode second = await().atMost(Runs.PATIENCE).until(() -> api.awaitTask(run, "reviewAnswer"),
        task -> !task.get("id").asText().equals(first.get("id").asText()));
    tasklist.open(second.get("id").asText());
    assertThat(tasklist.field("earlierTurns").getAttribute("value"))
        .isEqualTo("Question 1: conv: in the browser\nAnswer: first answer to 'conv: in the browser' after ''");
    assertThat(tasklist.field("answer").getAttribute("value"))
        .startsWith("first answer to 'conv: and in the next turn?' after 'first answer");
    // the current question heads the form, in a read-only field (model and user text is never Markdown)
    assertThat(tasklist.field("question").getAttribute("value")).isEqualTo("conv: and in the next turn?");
    browser.screenshot("tasklist-conversation-second-turn");
  }

  @Test
  void should_redo_turn_two_from_the_review_of_turn_five_and_ask_the_later_questions_again() {
    // given a five-turn conversation held in Tasklist, each next question asked with "Accept and ask a follow-up"
    ApiClient api = ApiClient.as(port, "reviewer");
    String run = body(api.post("/api/runs", "{\"question\": \"conv: redo q1\", \"agent\": \"" + AGENT + "\"}"), 201)
        .get("id").asText();
    JsonNode review = api.awaitTask(run, "reviewAnswer");
    for (int turn = 2; turn <= 5; turn++) {
      tasklist.open(review.get("id").asText());
      tasklist.choose("decision", "Accept and ask a follow-up");
      tasklist.type("followUpQuestion", "conv: redo q" + turn);
      tasklist.complete();
      tasklist.awaitClosed();
      review = nextReview(api, run, review);
    }

    // when the reviewer of turn 5 regenerates turn 2's answer, asking the later questions again
    tasklist.open(review.get("id").asText());
    tasklist.choose("decision", "Regenerate: let the agent answer again");
    assertThat(tasklist.chosen("regenerateTurn")).isEqualTo("This answer (turn 5)");
    assertThat(tasklist.shows("replayLaterTurns")).isFalse();
    tasklist.choose("regenerateTurn", "Turn 2: conv: redo q2");
    // the later questions are asked again unless the reviewer unchecks it
    assertThat(tasklist.field("replayLaterTurns").isSelected()).isTrue();
    tasklist.type("regenerateReason", "the tool was down in turn 2");
    tasklist.wheelTo("replayLaterTurns");
    browser.screenshot("tasklist-conversation-redo-turn-2");
    tasklist.complete();
    tasklist.awaitClosed();

    // then turn 2 is answered anew, and each accepted answer asks the next later question again, in order
    review = nextReview(api, run, review);
    assertThat(review.get("form").get("answer").asText()).startsWith("second answer to 'conv: redo q2'");
    for (int turn = 3; turn <= 5; turn++) {
      tasklist.open(review.get("id").asText());
      if (turn == 4) {
        // the review of turn 3, asked again, shows the answer turn 3 had before the redo beside the new one
        assertThat(tasklist.field("earlierAnswers").getAttribute("value")).matches("(?s)Answer 1 \\(#\\d+, before an"
            + " earlier turn was redone\\):\nfirst answer to 'conv: redo q3' after 'first answer to 'conv: redo q2'.*");
        tasklist.wheelTo("earlierAnswers");
        browser.screenshot("tasklist-conversation-replayed-turn-3");
      }
      tasklist.choose("decision", "Accept the answer");
      tasklist.complete();
      tasklist.awaitClosed();
      review = nextReview(api, run, review);
      assertThat(review.get("form").get("subject").asText()).isEqualTo("conv: redo q" + turn);
    }

    // and the review of turn 5 on the new branch shows the five turns, turn 2 with its new answer
    tasklist.open(review.get("id").asText());
    String turns = tasklist.field("earlierTurns").getAttribute("value");
    assertThat(turns).startsWith("Question 1: conv: redo q1\nAnswer: first answer to 'conv: redo q1' after ''\n\n"
        + "Question 2 (reviewer): conv: redo q2\nAnswer: second answer to 'conv: redo q2'");
    assertThat(turns).contains("Question 3 (reviewer): conv: redo q3", "Question 4 (reviewer): conv: redo q4");
    assertThat(tasklist.field("question").getAttribute("value")).isEqualTo("conv: redo q5");
    assertThat(tasklist.field("answer").getAttribute("value")).startsWith("first answer to 'conv: redo q5' after"
        + " 'first answer to 'conv: redo q4'");
    tasklist.wheelTo("earlierTurns");
    browser.screenshot("tasklist-conversation-after-redo");
    JsonNode view = body(api.get("/api/runs/" + run), 200);
    assertThat(view.get("turns")).extracting(turn -> turn.get("question").asText()).containsExactly(
        "conv: redo q1", "conv: redo q2", "conv: redo q3", "conv: redo q4", "conv: redo q5");
  }

  private static JsonNode nextReview(ApiClient api, String run, JsonNode previous) {
    return await().atMost(Runs.PATIENCE).until(() -> api.awaitTask(run, "reviewAnswer"),
        task -> !task.get("id").asText().equals(previous.get("id").asText()));
  }
}
