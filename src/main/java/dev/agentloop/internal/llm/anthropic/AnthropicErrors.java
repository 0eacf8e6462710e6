package dev.agentloop.internal.llm.anthropic;

import static dev.agentloop.internal.llm.ModelFailures.failure;
import static dev.agentloop.internal.llm.ModelFailures.find;
import static dev.agentloop.internal.llm.ModelFailures.rootMessage;

import com.fasterxml.jackson.core.JacksonException;
import dev.agentloop.internal.llm.ErrorBodies;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.internal.llm.ErrorKeepingHttpClient;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.NonRetriableException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeoutException;

/**
 * Turns what LangChain4j's Anthropic client throws into a {@link ModelCallException} that says
 * whether a retry may help: 408, 429, 5xx and Anthropic's own 529 ({@code overloaded_error}) may,
 * other 4xx (a bad key, a bad request) may not; so may time-outs, I/O errors and unreadable bodies.
 * An error body is reported as its type and message, never as raw JSON.
 */
final class AnthropicErrors {

  private AnthropicErrors() {}

  /**
   * @param apiKey removed from every message, in case a proxy echoes it in an error body
   */
  static ModelCallException classify(String endpoint, String apiKey, RuntimeException error) {
    ErrorKeepingHttpClient.NotAReply notAReply = find(error, ErrorKeepingHttpClient.NotAReply.class);
    if (notAReply != null) {
      return failure(endpoint + ": " + notAReply.getMessage(), apiKey, notAReply.retryable(), 0, null, error);
    }
    HttpException http = find(error, HttpException.class);
    if (http != null) {
      int status = http.statusCode();
      String type = ErrorBodies.type(http.getMessage());
      boolean inSuccess = http instanceof ErrorKeepingHttpClient.ErrorResponse response && response.inSuccess();
      boolean retryable = status == 408 || status == 429 || status >= 500 || type.equals("overloaded_error")
          || type.equals("api_error") || (inSuccess && !type.equals("invalid_request_error")
              && !type.equals("authentication_error") && !type.equals("permission_error"));
      // Anthropic sends retry-after with its 429s and 529s
      Duration retryAfter = http instanceof ErrorKeepingHttpClient.ErrorResponse response
          ? response.retryAfter(Instant.now()) : null;
      String summary = ErrorBodies.summary(http.getMessage());
      return failure(endpoint + " answered HTTP " + status + (inSuccess ? " with an error instead of a reply" : "")
          + (type.isEmpty() ? "" : " (" + type + ")") + (summary.isEmpty() ? "" : ": " + summary), apiKey, retryable,
          status, retryAfter, error);
    }
    if (find(error, NonRetriableException.class) != null) {
      return failure(endpoint + " refused the call: " + error.getMessage(), apiKey, false, 0, null, error);
    }
    // before I/O: Jackson's parse errors are IOExceptions too; often a proxy's error page, so a later try may work
    if (find(error, JacksonException.class) != null) {
      return failure(endpoint + " sent an unreadable answer: "
          + ErrorBodies.parseProblem(find(error, JacksonException.class)), apiKey, true, 0, null, error);
    }
    if (find(error, IOException.class) != null || find(error, TimeoutException.class) != null
        || find(error, dev.langchain4j.exception.TimeoutException.class) != null) {
      return failure(endpoint + " did not answer: " + rootMessage(error), apiKey, true, 0, null, error);
    }
    return failure(endpoint + " failed: " + rootMessage(error), apiKey, true, 0, null, error);
  }
}
