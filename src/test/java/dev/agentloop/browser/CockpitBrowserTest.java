package dev.agentloop.browser;

import static dev.agentloop.ApiClient.assertProblem;
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
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.Resource;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.identity.User;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
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

  /**
   * Uses Cockpit and may read every run, but is in neither AgentLoop group: what a reviewer would be
   * with Cockpit access. (The demo reviewer has no Cockpit access, and the API lets reviewers change
   * a run while it waits on a task offered to them, so a plain reviewer would not show the refusal.)
   */
  private static final String AUDITOR = "auditor";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private Browser browser;
  private CockpitPage cockpit;
  private ApiClient api;

  @RegisterExtension
  final TestWatcher screenshotOnFailure = Browser.screenshotOnFailure(() -> browser);

  @BeforeAll
  void log_in_as_an_operator() {
    createAuditor();
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
    String run = waitingForAnswer("multi-step: the trace in Cockpit");
    JsonNode view = body(api.get("/api/runs/" + run), 200);

    String task = api.awaitTask(run, "reviewAnswer").get("id").asText();

    cockpit.openTrace(run);

    assertThat(cockpit.fact("status")).isEqualTo("WAITING");
    // the person's task by its name, with a link to it in Tasklist, not the diagram's id
    assertThat(cockpit.live()).startsWith("WAITING — waiting for a person in Review the answer (").doesNotContain("reviewAnswer");
    assertThat(browser.attributeOf(By.cssSelector("[data-task-link]"), "href"))
        .endsWith("/camunda/app/tasklist/default/#/?task=" + task);
    assertThat(cockpit.fact("finalAnswer")).isEqualTo("757");
    assertThat(cockpit.budget("steps")).isEqualTo(view.get("steps").asText());
    assertThat(cockpit.budget("modelCalls")).isEqualTo(view.get("modelCalls").asText() + " of "
        + view.at("/budgets/modelCalls/limit").asText()).doesNotStartWith("0");
    assertThat(cockpit.budget("toolCalls")).isEqualTo("2 of " + view.at("/budgets/toolCalls/limit").asText());
    // the scripted model of this run reports no usage: said so, not counted as 0
    assertThat(view.get("tokens").asInt()).isZero();
    assertThat(cockpit.budget("tokens")).isEqualTo("not reported by the endpoint (limit "
        + view.at("/budgets/tokens/limit").asText() + ")");
    assertThat(cockpit.activePath()).containsExactly("#1 PLAN ACTIVE", "#2 THOUGHT ACTIVE", "#3 ACTION ACTIVE",
        "#4 OBSERVATION ACTIVE", "#5 THOUGHT ACTIVE", "#6 ACTION ACTIVE", "#7 OBSERVATION ACTIVE",
        "#8 FINAL_ANSWER ACTIVE");
    assertThat(cockpit.activeStep(1).getText()).contains("model", "Compute the product", "Add the days of a leap year");
    assertThat(cockpit.activeStep(3).getText()).contains("calculator", "\"expression\": \"17 * 23\"");
    assertThat(cockpit.activeStep(4).getText()).contains("calculator", "391");
    // shared by all runs and all closed: folded under the trace
    assertThat(cockpit.breakers()).contains("Circuit breakers (shared by all runs): all").doesNotContain("no breaker information");
    assertThat(browser.await(By.cssSelector(".agentloop-breakers details")).getAttribute("open")).isNull();
    browser.screenshot("cockpit-1-agent-trace");
  }

  @Test
  void should_show_a_models_reasoning_folded_under_its_step_and_not_in_its_text() {
    String run = waitingForAnswer("reasoning-trace: fold it");

    cockpit.openTrace(run);

    WebElement thought = cockpit.activeStep(2);
    assertThat(thought.findElement(By.cssSelector(".agentloop-content")).getText()).isEqualTo("I compute.");
    WebElement reasoning = thought.findElement(By.cssSelector("details.agentloop-reasoning"));
    assertThat(reasoning.getAttribute("open")).isNull();
    assertThat(reasoning.findElement(By.tagName("summary")).getText()).isEqualTo("Reasoning (45 characters)");
    // the tab scrolls inside Cockpit's own container, which a click does not scroll into view
    browser.clickNow(reasoning.findElement(By.tagName("summary")));
    assertThat(reasoning.getText()).contains("SECRET-REASONING: the calculator knows 6 * 7.");
  }

  @Test
  void should_edit_an_observation_and_resume_the_run_from_it() {
    String run = waitingForAnswer("multi-step: edit in Cockpit");
    cockpit.openTrace(run);

    cockpit.edit(4);
    assertThat(browser.attributeOf(By.cssSelector("[data-field='result']"), "value")).isEqualTo("391");
    cockpit.type("result", "400").type("reason", "the calculator was wrong");
    browser.screenshot("cockpit-2-edit-step");
    cockpit.submit("submit-edit");

    // the confirmation stands under the step that replaced the edited one, where the operator pressed the button
    assertThat(cockpit.stepNotice(9).getText())
        .contains("#9 replaces #4", "the agent thinks again", "Superseded: #4, #5, #6, #7, #8");
    // the tab follows the run as it goes on from the edited step and waits with a new answer
    await().atMost(Runs.PATIENCE).ignoreExceptions().until(cockpit::activePath, path -> path.equals(List.of(
        "#1 PLAN ACTIVE", "#2 THOUGHT ACTIVE", "#3 ACTION ACTIVE", "#9 OBSERVATION ACTIVE", "#10 THOUGHT ACTIVE",
        "#11 ACTION ACTIVE", "#12 OBSERVATION ACTIVE", "#13 FINAL_ANSWER ACTIVE")));
    cockpit.awaitFact("status", "WAITING");
    assertThat(cockpit.activeStep(9).getText())
        .contains("operator", "replaces #4", "the calculator was wrong", "400");
    // the step tree: the old branch in a column beside the edited step, which replaced its first step
    await().atMost(Runs.PATIENCE).until(cockpit::treeNodes, nodes -> nodes.size() == 13);
    assertThat(cockpit.treeNodes()).containsExactly("#1 ACTIVE col 0 row 0", "#2 ACTIVE col 0 row 1",
        "#3 ACTIVE col 0 row 2", "#4 SUPERSEDED col 1 row 3", "#5 SUPERSEDED col 1 row 4", "#6 SUPERSEDED col 1 row 5",
        "#7 SUPERSEDED col 1 row 6", "#8 SUPERSEDED col 1 row 7", "#9 ACTIVE col 0 row 3", "#10 ACTIVE col 0 row 4",
        "#11 ACTIVE col 0 row 5", "#12 ACTIVE col 0 row 6", "#13 ACTIVE col 0 row 7");
    assertThat(cockpit.edits()).singleElement().asString()
        .contains("#4 → #9", "by operator", "the calculator was wrong", "391", "400");
    assertThat(browser.all(By.cssSelector(".agentloop-active-path .agentloop-superseded"))).as("no struck-through lists")
        .isEmpty();
    assertThat(cockpit.pick(4).getText()).contains("superseded", "391");
    browser.screenshot("cockpit-3-resumed-with-superseded-branch");
    assertThat(trace(run, "all")).contains("#4 OBSERVATION SUPERSEDED", "#8 FINAL_ANSWER SUPERSEDED",
        "#9 OBSERVATION ACTIVE");
  }

  @Test
  void should_regenerate_the_answer_and_stop_the_run_with_a_reason() {
    String run = waitingForAnswer("regenerate: in Cockpit");
    cockpit.openTrace(run);
    assertThat(cockpit.activeStep(2).getText()).contains("first answer");

    cockpit.act("regenerate", "too short");
    assertThat(cockpit.awaitMessage("success")).contains("A new answer is being generated");
    await().atMost(Runs.PATIENCE).ignoreExceptions().until(cockpit::activePath,
        path -> path.equals(List.of("#1 PLAN ACTIVE", "#3 FINAL_ANSWER ACTIVE")));
    assertThat(cockpit.activeStep(3).getText()).contains("second answer");
    await().atMost(Runs.PATIENCE).until(cockpit::treeNodes,
        nodes -> nodes.containsAll(List.of("#2 SUPERSEDED col 1 row 1", "#3 ACTIVE col 0 row 1")));
    assertThat(cockpit.pick(2).getText()).contains("first answer", "superseded", "operator regenerated", "too short");

    // a stop needs a reason, which the tab asks for before it calls the API
    cockpit.act("stop", "");
    assertThat(cockpit.awaitMessage("warning")).contains("Please give a reason");
    cockpit.act("stop", "enough answers for today");
    assertThat(cockpit.awaitMessage("success")).contains("The run is stopped");
    cockpit.awaitFact("status", "STOPPED");
    assertThat(cockpit.fact("statusReason")).contains("operator", "enough answers for today");
    assertThat(cockpit.fact("endedBy")).isEqualTo("operator");
    browser.screenshot("cockpit-4-stopped");
    assertThat(body(api.get("/api/runs/" + run), 200).get("status").asText()).isEqualTo("STOPPED");
  }

  @Test
  void should_tell_the_operator_in_words_why_the_api_refused_an_edit() {
    String run = waitingForAnswer("multi-step: refused in Cockpit");
    cockpit.openTrace(run);

    // 400: arguments that break the calculator's schema; the form stays open with the reason
    cockpit.edit(3).type("arguments", "{\"expr\": \"2 * 3\"}").type("reason", "other numbers");
    cockpit.submit("submit-edit");
    assertThat(cockpit.awaitFormProblem())
        .startsWith("The server did not accept this input (400)").contains("do not match its schema");

    // 409: the run moved on while the form was open (its answer was regenerated through the API)
    body(api.post("/api/runs/" + run + "/regenerate", "{}"), 200);
    cockpit.type("arguments", "{\"expression\": \"2 * 3\"}");
    cockpit.submit("submit-edit");
    await().atMost(Runs.PATIENCE).until(cockpit::awaitFormProblem, problem -> problem.contains("(409)"));
    assertThat(cockpit.awaitFormProblem()).startsWith("This conflicts with the run's current state (409)")
        .contains("moved on since version");
    browser.screenshot("cockpit-5-conflict");
    assertThat(trace(run, "active")).contains("#3 ACTION ACTIVE");
  }

  @Test
  void should_restart_a_finished_run_from_a_step_on_the_agent_runs_tab() {
    String run = start(TestAgent.KEY, "multi-step: restart in Cockpit");
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + run), 200).get("status").asText(),
        "ANSWERED"::equals);

    cockpit.openRuns(definitionOf(TestAgent.KEY)).searchRuns("restart in Cockpit");
    assertThat(browser.textOf(By.cssSelector("[data-run-cost='" + run + "']")))
        .matches("(tokens not reported|[\\d,]+ tokens) · \\d+ model calls · 2 tool calls( · \\$[\\d.]+)?");
    // the table is drawn again when the search answers: read it once it lists the run
    await().atMost(Runs.PATIENCE).ignoreExceptions().until(cockpit::listedRuns, listed -> listed.contains(run));
    cockpit.showRun(run).restartFrom(run, 4);
    cockpit.type("restart-reason", "check the sum again");
    browser.screenshot("cockpit-6-restart-from-step");
    cockpit.submit("submit-restart");

    // the confirmation stands under the step whose button was pressed, in view, not at the top of the page
    WebElement confirmation = cockpit.stepNotice(4);
    assertThat(confirmation.getText()).contains("Run " + run + " restarted from #4 as run");
    assertThat(cockpit.inViewport("li.agentloop-step[data-step='4'] [data-restarted]")).isTrue();
    browser.screenshot("cockpit-6b-restarted-next-to-the-button");
    String restarted = confirmation.findElement(By.cssSelector("[data-run-link]")).getAttribute("data-run-link");
    JsonNode view = body(api.get("/api/runs/" + restarted), 200);
    assertThat(view.get("restartedFrom").asText()).isEqualTo(run);
    assertThat(view.get("restartedFromStep").asInt()).isEqualTo(4);
    assertThat(view.get("restartReason").asText()).isEqualTo("check the sum again");
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + restarted), 200).get("status").asText(),
        "ANSWERED"::equals);
    assertThat(trace(restarted, "active")).containsExactly("#1 PLAN ACTIVE", "#2 THOUGHT ACTIVE", "#3 ACTION ACTIVE",
        "#4 OBSERVATION ACTIVE", "#5 THOUGHT ACTIVE", "#6 ACTION ACTIVE", "#7 OBSERVATION ACTIVE",
        "#8 FINAL_ANSWER ACTIVE");

    // "restarted as" and "restarted from" open the finished runs on the plugin's run page
    cockpit.followRunLink(restarted);
    cockpit.awaitFact("status", "ANSWERED");
    assertThat(cockpit.fact("restartedFrom")).contains(run, "#4", "operator", "check the sum again");
    cockpit.followRunLink(run);
    assertThat(cockpit.fact("restarts")).contains(restarted);
    assertThat(cockpit.activePath()).hasSize(8);
  }

  @Test
  void should_open_a_finished_runs_whole_trace_from_the_agent_runs_tab_with_the_trace_first() {
    String run = start(TestAgent.KEY, "multi-step: read it after it ended");
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + run), 200).get("status").asText(),
        "ANSWERED"::equals);
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1440, 900));
    try {
      cockpit.openRuns(definitionOf(TestAgent.KEY)).searchRuns("read it after it ended");
      assertThat(cockpit.listedRuns()).containsExactly(run);
      browser.screenshot("cockpit-8-search-runs");
      cockpit.followRunLink(run);

      assertThat(cockpit.live()).isEqualTo("ANSWERED");
      assertThat(cockpit.activePath()).hasSize(8);
      assertThat(cockpit.stepButton(4, "restart").isEnabled()).isTrue();
      // the trace comes first: its first steps are on the first screen, the breakers are folded below it
      WebElement first = cockpit.activeStep(1);
      assertThat(first.getRect().getY()).isLessThan(700);
      // (below the first screen, inside Cockpit's scrolling pane, so present rather than visible)
      assertThat(browser.all(By.cssSelector(".agentloop-breakers details"))).singleElement()
          .satisfies(breakers -> assertThat(breakers.getAttribute("open")).isNull());
      browser.screenshot("cockpit-9-finished-run-page-1440x900");
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1800));
    }
  }

  @Test
  void should_scroll_the_run_page_to_its_bottom_with_the_mouse_wheel_and_the_keyboard() {
    String run = start(TestAgent.KEY, "multi-step: scroll to the bottom");
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + run), 200).get("status").asText(),
        "ANSWERED"::equals);
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1440, 900));
    try {
      cockpit.openRun(run);
      assertThat(browser.textOf(By.cssSelector("[data-scripted-model]")))
          .startsWith("Scripted demo model — set agentloop.llm.provider to use a real one.");
      // a person's first screen: the head of the trace, not its end
      assertThat(cockpit.inViewport(".agentloop-breakers")).isFalse();

      double top = cockpit.headTop();
      cockpit.wheel(600);
      await().atMost(Runs.PATIENCE).until(() -> top - cockpit.headTop() > 300);
      cockpit.wheel(20000);
      await().atMost(Runs.PATIENCE).until(() -> cockpit.inViewport(".agentloop-breakers"));
      assertThat(cockpit.inViewport(".agentloop-budgets")).isTrue();
      browser.screenshot("cockpit-12-run-page-scrolled-to-its-bottom-by-wheel");

      // freshly opened again, the keyboard alone: no click, no wheel
      browser.driver.navigate().refresh();
      cockpit.awaitRunPage(run);
      assertThat(cockpit.inViewport(".agentloop-breakers")).isFalse();
      double before = cockpit.headTop();
      cockpit.press(org.openqa.selenium.Keys.PAGE_DOWN);
      await().atMost(Runs.PATIENCE).until(() -> before - cockpit.headTop() > 300);
      cockpit.press(org.openqa.selenium.Keys.END);
      await().atMost(Runs.PATIENCE).until(() -> cockpit.inViewport(".agentloop-breakers"));
      // the last step's "Restart from here" can be reached, not only seen
      assertThat(cockpit.inViewport(".agentloop-active-path > li[data-step='7'] [data-action='restart']")).isTrue();
      browser.screenshot("cockpit-13-run-page-scrolled-to-its-bottom-by-keyboard");
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1800));
    }
  }

  @Test
  void should_show_the_active_step_live_while_the_model_thinks_and_then_each_steps_cost_and_prompt() {
    String run = start(TestAgent.KEY, "slow-thinking: watch it work");

    cockpit.openTrace(run);
    await().atMost(Runs.PATIENCE).ignoreExceptions().until(cockpit::live,
        live -> live.matches("RUNNING — thinking \\(model call, [1-9]\\d* s\\)"));
    browser.screenshot("cockpit-10-live-model-call");
    await().atMost(Runs.PATIENCE).ignoreExceptions().until(() -> cockpit.fact("status"), "ANSWERED"::equals);

    // 90 prompt tokens at 2.50 and 3 completion tokens at 10 per million (the test profile's price of "scripted")
    assertThat(cockpit.cost(5)).matches("model call \\d+(\\.\\d)? s · 90 prompt tokens \\+ 3 completion tokens · \\$0.000255");
    assertThat(cockpit.cost(2)).matches("model call \\d+\\.\\d s · tokens not reported by the endpoint");
    assertThat(cockpit.cost(4)).matches("tool call \\d+\\.\\d s");
    assertThat(cockpit.budget("tokenParts")).isEqualTo("90 prompt tokens + 3 completion (2 calls reported none)");
    assertThat(cockpit.budget("money")).isEqualTo("$0.000255 · 2 model calls not priced");
    assertThat(cockpit.budget("modelTime")).matches("\\d+(\\.\\d)? s");
    WebElement prompt = cockpit.prompt(5);
    assertThat(prompt.getText()).contains("What the model received for #5 (thinking): 4 messages",
        "SYSTEM", "USER", "slow-thinking: watch it work", "ASSISTANT", "calculator", "TOOL RESULT", "391");
    browser.screenshot("cockpit-11-costs-and-prompt");
  }

  @Test
  void should_show_each_steps_prompt_tokens_from_the_cache_and_the_runs_money_with_and_without_the_cache() {
    String run = start(TestAgent.KEY, "prompt-cache: what it saved");
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + run), 200).get("status").asText(),
        "ANSWERED"::equals);

    // the run has ended: its page in the plugin, as Cockpit shows no finished instance
    cockpit.openRun(run);

    // 180 uncached at 2.50, 1,024 cached at 1.25 and 20 out at 10 per million; without the cache all at 2.50
    assertThat(cockpit.cost(2)).matches("model call \\d+(\\.\\d)? s · 1,204 prompt tokens \\(1,024 cached\\)"
        + " \\+ 20 completion tokens · \\$0.00193 \\(without the cache: \\$0.00321\\)");
    assertThat(cockpit.cost(5)).matches("model call \\d+(\\.\\d)? s · 1,300 prompt tokens \\(1,280 cached\\)"
        + " \\+ 12 completion tokens · \\$0.00177 \\(without the cache: \\$0.00337\\)");
    assertThat(cockpit.budget("tokenParts")).isEqualTo("2,504 prompt tokens (2,304 cached) + 32 completion"
        + " (1 call reported none)");
    assertThat(cockpit.budget("money")).isEqualTo("$0.0037 (without the cache: $0.00658) · 1 model call not priced");
    browser.screenshot("cockpit-14-prompt-cache-costs");
    // and the agent's list of runs adds the run's money to what it used
    cockpit.openRuns(definitionOf(TestAgent.KEY)).searchRuns("prompt-cache: what it saved");
    await().atMost(Runs.PATIENCE).ignoreExceptions().until(
        () -> browser.textOf(By.cssSelector("[data-run-cost='" + run + "']")),
        text -> text.equals("2,536 tokens · 3 model calls · 1 tool call · $0.0037"));
  }

  @Test
  void should_offer_a_user_without_operator_rights_no_action_and_the_api_refuses_them() {
    String waiting = waitingForAnswer("multi-step: an auditor looks on");
    String finished = start(TestAgent.KEY, "multi-step: an auditor looks back");
    await().atMost(Runs.PATIENCE).until(() -> body(api.get("/api/runs/" + finished), 200).get("status").asText(),
        "ANSWERED"::equals);

    // the operator may act on the waiting run, so the disabled buttons below are the user's rights
    cockpit.openTrace(waiting);
    assertThat(cockpit.stepButton(4, "edit").isEnabled()).isTrue();
    assertThat(cockpit.button("regenerate").isEnabled()).isTrue();
    assertThat(cockpit.button("stop").isEnabled()).isTrue();

    try (Browser other = Browser.open(port)) {
      other.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1800));
      CockpitPage auditor = new CockpitPage(other).login(AUDITOR, AUDITOR).openTrace(waiting);
      assertThat(auditor.activePath()).hasSize(8);
      assertThat(auditor.stepButton(4, "edit").isEnabled()).isFalse();
      assertThat(auditor.button("regenerate").isEnabled()).isFalse();
      assertThat(auditor.button("stop").isEnabled()).isFalse();
      assertThat(auditor.why()).contains("only agent-operators");
      other.screenshot("cockpit-7-no-operator-rights");

      auditor.openRuns(definitionOf(TestAgent.ANSWER_REVIEWED)).searchRuns("an auditor looks on");
      // the list says on what a waiting run waits, and what it cost so far
      assertThat(other.textOf(By.cssSelector("[data-waiting='" + waiting + "']")))
          .isEqualTo("waiting: Review the answer");
      assertThat(other.textOf(By.cssSelector("[data-run-cost='" + waiting + "']"))).contains("model calls");
      other.screenshot("cockpit-14-agent-runs-waiting-and-cost");
      auditor.openRuns(definitionOf(TestAgent.KEY)).showRun(finished);
      assertThat(other.all(By.cssSelector("tr[data-run='" + finished + "'] + tr [data-action='restart']")))
          .isNotEmpty().allSatisfy(button -> assertThat(button.isEnabled()).isFalse());
    }

    ApiClient refused = ApiClient.as(port, AUDITOR);
    int version = body(refused.get("/api/runs/" + waiting), 200).get("version").asInt();
    assertProblem(refused.post("/api/runs/" + waiting + "/steps/4/edit",
        "{\"content\": {\"result\": \"400\"}, \"reason\": \"mine\", \"baseVersion\": " + version + "}"), 403,
        "may not change the course");
    assertProblem(refused.post("/api/runs/" + waiting + "/regenerate", "{}"), 403, "may not change the course");
    assertProblem(refused.post("/api/runs/" + waiting + "/stop", "{\"reason\": \"mine\"}"), 403,
        "may not change the course");
    assertProblem(refused.post("/api/runs/" + finished + "/restart", "{\"fromStep\": 4, \"reason\": \"mine\"}"), 403,
        "may not restart");
    assertThat(body(api.get("/api/runs/" + waiting), 200).get("version").asInt()).isEqualTo(version);
  }

  /** A run of the agent that plans unattended and waits with its answer for a review. */
  private String waitingForAnswer(String question) {
    String run = start(TestAgent.ANSWER_REVIEWED, question);
    api.awaitTask(run, "reviewAnswer");
    return run;
  }

  private String definitionOf(String agent) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(agent).latestVersion()
        .singleResult().getId();
  }

  private void createAuditor() {
    IdentityService identity = engine.getIdentityService();
    if (identity.createUserQuery().userId(AUDITOR).count() > 0) {
      return;
    }
    User user = identity.newUser(AUDITOR);
    user.setPassword(AUDITOR);
    user.setFirstName("Ada");
    user.setLastName("Auditor");
    identity.saveUser(user);
    grant(Resources.APPLICATION, "cockpit", Permissions.ACCESS);
    grant(Resources.PROCESS_DEFINITION, Authorization.ANY, Permissions.READ, ProcessDefinitionPermissions.READ_INSTANCE,
        ProcessDefinitionPermissions.READ_HISTORY);
    grant(Resources.PROCESS_INSTANCE, Authorization.ANY, Permissions.READ);
  }

  private void grant(Resource resource, String resourceId, Permission... permissions) {
    AuthorizationService authorizations = engine.getAuthorizationService();
    Authorization grant = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
    grant.setUserId(AUDITOR);
    grant.setResource(resource);
    grant.setResourceId(resourceId);
    for (Permission permission : permissions) {
      grant.addPermission(permission);
    }
    authorizations.saveAuthorization(grant);
  }

  private String start(String agent, String question) {
    return body(api.post("/api/runs", "{\"question\": \"" + question + "\", \"agent\": \"" + agent + "\"}"), 201)
        .get("id").asText();
  }

  private List<String> trace(String run, String branches) {
    List<String> steps = new ArrayList<>();
    body(api.get("/api/runs/" + run + "/trace?branches=" + branches), 200).get("steps").forEach(step ->
        steps.add("#" + step.get("id").asInt() + " " + step.get("kind").asText() + " " + step.get("status").asText()));
    return steps;
  }
}
