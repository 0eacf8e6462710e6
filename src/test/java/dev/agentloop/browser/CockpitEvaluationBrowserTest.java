package dev.agentloop.browser;

import static dev.agentloop.ApiClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.ApiClient;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.evaluation.ShopModel;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.security.AgentOwnership;
import dev.agentloop.spi.AgentTool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Evaluations in Cockpit, in headless Chromium, with the real engine, H2 and the model on the OpenAI wire (a local
 * fake): on the agent's tab "Agent evaluations" an operator uploads a changed diagram, ticks recorded runs found by a
 * search, starts the evaluation, and reads each case side by side as it finishes: the answers with the words that
 * changed, outcome, steps, tokens, the verdict and the judge's reasoning; a candidate that failed a case is not
 * offered for promotion. An analyst evaluates and promotes a candidate of a key handed to the analysts, and is refused the
 * promotion of the application's key. Screenshots go to {@code target/screenshots/}.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, CockpitEvaluationBrowserTest.ShopTools.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.provider=openai", "agentloop.llm.model=chat-model", "agentloop.llm.timeout=PT5S",
        "agentloop.tools.approval.issue_refund=false", "agentloop.evaluation.poll-interval=PT0.1S",
        "camunda.bpm.process-engine-name=" + CockpitEvaluationBrowserTest.ENGINE})
