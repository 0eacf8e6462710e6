package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.agentloop.Runs;
import dev.agentloop.TestTools;
import dev.agentloop.internal.resilience.ResilienceSettings.UnknownErrors;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import dev.agentloop.internal.tool.ToolUnavailableException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The tool breakers through the guard that every tool call passes: closed → open → half-open →
 * closed. Breakers change state only when a call asks them, so the states are checked without timing;
 * only the wait for a short delay to pass is awaited.
 */
class BreakersTest {

  private static final RetrySettings ONE_ATTEMPT =
      new RetrySettings(1, Duration.ofMillis(1), Duration.ofMillis(1), 0, false);
  private static final RetrySettings THREE_ATTEMPTS =
      new RetrySettings(3, Duration.ofMillis(1), Duration.ofMillis(4), 0.5, false);

  /** The guards' scheduler, as ResilienceConfiguration makes it: daemon threads, never shut down here. */
  static final ScheduledExecutorService SCHEDULER = new ScheduledThreadPoolExecutor(2, runnable -> {
    Thread thread = new Thread(runnable, "test-resilience");
    thread.setDaemon(true);
    return thread;
  });

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ResilienceMetrics metrics = new ResilienceMetrics(registry);
  private final ErrorClassifier classifier = new ErrorClassifier(List.of(), List.of(), UnknownErrors.PERSISTENT);
  private final AgentTool tool = TestTools.tool("lookup", false, arguments -> "unused");
  private final AtomicInteger attempts = new AtomicInteger();

  @Test
  void should_open_after_the_failure_threshold_and_fail_fast_without_calling_the_tool() {
    // given a breaker that opens when 2 of the last 3 attempts failed, for a minute
    Breakers breakers = breakers(new BreakerSettings(2, 3, Duration.ofMinutes(1), 1));
    ToolGuard guard = new ToolGuard(breakers, classifier, ONE_ATTEMPT, metrics, SCHEDULER);

    // when the tool fails twice with a transient error
    failure(guard, this::connectionReset);
    assertThat(state(breakers)).isEqualTo("CLOSED");
    failure(guard, this::connectionReset);

    // then it is open, and the next call fails at once, naming the tool, without an attempt
    assertThat(state(breakers)).isEqualTo("OPEN");
    Throwable refused = failure(guard, this::succeeding);
    assertThat(refused).isInstanceOf(ToolUnavailableException.class)
        .hasMessageStartingWith("'lookup' is unavailable: it failed too often lately (last error: connection reset)")
        .hasMessageContaining("circuit breaker open; next try in about ");
    assertThat(attempts).hasValue(2);
    assertThat(registry.get("agentloop.breaker.state").tag("name", "tool:lookup").gauge().value()).isEqualTo(2.0);
    assertThat(registry.get("agentloop.tool.calls").tag("tool", "lookup").tag("outcome", "rejected").timer().count())
        .isOne();
    assertThat(registry.get("agentloop.tool.failures").tag("tool", "lookup").tag("class", "transient").counter()
        .count()).isEqualTo(2.0);
  }

  @Test
  void should_go_half_open_after_its_delay_and_close_when_the_trial_calls_succeed() {
    // given an open breaker with a short delay that needs two successful trials
    Breakers breakers = breakers(new BreakerSettings(1, 1, Duration.ofMillis(50), 2));
    ToolGuard guard = new ToolGuard(breakers, classifier, ONE_ATTEMPT, metrics, SCHEDULER);
    failure(guard, this::connectionReset);
    assertThat(state(breakers)).isEqualTo("OPEN");

    // when the delay has passed, the next call goes through as a trial
    await().atMost(Runs.PATIENCE).until(() -> breakers.remainingDelay("tool:lookup").isZero());
    CompletableFuture<String> trial = new CompletableFuture<>();
    CompletableFuture<String> first = guard.call(tool, () -> {
      attempts.incrementAndGet();
      return trial;
    }).toCompletableFuture();

    // then while it runs the breaker is half-open; a success leaves it half-open, a second one closes it
    await().atMost(Runs.PATIENCE).untilAtomic(attempts, org.hamcrest.Matchers.equalTo(2));
    assertThat(state(breakers)).isEqualTo("HALF_OPEN");
    trial.complete("ok");
    assertThat(first.join()).isEqualTo("ok");
    assertThat(state(breakers)).isEqualTo("HALF_OPEN");
    assertThat(guard.call(tool, this::succeeding).toCompletableFuture().join()).isEqualTo("ok");
    assertThat(state(breakers)).isEqualTo("CLOSED");
  }

  @Test
  void should_open_again_when_a_trial_call_fails() {
    Breakers breakers = breakers(new BreakerSettings(1, 1, Duration.ofMillis(50), 1));
    ToolGuard guard = new ToolGuard(breakers, classifier, ONE_ATTEMPT, metrics, SCHEDULER);
    failure(guard, this::connectionReset);
    await().atMost(Runs.PATIENCE).until(() -> breakers.remainingDelay("tool:lookup").isZero());

    failure(guard, this::connectionReset);

    assertThat(state(breakers)).isEqualTo("OPEN");
    assertThat(attempts).hasValue(2);
  }

