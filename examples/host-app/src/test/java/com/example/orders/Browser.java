package com.example.orders;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium from the system packages ({@code chromium}, {@code chromium-driver}); Selenium
 * never downloads one. Without them the browser test is skipped, except in CI
 * ({@code AGENTLOOP_CI=true}), where that is a failure.
 */
final class Browser implements AutoCloseable {

  private final ChromeDriver driver;
  private final WebDriverWait wait;
  private final String baseUrl;

  private Browser(ChromeDriver driver, String baseUrl) {
    this.driver = driver;
    this.wait = new WebDriverWait(driver, Duration.ofSeconds(30));
    this.baseUrl = baseUrl;
  }

  static Browser open(int port) {
    Optional<Path> chromium = executable("chromium", "CHROME_BIN");
    Optional<Path> chromedriver = executable("chromedriver", "CHROMEDRIVER");
    if (chromium.isEmpty() || chromedriver.isEmpty()) {
      String reason = "the browser checks need chromium and chromedriver (Debian packages chromium, chromium-driver)";
      if (Boolean.parseBoolean(System.getenv("AGENTLOOP_CI"))) {
        Assertions.fail(reason + ", and in CI they must run");
      }
      Assumptions.abort(reason);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toString());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1100",
        "--lang=en-US");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(chromedriver.get().toFile()).build();
    return new Browser(new ChromeDriver(service, options), "http://localhost:" + port);
  }

  /**
   * Logs in to a Camunda webapp (tasklist, cockpit) of the default engine, and makes sure it took: on a busy
   * machine the page can finish booting after the keys were typed and send empty fields, so each attempt checks
   * the fields before it submits, and a login form still there after a while is filled in again on a fresh page.
   */
  void login(String app, String user, String password) {
    By passwordField = By.cssSelector("input[ng-model=password]");
    for (int attempt = 1; ; attempt++) {
      driver.get(baseUrl + "/camunda/app/" + app + "/default/");
      fill(await(By.cssSelector("input[ng-model=username]")), user);
      fill(await(passwordField), password);
      await(By.cssSelector("button.btn-primary[type=submit]")).click();
      try {
        new WebDriverWait(driver, Duration.ofSeconds(20))
            .until(ExpectedConditions.invisibilityOfElementLocated(passwordField));
        return;
      } catch (TimeoutException e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
  }

  private void fill(WebElement field, String text) {
    wait.until(driver -> {
      field.clear();
      field.sendKeys(text);
      return text.equals(field.getAttribute("value"));
    });
  }

  void go(String path) {
    driver.get(baseUrl + path);
  }

  WebElement await(By locator) {
    return wait.until(ExpectedConditions.visibilityOfElementLocated(locator));
  }

  void awaitText(By locator, String text) {
    wait.until(ExpectedConditions.textToBePresentInElementLocated(locator, text));
  }

  /** Saves what the browser shows as {@code target/screenshots/<name>.png}, for a failure's report. */
  void screenshot(String name) {
    try {
      Path folder = Path.of("target", "screenshots");
      Files.createDirectories(folder);
      Files.write(folder.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<Path> executable(String name, String environmentVariable) {
    String configured = System.getenv(environmentVariable);
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured)).filter(Files::isExecutable);
    }
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .map(dir -> Path.of(dir, name)).filter(Files::isExecutable).findFirst();
  }

  @Override
  public void close() {
    driver.quit();
  }
}
