package dev.agentloop.browser;

import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

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
    browser.go("/camunda/app/tasklist/default/");
    browser.await(By.cssSelector("input[ng-model=username]")).sendKeys(user);
    browser.await(By.cssSelector("input[ng-model=password]")).sendKeys(password);
    browser.click(By.cssSelector("button.btn-primary[type=submit]"));
    browser.awaitGone(By.cssSelector("input[ng-model=password]"));
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

  String text() {
    return browser.await(FORM).getText();
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
    browser.all(By.cssSelector(".page-notifications .alert .close")).forEach(browser::clickNow);
    browser.awaitGone(By.cssSelector(".page-notifications .alert"));
  }

  /** Picks a select field's option by its label. */
  TasklistPage choose(String key, String optionLabel) {
    browser.click(By.cssSelector("[id$='-" + key + "-display']"));
    List<WebElement> options = browser.all(By.cssSelector(".fjs-dropdownlist-item"));
    options.stream().filter(option -> option.getText().trim().equals(optionLabel)).findFirst()
        .orElseThrow(() -> new AssertionError("no option '" + optionLabel + "' in "
            + options.stream().map(WebElement::getText).toList()))
        .click();
    return this;
  }

  /** Completes the task and waits until Tasklist has either closed the form or shown an error. */
  void complete() {
    browser.click(COMPLETE);
  }

  void awaitClosed() {
    browser.awaitGone(FORM);
  }

  /** The error Tasklist shows when the engine refused the submission; closes it, as a reader would. */
  String awaitError() {
    String error = browser.await(ERROR).getText();
    dismissNotifications();
    return error;
  }
}
