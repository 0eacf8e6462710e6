package dev.agentloop.browser;

import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * Camunda Tasklist as a reviewer uses it: log in, open a task, claim it, fill its Camunda Form
 * (form-js gives each field the id {@code fjs-form-<form>-<key>}), complete it.
 */
final class TasklistPage {

  private static final By FORM = By.cssSelector(".fjs-form");
  private static final By COMPLETE = By.cssSelector("button.btn-primary[ng-click='complete()']");
  private static final By CLAIM = By.cssSelector("button.claim");
  private static final By ERROR = By.cssSelector(".page-notifications :is(.alert-danger, .alert-error)");
  /** Shown instead of Claim once the task is the user's. */
  private static final By UNCLAIM = By.cssSelector("[ng-click='unclaim()']");

  private final Browser browser;

  TasklistPage(Browser browser) {
    this.browser = browser;
  }

  TasklistPage login(String user, String password) {
    browser.logIn("/camunda/app/tasklist/default/", user, password);
    return this;
  }

  /** Opens the task from its link, as a reviewer following a notification would, and claims it. */
  TasklistPage open(String taskId) {
    browser.go("/camunda/app/tasklist/default/#/?task=" + taskId);
    dismissNotifications();
    browser.await(FORM);
    browser.awaitAny(CLAIM, UNCLAIM);
    if (!browser.all(CLAIM).isEmpty()) {
      browser.click(CLAIM);
    }
    browser.awaitClickable(COMPLETE);
    return this;
  }

  /**
   * Opens Start process and picks the process (agent) by its name, as a person does among many: types it into
   * the dialog's search first (the list pages after a few dozen agents); its start form shows.
   */
  TasklistPage startProcess(String processName) {
    browser.go("/camunda/app/tasklist/default/");
    browser.click(By.linkText("Start process"));
    browser.await(By.cssSelector("input[placeholder^='Search by process name']")).sendKeys(processName);
    browser.click(By.linkText(processName));
    browser.await(By.cssSelector(".modal-body .fjs-form"));
    return this;
  }

  /** What the start form in the Start process dialog shows. */
  String startFormText() {
    return browser.await(By.cssSelector(".modal-body .fjs-form")).getText();
  }

  /** Starts the process with the filled start form and waits until the dialog has closed. */
  void submitStart() {
    browser.click(By.cssSelector(".modal-footer button.btn-primary"));
    browser.awaitGone(By.cssSelector(".modal-body"));
  }

  String text() {
    return browser.await(FORM).getText();
  }

  /** What the task list beside the form shows, once it lists {@code expected}. */
  String listText(String expected) {
    By list = By.cssSelector("[cam-tasks] .tasks-list");
    browser.awaitText(list, expected);
    return browser.await(list).getText();
  }

  /** The label form-js shows above the field with that key. */
  String label(String key) {
    return browser.await(By.cssSelector("label[for$='-" + key + "']")).getText();
  }

  /** Whether the form shows the field with that key (form-js leaves hidden fields out). */
  boolean shows(String key) {
    return !browser.all(By.cssSelector("[id$='-" + key + "']:is(textarea, input)")).isEmpty();
  }

  /** What the select field with that key shows as chosen. */
  String chosen(String key) {
    return browser.await(By.cssSelector("[id$='-" + key + "-display']")).getText().trim();
  }

  /** The elements inside the form that the CSS selector finds, e.g. links or images a text could have become. */
  List<WebElement> elements(String selector) {
    return browser.all(By.cssSelector(".fjs-form " + selector));
  }

  /** The input or text area of the form field with that key. */
  WebElement field(String key) {
    return browser.await(By.cssSelector("[id$='-" + key + "']:is(textarea, input)"));
  }

  TasklistPage type(String key, String text) {
    WebElement field = field(key);
    // select all and type over: form-js (Preact) only sees changes that come as input events
    field.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
    field.sendKeys(text);
    return this;
  }

  /** Closes Tasklist's notifications, which otherwise stay over the form's buttons. */
  void dismissNotifications() {
    for (WebElement close : browser.all(By.cssSelector(".page-notifications .alert .close"))) {
      try {
        browser.clickNow(close);
      } catch (StaleElementReferenceException e) {
        // the notification went by itself between finding and clicking
      }
    }
    browser.awaitGone(By.cssSelector(".page-notifications .alert"));
  }

  /** Picks a select field's option by its label. */
  TasklistPage choose(String key, String optionLabel) {
    browser.click(By.cssSelector("[id$='-" + key + "-display']"));
    List<WebElement> options = browser.all(By.cssSelector(".fjs-dropdownlist-item"));
    WebElement option = options.stream().filter(item -> item.getText().trim().equals(optionLabel)).findFirst()
        .orElseThrow(() -> new AssertionError("no option '" + optionLabel + "' in "
            + options.stream().map(WebElement::getText).toList()));
    // form-js picks an option on mousedown; a select low in a long form opens its list behind
    // Tasklist's footer, where a real click would land on the footer
    ((JavascriptExecutor) browser.driver).executeScript(
        "arguments[0].dispatchEvent(new MouseEvent('mousedown', {bubbles: true, cancelable: true}))", option);
    return this;
  }

