package dev.agentloop.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium from the system packages ({@code chromium}, {@code chromium-driver}), driven by
 * the system's chromedriver: Selenium never downloads a browser or a driver. Without them the
 * browser tests are skipped with the reason printed, except in CI ({@code AGENTLOOP_CI=true}),
 * where a missing browser is a failure.
 */
final class Browser implements AutoCloseable {

  /** A JUnit extension that saves what the browser showed when a test failed, for the report. */
  static TestWatcher screenshotOnFailure(Supplier<Browser> browser) {
    return new TestWatcher() {
      @Override
      public void testFailed(ExtensionContext context, Throwable cause) {
        if (browser.get() != null) {
          browser.get().screenshot("failed-" + context.getRequiredTestMethod().getName());
        }
      }
    };
  }

  /** How long a page may take to show what is awaited; longer on a loaded machine (-Dagentloop.browser.patience=PT2M). */
  static final Duration PATIENCE = Duration.parse(System.getProperty("agentloop.browser.patience", "PT60S"));
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");

  final WebDriver driver;
  private final WebDriverWait wait;
  private final String baseUrl;

  private Browser(WebDriver driver, String baseUrl) {
    this.driver = driver;
    this.wait = new WebDriverWait(driver, PATIENCE);
    this.baseUrl = baseUrl;
  }

  /** Starts Chromium, or skips the calling test (fails it in CI) when it is not installed. */
  static Browser open(int port) {
    Optional<String> missing = missingTools();
    if (missing.isPresent()) {
      String reason = "browser tests need " + missing.get() + " (Debian packages chromium and chromium-driver)";
      if (Boolean.parseBoolean(System.getenv("AGENTLOOP_CI"))) {
        Assertions.fail(reason + ", and in CI they must run");
      }
      System.err.println("SKIPPED: " + reason);
      Assumptions.abort(reason);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(executable("chromium", "CHROME_BIN").orElseThrow().toString());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1100",
        "--lang=en-US");
    // the console (form-js reports form errors there) for failure reports
    options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(executable("chromedriver", "CHROMEDRIVER").orElseThrow().toFile()).build();
    return new Browser(new ChromeDriver(service, options), "http://localhost:" + port);
  }

  private static Optional<String> missingTools() {
    if (executable("chromium", "CHROME_BIN").isEmpty()) {
      return Optional.of("chromium");
    }
    return executable("chromedriver", "CHROMEDRIVER").isEmpty() ? Optional.of("chromedriver") : Optional.empty();
  }

  /** The program from the environment variable, else the first on the PATH. */
  private static Optional<Path> executable(String name, String environmentVariable) {
    String configured = System.getenv(environmentVariable);
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured)).filter(Files::isExecutable);
    }
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
        .map(dir -> Path.of(dir, name)).filter(Files::isExecutable).findFirst();
  }

  void go(String path) {
    driver.get(baseUrl + path);
  }

  /**
   * Logs in to a webapp's page as a person does, and makes sure it took: on a busy machine the page can
   * finish booting after the keys were typed (Angular then binds empty fields and the login is refused), or
   * the login request can be lost with the page. So each attempt checks what the fields hold before it
   * submits, and a login form still there after a while is filled in once more from a fresh page.
   */
  void logIn(String appPath, String user, String password) {
    By username = By.cssSelector("input[ng-model=username]");
    By passwordField = By.cssSelector("input[ng-model=password]");
    // the webapps share one session: a login of the same browser to another webapp would skip this form
    go(appPath);
    driver.manage().deleteAllCookies();
    for (int attempt = 1; ; attempt++) {
      go(appPath);
      fill(awaitBooted(username), user);
      fill(await(passwordField), password);
      click(By.cssSelector("button.btn-primary[type=submit]"));
      try {
        new WebDriverWait(driver, PATIENCE.dividedBy(3))
            .until(ExpectedConditions.invisibilityOfElementLocated(passwordField));
        return;
      } catch (TimeoutException e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
  }

  /** Types the text into an empty field until the field holds it (a page still booting may clear it). */
  private void fill(WebElement field, String text) {
    wait.ignoring(StaleElementReferenceException.class).until(driver -> {
      field.clear();
      field.sendKeys(text);
      return text.equals(field.getAttribute("value"));
    });
  }

  WebElement await(By locator) {
    return wait.until(ExpectedConditions.visibilityOfElementLocated(locator));
  }

  /**
   * Awaits an element of a webapp's first page, loading the page once more where it did not come up: on a
   * server just started on a busy machine, Camunda's frontend can give up loading its modules (RequireJS "Load
   * timeout for modules"), and it never tries again by itself.
   */
  WebElement awaitBooted(By locator) {
    try {
      return await(locator);
    } catch (TimeoutException e) {
      driver.navigate().refresh();
      return await(locator);
    }
  }

  /**
   * Clicks the element once nothing covers it: Tasklist's notifications slide over the buttons for
   * a moment, and a long form puts them below the fold.
   */
  void click(By locator) {
    wait.ignoring(ElementClickInterceptedException.class).until(driver -> {
      WebElement element = ExpectedConditions.elementToBeClickable(locator).apply(driver);
      if (element == null) {
        return false;
      }
      ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'center'})", element);
      element.click();
      return true;
    });
  }

  /** Clicks through whatever covers the element, as a script would. */
  void clickNow(WebElement element) {
    ((JavascriptExecutor) driver).executeScript("arguments[0].click()", element);
  }

  List<WebElement> all(By locator) {
    return driver.findElements(locator);
  }

  void awaitAny(By... locators) {
    wait.until(ExpectedConditions.or(java.util.Arrays.stream(locators)
        .map(ExpectedConditions::visibilityOfElementLocated).toArray(org.openqa.selenium.support.ui.ExpectedCondition[]::new)));
  }

  void awaitClickable(By locator) {
    wait.until(ExpectedConditions.elementToBeClickable(locator));
  }

  /**
   * The text of a visible element, read again where the page redrew it between finding and reading: Cockpit's
   * run page draws its summary anew at each poll of a running or waiting run.
   */
  String textOf(By locator) {
    return wait.ignoring(StaleElementReferenceException.class).until(driver -> {
      WebElement element = driver.findElement(locator);
      return element.isDisplayed() ? element.getText() : null;
    });
  }

  /** An attribute of the element, read again if the page redrew the element between finding and reading it. */
  String attributeOf(By locator, String attribute) {
    return wait.ignoring(StaleElementReferenceException.class).until(driver -> {
      WebElement element = driver.findElement(locator);
      return element.isDisplayed() ? element.getAttribute(attribute) : null;
    });
  }

  void awaitGone(By locator) {
    wait.until(ExpectedConditions.invisibilityOfElementLocated(locator));
  }

  void awaitText(By locator, String text) {
    wait.until(ExpectedConditions.textToBePresentInElementLocated(locator, text));
  }

  /** Saves what the browser shows as {@code target/screenshots/<name>.png}. */
  void screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Files.write(SCREENSHOTS.resolve(name + ".png"), ((ChromeDriver) driver).getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
