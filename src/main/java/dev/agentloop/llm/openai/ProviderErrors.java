package dev.agentloop.llm.openai;

import static dev.agentloop.llm.ModelFailures.failure;
import static dev.agentloop.llm.ModelFailures.find;
import static dev.agentloop.llm.ModelFailures.rootMessage;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.llm.ModelCallException;
import dev.agentloop.llm.ErrorKeepingHttpClient;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.NonRetriableException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what LangChain4j throws into a {@link ModelCallException} that says whether a retry may help,
 * how long the endpoint asked to wait, and what went wrong in one line that leads with the cause:
 * an error page's HTML is cut down to its title or first line of text.
 */
final class ProviderErrors {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern TITLE = Pattern.compile("<title[^>]*>(.*?)</title>",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern SCRIPTS = Pattern.compile("<(script|style)[^>]*>.*?</\\1>",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern TAG = Pattern.compile("<[^>]*>");
  private static final int MAX_SUMMARY = 200;
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
    HttpException http = find(error, HttpException.class);
    if (http != null) {
      int status = http.statusCode();
      boolean retryable = status == 408 || status == 425 || status == 429 || status >= 500;
      String summary = summary(http.getMessage());
      Duration retryAfter = http instanceof ErrorKeepingHttpClient.ErrorResponse response
          ? response.retryAfter(Instant.now()) : null;
      return failure("model endpoint " + endpoint + " answered HTTP " + status
          + (REASONS.containsKey(status) ? " (" + REASONS.get(status) + ")" : "")
          + (summary.isEmpty() ? "" : ": " + summary), apiKey, retryable, status, retryAfter, error);
    }
    if (find(error, NonRetriableException.class) != null) {
      return failure("model endpoint " + endpoint + " refused the call: " + summary(error.getMessage()), apiKey, false,
          0, null, error);
    }
    // checked before I/O: Jackson's parse errors are IOExceptions too. Often a proxy's error page,
    // so a later attempt may work.
    if (find(error, JacksonException.class) != null) {
      return failure("model endpoint " + endpoint + " sent an unreadable answer: " + rootMessage(error), apiKey, true,
          0, null, error);
    }
    if (find(error, IOException.class) != null || find(error, TimeoutException.class) != null
        || find(error, dev.langchain4j.exception.TimeoutException.class) != null) {
      return failure("model endpoint " + endpoint + " did not answer: " + rootMessage(error), apiKey, true, 0, null,
          error);
    }
    return failure("model endpoint " + endpoint + " failed: " + rootMessage(error), apiKey, true, 0, null, error);
  }

  /**
   * What an error body says, in one line: an OpenAI-style error's message, an HTML page's title (or
   * its first line of text), else the body's first line; at most 200 characters.
   */
  static String summary(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    String text = body.strip();
    if (text.startsWith("{")) {
      try {
        JsonNode error = JSON.readTree(text);
        for (JsonNode message : new JsonNode[] {error.at("/error/message"), error.path("message"), error.path("detail"),
            error.path("error")}) {
          if (message.isTextual() && !message.asText().isBlank()) {
            return cut(firstLine(message.asText()));
          }
        }
      } catch (IOException e) {
        // not JSON after all: its first line
      }
    } else if (text.startsWith("<")) {
      Matcher title = TITLE.matcher(text);
      if (title.find() && !title.group(1).isBlank()) {
        return cut(title.group(1).replaceAll("\\s+", " ").strip());
      }
      text = TAG.matcher(SCRIPTS.matcher(text).replaceAll(" ")).replaceAll("\n");
    }
    return cut(firstLine(text));
  }

  private static String firstLine(String text) {
    return text.lines().map(String::strip).filter(line -> !line.isEmpty()).findFirst().orElse("");
  }

  private static String cut(String text) {
    return text.length() > MAX_SUMMARY ? text.substring(0, MAX_SUMMARY) + "…" : text;
  }
}