@ActiveProfiles("test")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CockpitEvaluationBrowserTest {

  /** An engine of its own: its context runs beside the tests' shared one, whose engine is called {@code default}. */
  static final String ENGINE = "evaluationBrowser";
  private static final String TAB = "agentloop.processDefinition.evaluations";
  private static final AtomicInteger LOOKUPS = new AtomicInteger();
  private static final FakeOpenAiServer SERVER = start();

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;
  @Autowired AgentOwnership owners;

  private Browser browser;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @DynamicPropertySource
  static void endpoint(DynamicPropertyRegistry registry) {
    registry.add("agentloop.llm.base-url", SERVER::baseUrl);
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @AfterAll
  void close() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void should_start_an_uploaded_candidate_on_searched_runs_and_show_each_case_side_by_side() throws IOException {
    String agent = "shop-cockpit-agent";
    ApiClient operator = ApiClient.as(port, "operator");
    deployAgent(agent);
    String apples = record(operator, agent, "What do apples cost?");
    String pears = record(operator, agent, "What do pears cost?");
    record(operator, agent, "Refund my order 42.");
    int lookups = LOOKUPS.get();
    Path upload = Files.createTempFile("candidate-", ".bpmn");
    Files.writeString(upload, candidate(agent, ShopModel.TERSE));

    login("operator");
    openTab(agent);
    browser.awaitText(By.cssSelector("[data-no-evaluations]"), "No evaluation of this agent yet.");
    browser.click(By.cssSelector("[data-action='new-evaluation']"));
    // nothing chosen: every problem is said at once, and nothing starts
    browser.await(By.cssSelector("[data-found-run='" + apples + "']"));
    browser.click(By.cssSelector("[data-field='source-diagram']"));
    browser.click(By.cssSelector("[data-action='start-evaluation']"));
    browser.awaitText(By.cssSelector(".agentloop-eval-form .agentloop-form-problem"), "Paste or upload");
    assertThat(browser.await(By.cssSelector(".agentloop-eval-form .agentloop-form-problem")).getText())
        .contains("an evaluation needs cases", "Please give a reason");

    // the runs found by a piece of their question, two ticked; the candidate uploaded as Modeler saved it
    browser.await(By.cssSelector("[data-field='run-search']")).sendKeys("cost");
    browser.click(By.cssSelector("[data-action='search-runs']"));
    await().atMost(Runs.PATIENCE).until(() -> browser.driver.findElements(By.cssSelector("[data-found-run]")).size()
        == 2);
    browser.click(By.cssSelector("[data-pick-run='" + apples + "']"));
    browser.click(By.cssSelector("[data-pick-run='" + pears + "']"));
    browser.await(By.cssSelector("[data-field='candidate-file']")).sendKeys(upload.toString());
    await().atMost(Runs.PATIENCE).until(() -> browser.await(By.cssSelector("[data-field='candidate-diagram']"))
        .getAttribute("value").contains(ShopModel.TERSE));
    browser.await(By.cssSelector("[data-field='judge-rubric']"))
        .sendKeys("The answer names the same price as the reference.");
    browser.await(By.cssSelector("[data-field='evaluation-reason']")).sendKeys("a terser prompt");
    browser.screenshot("cockpit-evaluation-1-form");
    browser.click(By.cssSelector("[data-action='start-evaluation']"));

    // the view follows the cases until the evaluation is done
    browser.await(By.cssSelector("[data-evaluation-status='DONE']"));
    WebElement failed = caseOf(apples);
    assertThat(failed.findElement(By.cssSelector("[data-verdict]")).getText()).isEqualTo("failed");
    assertThat(failed.findElement(By.cssSelector("[data-answer='recorded']")).getText())
        .isEqualTo("The apples cost 3 EUR.");
    assertThat(failed.findElement(By.cssSelector("[data-answer='recorded'] del")).getText()).isEqualTo("3");
    assertThat(failed.findElement(By.cssSelector("[data-answer='candidate']")).getText())
        .isEqualTo("The apples cost 7 EUR.");
    assertThat(failed.findElement(By.cssSelector("[data-answer='candidate'] ins")).getText()).isEqualTo("7");
    assertThat(failed.findElement(By.cssSelector("[data-row='outcome']")).getText()).contains("ANSWERED");
    assertThat(failed.findElement(By.cssSelector("[data-row='use']")).getText()).contains("steps", "tokens");
    assertThat(failed.findElement(By.cssSelector("[data-check='judge']")).getText())
        .contains("✘ judge", "another price than the reference's 3 EUR");
    assertThat(caseOf(pears).findElement(By.cssSelector("[data-verdict]")).getText()).isEqualTo("same");
    assertThat(browser.await(By.cssSelector("[data-evaluation-summary]")).getText())
        .isEqualTo("2 cases: 1 same, 0 changed, 1 failed");
    // the judge's calls are this evaluation's own cost, shown apart from the runs'
    assertThat(browser.await(By.cssSelector("[data-use='judge']")).getText()).startsWith("judge: 2 calls");
    assertThat(LOOKUPS.get()).isEqualTo(lookups);
    scrollTo(failed);
    browser.screenshot("cockpit-evaluation-2-side-by-side");

    // a candidate that failed a case is not offered for promotion, and says why
    assertThat(browser.await(By.cssSelector("[data-not-promotable]")).getText())
        .isEqualTo("Not to be promoted: 1 of its 2 cases failed. Change the candidate and evaluate it anew.");
    assertThat(browser.driver.findElements(By.cssSelector("[data-action='promote']"))).isEmpty();
    // the ended evaluation is listed with what it came to, and its candidate is no longer deployed
    browser.awaitText(By.cssSelector("[data-evaluation-row]"), "1 failed");
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery()
        .processDefinitionKeyLike(EvaluationKeys.PREFIX + "%").count()).isZero();
  }

  @Test
  void should_let_an_analyst_evaluate_and_promote_a_key_the_analysts_own_and_refuse_the_applications_key() {
    String owned = "shop-analysts-agent";
    String theirs = "shop-application-agent";
    ApiClient operator = ApiClient.as(port, "operator");
    deployAgent(owned);
    deployAgent(theirs);
    owners.handTo(owned, AgentLoopGroups.ANALYSTS);
    record(operator, owned, "What do pears cost?");
    record(operator, theirs, "What do pears cost?");

    login("analyst");
    openTab(owned);
    evaluateNewest(candidate(owned, "Be kind."), "kinder words");
    browser.await(By.cssSelector("[data-evaluation-status='DONE']"));
    assertThat(browser.await(By.cssSelector("[data-verdict]")).getText()).isEqualTo("same");
    browser.await(By.cssSelector("[data-field='promotion-reason']")).sendKeys("kinder, same answers");
    browser.click(By.cssSelector("[data-action='promote']"));
    browser.awaitText(By.cssSelector("[data-evaluation-status]"), "promoted by analyst as version 2");
    browser.screenshot("cockpit-evaluation-3-promoted");
    assertThat(latestVersion(owned)).isEqualTo(2);

    // the application's key: an analyst who may read its runs evaluates it, but never makes it go live
    openTab(theirs);
    evaluateNewest(candidate(theirs, "Be kind."), "kinder words");
    browser.await(By.cssSelector("[data-evaluation-status='DONE']"));
    browser.await(By.cssSelector("[data-field='promotion-reason']")).sendKeys("kinder");
    browser.click(By.cssSelector("[data-action='promote']"));
    browser.awaitText(By.cssSelector(".agentloop-eval-promote .agentloop-form-problem"), "is the application's");
    browser.screenshot("cockpit-evaluation-4-analyst-refused");
    assertThat(latestVersion(theirs)).isEqualTo(1);
  }

  /** A pasted candidate on the agent's newest finished run. */
  private void evaluateNewest(String diagram, String reason) {
    browser.click(By.cssSelector("[data-action='new-evaluation']"));
    browser.click(By.cssSelector("[data-field='source-diagram']"));
    WebElement text = browser.await(By.cssSelector("[data-field='candidate-diagram']"));
    // a whole diagram typed key by key would take minutes: pasted, as a person does
    ((JavascriptExecutor) browser.driver).executeScript("arguments[0].value = arguments[1]", text, diagram);
    WebElement recent = browser.await(By.cssSelector("[data-field='recent']"));
    recent.clear();
    recent.sendKeys("1");
    browser.await(By.cssSelector("[data-field='evaluation-reason']")).sendKeys(reason);
    browser.click(By.cssSelector("[data-action='start-evaluation']"));
  }

  private WebElement caseOf(String recordedRun) {
    return browser.await(By.cssSelector("[data-case]:has([data-run-link='" + recordedRun + "'])"));
  }

  private void scrollTo(WebElement element) {
    ((JavascriptExecutor) browser.driver).executeScript("arguments[0].scrollIntoView({block: 'start'})", element);
  }

  private void login(String user) {
    // a browser of its own for each person (closed only now, so that a failed test's screenshot shows its page)
    close();
    browser = Browser.open(port);
    browser.driver.manage().window().setSize(new Dimension(1400, 1400));
    try {
      new CockpitPage(browser, ENGINE).login(user, user);
    } catch (TimeoutException e) {
      // a busy machine's first load can outlast RequireJS's load timeout: the second is served from warm caches
      new CockpitPage(browser, ENGINE).login(user, user);
    }
  }

  private void openTab(String agent) {
    String definition = engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(agent)
        .latestVersion().singleResult().getId();
    browser.go("/camunda/app/cockpit/" + ENGINE + "/#/process-definition/" + definition + "/runtime?detailsTab=" + TAB);
    browser.await(By.cssSelector("[data-action='new-evaluation']"));
    // the diagram folded away, as a person reading an evaluation does
    new CockpitPage(browser, ENGINE).showTabsOnly();
  }

  private String record(ApiClient client, String agent, String question) {
    String run = ApiClient.body(client.post("/api/runs", JSON.createObjectNode().put("agent", agent)
        .put("question", question).toString()), 201).path("id").asText();
    await().atMost(Runs.PATIENCE).until(() -> ApiClient.body(client.get("/api/runs/" + run), 200)
        .path("status").asText().equals("ANSWERED"));
    return run;
  }

  private void deployAgent(String key) {
    TestAgent.deployVariant(engine, key, settings("You are a shop assistant."));
  }

  private static String candidate(String key, String promptAddition) {
    return Bpmn.convertToString(TestAgent.variant(key, settings("You are a shop assistant. " + promptAddition)));
  }

  private static Map<String, String> settings(String prompt) {
    return Map.of(AgentSettings.ALLOWED_TOOLS, "price_lookup, issue_refund", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.SYSTEM_PROMPT, prompt);
  }

  private int latestVersion(String key) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).latestVersion()
        .singleResult().getVersion();
  }

  private static FakeOpenAiServer start() {
    try {
      return new FakeOpenAiServer().answerWith(ShopModel::answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The shop's read-only price list, counting how often it really ran, and its refund with side effects. */
  @TestConfiguration(proxyBeanMethods = false)
  static class ShopTools {

    @Bean
    AgentTool priceLookup() {
      return TestTools.tool("price_lookup", false, TestTools.parse("{\"type\": \"object\", \"properties\":"
          + " {\"item\": {\"type\": \"string\"}}, \"required\": [\"item\"]}"), arguments -> {
            LOOKUPS.incrementAndGet();
            String item = arguments.path("item").asText();
            return item + ": " + (item.equals("apples") ? "3 EUR" : "2 EUR");
          });
    }

    @Bean
    AgentTool issueRefund() {
      return TestTools.tool("issue_refund", true, TestTools.parse("{\"type\": \"object\", \"properties\":"
          + " {\"order\": {\"type\": \"integer\"}}, \"required\": [\"order\"]}"),
          arguments -> "refunded order " + arguments.path("order").asInt());
    }
  }
}
