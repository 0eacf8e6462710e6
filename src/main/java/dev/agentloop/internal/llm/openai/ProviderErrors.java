package dev.agentloop.internal.llm.openai;

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
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Turns what LangChain4j throws into a {@link ModelCallException} that says whether a retry may help,
 * how long the endpoint asked to wait, and what went wrong in one line that leads with the cause:
 * an error page's HTML is cut down to its title or first line of text.
 */
final class ProviderErrors {

  private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(400, "Bad Request"),
      Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"),
      Map.entry(405, "Method Not Allowed"), Map.entry(408, "Request Timeout"), Map.entry(409, "Conflict"),
      Map.entry(413, "Payload Too Large"), Map.entry(422, "Unprocessable Entity"), Map.entry(425, "Too Early"),
      Map.entry(429, "Too Many Requests"), Map.entry(500, "Internal Server Error"), Map.entry(501, "Not Implemented"),
      Map.entry(502, "Bad Gateway"), Map.entry(503, "Service Unavailable"), Map.entry(504, "Gateway Timeout"));

  private ProviderErrors() {}

  /**
   * @param apiKey removed from every message, in case a provider or proxy echoes it in an error body
   */
  static ModelCallException classify(String endpoint, String apiKey, RuntimeException error) {
    ErrorKeepingHttpClient.NotAReply notAReply = find(error, ErrorKeepingHttpClient.NotAReply.class);
    if (notAReply != null) {
      return failure("model endpoint " + endpoint + ": " + notAReply.getMessage(), apiKey, notAReply.retryable(), 0,
          null, error);
    }
    HttpException http = find(error, HttpException.class);
    if (http != null) {
      int status = http.statusCode();
      String summary = summary(http.getMessage());
      Duration retryAfter = http instanceof ErrorKeepingHttpClient.ErrorResponse response
          ? response.retryAfter(Instant.now()) : null;
      if (http instanceof ErrorKeepingHttpClient.ErrorResponse response && response.inSuccess()) {
        // a gateway's error in a 200: its own code says whether to retry, where it gives one
        int code = ErrorBodies.errorInstead(http.getMessage()).path("code").asInt(0);
        return failure("model endpoint " + endpoint + " answered HTTP " + status + " with an error instead of a reply: "
            + summary, apiKey, code < 400 || retryable(code), status, retryAfter, error);
      }
      return failure("model endpoint " + endpoint + " answered HTTP " + status
          + (REASONS.containsKey(status) ? " (" + REASONS.get(status) + ")" : "")
          + (summary.isEmpty() ? "" : ": " + summary), apiKey, retryable(status), status, retryAfter, error);
    }
    if (find(error, NonRetriableException.class) != null) {
      return failure("model endpoint " + endpoint + " refused the call: " + summary(error.getMessage()), apiKey, false,
          0, null, error);
    }
    // checked before I/O: Jackson's parse errors are IOExceptions too. Often a proxy's error page,
    // so a later attempt may work.
    if (find(error, JacksonException.class) != null) {
      return failure("model endpoint " + endpoint + " sent an unreadable answer: "
          + ErrorBodies.parseProblem(find(error, JacksonException.class)), apiKey, true, 0, null, error);
    }
    if (find(error, IOException.class) != null || find(error, TimeoutException.class) != null
        || find(error, dev.langchain4j.exception.TimeoutException.class) != null) {
      return failure("model endpoint " + endpoint + " did not answer: " + rootMessage(error), apiKey, true, 0, null,
          error);
    }
    return failure("model endpoint " + endpoint + " failed: " + rootMessage(error), apiKey, true, 0, null, error);
  }

  private static boolean retryable(int status) {
    return status == 408 || status == 425 || status == 429 || status >= 500;
  }

  /** What an error body says, in one line: see {@link ErrorBodies#summary}. */
  static String summary(String body) {
    return ErrorBodies.summary(body);
  }
}