  /**
   * Opens a select's list with a click, as a person does, and returns its options as they show. The select must
   * be in sight already: nothing here scrolls.
   */
  List<WebElement> openList(String key) {
    WebElement select = browser.await(By.cssSelector("[id$='-" + key + "-display']"));
    if (!inSight(select)) {
      throw new AssertionError("the select '" + key + "' is not in sight without scrolling");
    }
    select.click();
    return browser.all(By.cssSelector(".fjs-dropdownlist-item"));
  }

  /**
   * Whether a person sees the element whole in the window, with nothing over it (Tasklist's footer, a
   * notification): its box lies inside the window and the point at its middle is the element's own. Reads only.
   */
  boolean inSight(WebElement element) {
    return (Boolean) ((JavascriptExecutor) browser.driver).executeScript(
        "const box = arguments[0].getBoundingClientRect();"
            + "if (box.height === 0 || box.top < 0 || box.left < 0 || box.bottom > window.innerHeight"
            + "    || box.right > window.innerWidth) { return false; }"
            + "const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);"
            + "return at !== null && (at === arguments[0] || arguments[0].contains(at));", element);
  }

  /** Where the page and Tasklist's scrolling panes stand, to tell that nothing scrolled. */
  String scrollPositions() {
    return String.valueOf(((JavascriptExecutor) browser.driver).executeScript(
        "return [window.scrollY, ...Array.from(document.querySelectorAll('*'))"
            + ".filter(e => e.scrollHeight > e.clientHeight && e.scrollTop > 0).map(e => e.scrollTop)].join(',');"));
  }

  /**
   * Completes the task as a person does: turns the wheel to the Complete button where it is below the fold, and
   * clicks the part of it that is in sight (Tasklist's footer lies over the bottom of its scrolling pane, and with
   * it over the lower half of a button at the pane's end); fails where nothing of it is in sight.
   */
  void completeByHand() {
    WebElement complete = browser.await(COMPLETE);
    if (visiblePoint(complete) == null) {
      new Actions(browser.driver).scrollToElement(complete).perform();
    }
    List<?> point = visiblePoint(complete);
    if (point == null) {
      throw new AssertionError("nothing of Complete is in sight: it lies under Tasklist's footer or off the window");
    }
    new Actions(browser.driver).moveToLocation(((Number) point.get(0)).intValue(), ((Number) point.get(1)).intValue())
        .click().perform();
  }

  /** A point of the element, in the window, where a click reaches it and nothing else; {@code null} where none is. */
  private List<?> visiblePoint(WebElement element) {
    return (List<?>) ((JavascriptExecutor) browser.driver).executeScript(
        "const e = arguments[0], box = e.getBoundingClientRect(), x = Math.round(box.left + box.width / 2);"
            + "for (let y = Math.ceil(box.top) + 2; y < box.bottom - 1; y += 2) {"
            + "  if (y < 0 || y >= window.innerHeight) { continue; }"
            + "  const at = document.elementFromPoint(x, y);"
            + "  if (at !== null && (at === e || e.contains(at))) { return [x, y]; }"
            + "}"
            + "return null;", element);
  }

  /** Turns the mouse wheel until the field with that key is in view, as a person does (wheel input, not a script). */
  TasklistPage wheelTo(String key) {
    WebElement element = browser.await(By.cssSelector("[id$='-" + key + "'], [id$='-" + key + "-display']"));
    new Actions(browser.driver).scrollToElement(element).scrollByAmount(0, 200).perform();
    return this;
  }

  /** Scrolls the field with that key to the middle of the window, e.g. for a screenshot. */
  TasklistPage scrollTo(String key) {
    scrollTo(browser.await(By.cssSelector("[id$='-" + key + "'], [id$='-" + key + "-display']")));
    return this;
  }

  private void scrollTo(WebElement element) {
    ((JavascriptExecutor) browser.driver).executeScript("arguments[0].scrollIntoView({block: 'center'})", element);
  }

  /** Completes the task and waits until Tasklist has either closed the form or shown an error. */
  void complete() {
    browser.click(COMPLETE);
  }

  void awaitClosed() {
    browser.awaitGone(FORM);
  }

  /** The error Tasklist shows when the engine refused the submission, left open. */
  String awaitErrorShown() {
    return browser.await(ERROR).getText();
  }

  /** The error Tasklist shows when the engine refused the submission; closes it, as a reader would. */
  String awaitError() {
    String error = browser.await(ERROR).getText();
    dismissNotifications();
    return error;
  }
}