  @Test
  void should_not_count_persistent_errors_against_the_tool() {
    Breakers breakers = breakers(new BreakerSettings(2, 2, Duration.ofMinutes(1), 1));
    ToolGuard guard = new ToolGuard(breakers, classifier, THREE_ATTEMPTS, metrics, SCHEDULER);

    for (int i = 0; i < 5; i++) {
      assertThat(failure(guard, this::noSuchOrder))
          .isInstanceOf(ToolException.class).hasMessage("no such order");
    }

    // not retried either: one attempt per call
    assertThat(attempts).hasValue(5);
    assertThat(state(breakers)).isEqualTo("CLOSED");
  }

  @Test
  void should_retry_transient_errors_with_back_off_until_an_attempt_succeeds() {
    Breakers breakers = breakers(new BreakerSettings(10, 20, Duration.ofMinutes(1), 1));
    ToolGuard guard = new ToolGuard(breakers, classifier, THREE_ATTEMPTS, metrics, SCHEDULER);

    String result = guard.call(tool, () -> attempts.get() < 2 ? connectionReset() : succeeding())
        .toCompletableFuture().join();

    assertThat(result).isEqualTo("ok");
    assertThat(attempts).hasValue(3);
  }

  @Test
  void should_stop_retrying_with_the_last_error_after_the_attempts() {
    Breakers breakers = breakers(new BreakerSettings(10, 20, Duration.ofMinutes(1), 1));
    ToolGuard guard = new ToolGuard(breakers, classifier, THREE_ATTEMPTS, metrics, SCHEDULER);

    assertThat(failure(guard, this::connectionReset)).isInstanceOf(IOException.class).hasMessage("connection reset");
    assertThat(attempts).hasValue(3);
  }

  @Test
  void should_not_retry_a_tool_with_side_effects_unless_told_to() {
    AgentTool mailer = TestTools.tool("send_mail", true, arguments -> "unused");
    Breakers breakers = breakers(new BreakerSettings(10, 20, Duration.ofMinutes(1), 1));

    catchThrowable(() -> new ToolGuard(breakers, classifier, THREE_ATTEMPTS, metrics, SCHEDULER)
        .call(mailer, this::timedOut).toCompletableFuture().join());
    assertThat(attempts).hasValue(1);

    // told to, it retries a call that failed to connect, but never one that timed out: that one may still run
    RetrySettings withSideEffects = new RetrySettings(3, Duration.ofMillis(1), Duration.ofMillis(4), 0, true);
    catchThrowable(() -> new ToolGuard(breakers, classifier, withSideEffects, metrics, SCHEDULER)
        .call(mailer, this::connectionReset).toCompletableFuture().join());
    assertThat(attempts).hasValue(4);
    catchThrowable(() -> new ToolGuard(breakers, classifier, withSideEffects, metrics, SCHEDULER)
        .call(mailer, this::timedOut).toCompletableFuture().join());
    assertThat(attempts).hasValue(5);

    // a tool without side effects is retried after a time-out
    AgentTool lookup = TestTools.tool("lookup", false, arguments -> "unused");
    catchThrowable(() -> new ToolGuard(breakers, classifier, THREE_ATTEMPTS, metrics, SCHEDULER)
        .call(lookup, this::timedOut).toCompletableFuture().join());
    assertThat(attempts).hasValue(8);
  }

  @Test
  void should_take_the_settings_of_a_single_tool_over_the_common_ones() {
    Breakers breakers = new Breakers(new BreakerSettings(5, 5, Duration.ofMinutes(1), 1),
        Map.of("lookup", new BreakerSettings(1, 1, Duration.ofMinutes(1), 1)),
        new BreakerSettings(5, 5, Duration.ofMinutes(1), 1),
        classifier, metrics);
    ToolGuard guard = new ToolGuard(breakers, classifier, ONE_ATTEMPT, metrics, SCHEDULER);

    failure(guard, this::connectionReset);

    assertThat(state(breakers)).isEqualTo("OPEN");
    assertThat(breakers.states()).extracting(BreakerView::name).containsExactly("tool:lookup");
    assertThat(breakers.find("tool:lookup")).hasValue(new BreakerView("tool:lookup", "tool", "lookup", "OPEN"));
  }

  private Breakers breakers(BreakerSettings settings) {
    return new Breakers(settings, Map.of(), settings, classifier, metrics);
  }

  private String state(Breakers breakers) {
    return breakers.find("tool:lookup").orElseThrow().state();
  }

  private Throwable failure(ToolGuard guard, Supplier<CompletionStage<String>> attempt) {
    Throwable thrown = catchThrowable(() -> guard.call(tool, attempt).toCompletableFuture().join());
    assertThat(thrown).isInstanceOf(CompletionException.class);
    return thrown.getCause();
  }

  private CompletionStage<String> connectionReset() {
    attempts.incrementAndGet();
    return CompletableFuture.failedFuture(new IOException("connection reset"));
  }

  private CompletionStage<String> noSuchOrder() {
    attempts.incrementAndGet();
    return CompletableFuture.failedFuture(new ToolException("no such order"));
  }

  private CompletionStage<String> timedOut() {
    attempts.incrementAndGet();
    return CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("no answer"));
  }

  private CompletionStage<String> succeeding() {
    attempts.incrementAndGet();
    return CompletableFuture.supplyAsync(() -> "ok", CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS));
  }
}
