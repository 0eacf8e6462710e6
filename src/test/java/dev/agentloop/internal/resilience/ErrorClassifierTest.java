package dev.agentloop.internal.resilience;

import static dev.agentloop.internal.resilience.ErrorClass.PERSISTENT;
import static dev.agentloop.internal.resilience.ErrorClass.TRANSIENT;
import static dev.agentloop.internal.resilience.ErrorClass.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.internal.resilience.ResilienceSettings.UnknownErrors;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ToolException;
import dev.agentloop.internal.tool.ToolUnavailableException;
import dev.failsafe.CircuitBreaker;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.FailsafeException;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class ErrorClassifierTest {

  /** The shipped patterns of agentloop-defaults.yaml. */
  private static final List<String> TRANSIENT_PATTERNS = List.of(
      "(?i)\\b(temporar(il)?y unavailable|try again|rate.?limit(ed)?|too many requests|connection (reset|refused)"
          + "|service unavailable|gateway time-?out)\\b",
      "\\bHTTP (408|425|429|50[0-4])\\b");

  private final ErrorClassifier classifier = new ErrorClassifier(TRANSIENT_PATTERNS, List.of(), UnknownErrors.PERSISTENT);

  @Test
  void should_call_time_outs_and_io_errors_transient() {
    assertThat(classifier.classify(new TimeoutExceededException(Timeout.of(Duration.ofSeconds(1))))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(new TimeoutException("slow"))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(new SocketTimeoutException("read timed out"))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(new HttpTimeoutException("request timed out"))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(new ConnectException("no route"))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(new UncheckedIOException(new IOException("broken pipe")))).isEqualTo(TRANSIENT);
  }

  @Test
  void should_classify_model_errors_by_http_status_then_by_their_own_verdict() {
    assertThat(classifier.classify(model(429, false))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(model(408, false))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(model(503, false))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(model(400, true))).isEqualTo(PERSISTENT);
    assertThat(classifier.classify(model(401, true))).isEqualTo(PERSISTENT);
    assertThat(classifier.classify(model(0, true))).isEqualTo(TRANSIENT);
    assertThat(classifier.classify(model(0, false))).isEqualTo(PERSISTENT);
  }

  @Test
  void should_call_a_tools_own_message_bad_input_and_an_open_breaker_persistent() {
    assertThat(classifier.classify(new ToolException("no document named 'x.md'"))).isEqualTo(PERSISTENT);
    assertThat(classifier.classify(new ToolUnavailableException("circuit breaker open"))).isEqualTo(PERSISTENT);
    assertThat(classifier.classify(new IllegalArgumentException("page must be positive"))).isEqualTo(PERSISTENT);
    assertThat(classifier.classify(new JsonParseException(null, "unexpected character"))).isEqualTo(PERSISTENT);
    assertThat(classifier.classify(new CircuitBreakerOpenException(CircuitBreaker.ofDefaults()))).isEqualTo(PERSISTENT);
  }

  @Test
  void should_let_message_patterns_override_the_type() {
    // a tool that reports a rate limit in its own message may pass later
    assertThat(classifier.classify(new ToolException("Rate limited by the upstream API, try again in a minute")))
        .isEqualTo(TRANSIENT);
    assertThat(classifier.classify(new ToolException("upstream answered HTTP 503"))).isEqualTo(TRANSIENT);
    // but not a message that only mentions a word of one
    assertThat(classifier.classify(new ToolException("no document named 'timeout-policy.md'"))).isEqualTo(PERSISTENT);

    ErrorClassifier strict = new ErrorClassifier(TRANSIENT_PATTERNS, List.of("(?i)quota exceeded"), UnknownErrors.PERSISTENT);
    assertThat(strict.classify(new IOException("quota exceeded; try again next month"))).isEqualTo(PERSISTENT);
  }

  @Test
  void should_leave_other_errors_unknown_and_retry_them_only_when_configured() {
    IllegalStateException bug = new IllegalStateException("boom");
    assertThat(classifier.classify(bug)).isEqualTo(UNKNOWN);
    assertThat(classifier.isRetryable(bug)).isFalse();
    assertThat(new ErrorClassifier(TRANSIENT_PATTERNS, List.of(), UnknownErrors.TRANSIENT).isRetryable(bug)).isTrue();
    assertThat(classifier.isRetryable(new IOException("reset"))).isTrue();
    assertThat(classifier.isRetryable(new ToolException("bad"))).isFalse();
  }

  @Test
  void should_look_through_the_wrappers_of_asynchronous_execution() {
    IOException cause = new IOException("reset");
    Throwable wrapped = new CompletionException(new ExecutionException(new FailsafeException(cause)));
    assertThat(AsyncFailures.unwrap(wrapped)).isSameAs(cause);
    assertThat(classifier.classify(new CompletionException(new ToolException("bad")))).isEqualTo(PERSISTENT);
  }

  @Test
  void should_refuse_a_pattern_that_is_no_regular_expression_naming_the_setting() {
    assertThatThrownBy(() -> new ErrorClassifier(List.of("(unclosed"), List.of(), UnknownErrors.PERSISTENT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("agentloop.resilience.transient-patterns: '(unclosed' is no regular expression");
  }

  private static ModelCallException model(int status, boolean retryable) {
    return new ModelCallException("model failed", retryable, status, null);
  }
}
