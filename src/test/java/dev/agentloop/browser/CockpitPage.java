package dev.agentloop.browser;

import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * Camunda Cockpit with AgentLoop's plugin, as an operator uses it: log in, open a run's process
 * instance on the tab "Agent trace", or an agent's process definition on the tab "Agent runs", and
 * work the plugin's forms. The plugin marks what a test needs with {@code data-} attributes
 * ({@code data-step}, {@code data-action}, {@code data-field}), so these selectors do not depend
 * on its looks.
 */
final class CockpitPage {

  static final String TRACE_TAB = "agentloop.processInstance.trace";
  static final String RUNS_TAB = "agentloop.processDefinition.runs";

  private static final By MESSAGES = By.cssSelector(".agentloop-messages .alert");

  private final Browser browser;
  private final String engine;

  CockpitPage(Browser browser) {
    this(browser, "default");
  }

  /** @param engine the process engine's name, for an application whose engine is not called {@code default} */
  CockpitPage(Browser browser, String engine) {
    this.browser = browser;
    this.engine = engine;
  }

  CockpitPage login(String user, String password) {
    browser.logIn("/camunda/app/cockpit/" + engine + "/", user, password);
    return this;
  }

  /** Opens the run's process instance on the tab "Agent trace" and waits for its trace. */
  CockpitPage openTrace(String runId) {
    browser.go("/camunda/app/cockpit/" + engine + "/#/process-instance/" + runId + "/runtime?tab=" + TRACE_TAB);
    browser.await(By.cssSelector(".agentloop[data-run='" + runId + "'] .agentloop-active-path"));
    showTabsOnly();
    return this;
  }

  /** Opens the agent's process definition on the tab "Agent runs" and waits for its list. */
  CockpitPage openRuns(String processDefinitionId) {
    // Cockpit names the selected tab "tab" on instances but "detailsTab" on definitions
    browser.go("/camunda/app/cockpit/" + engine + "/#/process-definition/" + processDefinitionId + "/runtime?detailsTab="
        + RUNS_TAB);
    browser.await(By.cssSelector(".agentloop-runs :is(table, p, .alert)"));
    showTabsOnly();
    return this;
  }

  /** Folds Cockpit's diagram away so the tab fills the page (and the screenshots). */
  void showTabsOnly() {
    ((JavascriptExecutor) browser.driver).executeScript(
        "const fold = document.querySelector('a.hide-collapsable.vertical-collapse');"
            + "if (fold && fold.offsetParent !== null) { fold.click(); }");
  }

  /** A step on the active path. */
  WebElement activeStep(int stepId) {
    return browser.await(By.cssSelector(".agentloop-active-path > li.agentloop-step[data-step='" + stepId + "']"));
  }

  /**
   * The steps on the active path, each as "#id KIND status": read in one go in the page, since the tab redraws its
   * trace while a run is watched, and an element found before a redraw is stale after it.
   */
  @SuppressWarnings("unchecked")
  List<String> activePath() {
    return (List<String>) ((JavascriptExecutor) browser.driver).executeScript(
        "return Array.from(document.querySelectorAll('.agentloop-active-path > li.agentloop-step'))"
            + ".map(step => '#' + step.dataset.step + ' ' + step.dataset.kind + ' ' + step.dataset.status);");
  }

  /** The steps of the step tree (the picture), each as "#id STATUS col row". */
  List<String> treeNodes() {
    return browser.all(By.cssSelector("svg.agentloop-tree g[data-node]")).stream()
        .map(node -> "#" + node.getAttribute("data-node") + " " + node.getAttribute("data-status") + " col "
            + node.getAttribute("data-col") + " row " + node.getAttribute("data-row"))
        .toList();
  }

