package dev.agentloop.browser;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.agent.definition.AgentSettings;
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
}