  /** Picks a superseded step in the step tree and gives it as shown under the picture. */
  WebElement pick(int stepId) {
    WebElement node = browser.await(By.cssSelector("svg.agentloop-tree g[data-node='" + stepId + "']"));
    // an SVG element has no click(): send the event a mouse would
    ((JavascriptExecutor) browser.driver).executeScript(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", node);
    return browser.await(By.cssSelector(".agentloop-picked li.agentloop-step[data-step='" + stepId + "']"));
  }

  /** The edits listed under the step tree: "#old → #new …". */
  List<String> edits() {
    return browser.all(By.cssSelector(".agentloop-edits li")).stream().map(WebElement::getText).toList();
  }

  /** The line that says what the run does right now, e.g. "RUNNING — thinking (model call, 3 s)". */
  String live() {
    return browser.textOf(By.cssSelector(".agentloop-live"));
  }

  /** What the call behind a step cost, as its head shows it. */
  String cost(int stepId) {
    return browser.textOf(By.cssSelector("li.agentloop-step[data-step='" + stepId + "'] [data-cost]"));
  }

  /** Opens the prompt of a step on the active path and gives the panel that shows it. */
  WebElement prompt(int stepId) {
    WebElement button = stepButton(stepId, "prompt");
    browser.clickNow(button);
    return browser.await(By.cssSelector(".agentloop-prompt[data-prompt='" + stepId + "']"));
  }

  /** Opens a run, finished or not, on the plugin's run page and waits for its trace. */
  CockpitPage openRun(String runId) {
    browser.go("/camunda/app/cockpit/" + engine + "/#/agentloop/run/" + runId);
    return awaitRunPage(runId);
  }

  /** Waits for the run page of the run to show its trace. */
  CockpitPage awaitRunPage(String runId) {
    browser.await(By.cssSelector(".agentloop-page[data-run='" + runId + "'] .agentloop-active-path"));
    return this;
  }

  /** Follows a link to a run (restarted from / as, a run of the list) to its run page. */
  CockpitPage followRunLink(String runId) {
    browser.click(By.cssSelector("a[data-run-link='" + runId + "']"));
    browser.await(By.cssSelector(".agentloop-page[data-run='" + runId + "'] .agentloop-active-path"));
    return this;
  }

  /** Searches the tab "Agent runs" for words of the question and waits for the list. */
  CockpitPage searchRuns(String words) {
    type("q", words);
    browser.click(By.cssSelector("[data-action='search']"));
    browser.await(By.cssSelector(".agentloop-runs[data-q='" + words + "'] [data-runs]"));
    return this;
  }

  /** The ids of the runs the tab "Agent runs" lists. */
  List<String> listedRuns() {
    return browser.all(By.cssSelector(".agentloop-run-table tr[data-run]")).stream()
        .map(row -> row.getAttribute("data-run")).toList();
  }

  String fact(String name) {
    return browser.textOf(By.cssSelector("[data-fact='" + name + "'] dd"));
  }

  void awaitFact(String name, String text) {
    browser.awaitText(By.cssSelector("[data-fact='" + name + "'] dd"), text);
  }

  String budget(String name) {
    return browser.textOf(By.cssSelector("[data-budget='" + name + "']"));
  }

  String breakers() {
    return browser.textOf(By.cssSelector(".agentloop-breakers"));
  }

  /** The action button ({@code data-action}) of a step on the active path. */
  WebElement stepButton(int stepId, String action) {
    return activeStep(stepId).findElement(By.cssSelector("[data-action='" + action + "']"));
  }

  /** A button of the tab itself: regenerate, stop, refresh. */
  WebElement button(String action) {
    return browser.await(By.cssSelector(".agentloop-actions [data-action='" + action + "']"));
  }

  /** Opens the editor of a step on the active path. */
  CockpitPage edit(int stepId) {
    browser.click(By.cssSelector(".agentloop-active-path > li[data-step='" + stepId + "'] [data-action='edit']"));
    browser.await(By.cssSelector("form[data-editor='" + stepId + "']"));
    return this;
  }

  /** Types over a form field ({@code data-field}, or {@code data-search} of the runs search) of the open form. */
  CockpitPage type(String field, String text) {
    WebElement input = browser.await(By.cssSelector("[data-field='" + field + "'], [data-search='" + field + "']"));
    input.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
    input.sendKeys(text);
    return this;
  }

  /** Picks an option of a select field by its visible text. */
  CockpitPage choose(String field, String optionText) {
    new org.openqa.selenium.support.ui.Select(browser.await(By.cssSelector("select[data-field='" + field + "']")))
        .selectByVisibleText(optionText);
    return this;
  }

  void submit(String action) {
    browser.click(By.cssSelector("[data-action='" + action + "']"));
  }

  /** Regenerates or stops (the tab's own forms) with a reason. */
  void act(String action, String reason) {
    type(action + "-reason", reason);
    browser.click(By.cssSelector(".agentloop-actions [data-action='" + action + "']"));
  }

  /** The message the tab shows after an action: kind success, danger or warning. */
  String awaitMessage(String kind) {
    return browser.textOf(By.cssSelector(".agentloop-messages .alert-" + kind));
  }

  /** The problem shown inside the open form (an editor or a restart form). */
  String awaitFormProblem() {
    return browser.textOf(By.cssSelector(".agentloop-form-problem .alert"));
  }

  String why() {
    return browser.textOf(By.cssSelector(".agentloop-why"));
  }

  /** Unfolds a finished run on the tab "Agent runs" and waits for its trace. */
  CockpitPage showRun(String runId) {
    browser.click(By.cssSelector("tr[data-run='" + runId + "'] [data-action='show-trace']"));
    browser.await(By.cssSelector("tr[data-run='" + runId + "'] + tr .agentloop-active-path"));
    return this;
  }

  /** The confirmation shown under a step after an action started from its button (a restart). */
  WebElement stepNotice(int stepId) {
    return browser.await(By.cssSelector("li.agentloop-step[data-step='" + stepId + "'] .agentloop-step-slot .alert"));
  }

  /** Opens the restart form at a step of the unfolded run. */
  CockpitPage restartFrom(String runId, int stepId) {
    browser.click(By.cssSelector("tr[data-run='" + runId + "'] + tr li.agentloop-step[data-step='" + stepId
        + "'] [data-action='restart']"));
    browser.await(By.cssSelector("form[data-restart='" + stepId + "']"));
    return this;
  }

  boolean anyMessage() {
    return !browser.all(MESSAGES).isEmpty();
  }

  /** Turns the mouse wheel over the middle of the page, as a person does (wheel input, not a script). */
  void wheel(int deltaY) {
    var size = browser.driver.manage().window().getSize();
    new org.openqa.selenium.interactions.Actions(browser.driver)
        .scrollFromOrigin(org.openqa.selenium.interactions.WheelInput.ScrollOrigin.fromViewport(size.getWidth() / 2,
            size.getHeight() / 2), 0, deltaY)
        .perform();
  }

  /** Presses a key (PageDown, End …) with the focus on the page, not in a field. */
  void press(CharSequence key) {
    new org.openqa.selenium.interactions.Actions(browser.driver).sendKeys(key).perform();
  }

  /** Whether the first element matching the selector lies wholly inside the browser's viewport. */
  boolean inViewport(String css) {
    return Boolean.TRUE.equals(((JavascriptExecutor) browser.driver).executeScript(
        "const e = document.querySelector(arguments[0]); if (!e) { return false; }"
            + "const r = e.getBoundingClientRect();"
            + "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;", css));
  }

  /** Where the run page's heading is, from the top of the viewport: less when the page scrolled down. */
  double headTop() {
    return ((Number) ((JavascriptExecutor) browser.driver).executeScript(
        "return document.querySelector('.agentloop-page h2').getBoundingClientRect().top;")).doubleValue();
  }
}
