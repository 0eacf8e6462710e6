package dev.agentloop.internal.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an endpoint's error body says, in one line, for every adapter: an OpenAI- or Anthropic-style
 * error's message ({@code {"error": {"message": ...}}}), an HTML page's title (or its first line of
 * text), else the body's first line; at most 200 characters. Never the raw JSON. Thread-safe.
 */
public final class ErrorBodies {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern TITLE = Pattern.compile("<title[^>]*>(.*?)</title>",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern SCRIPTS = Pattern.compile("<(script|style)[^>]*>.*?</\\1>",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern TAG = Pattern.compile("<[^>]*>");
  private static final int MAX_SUMMARY = 200;

  private ErrorBodies() {}

  public static String summary(String body) {
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

  /**
   * The error a body of a successful (2xx) answer carries instead of a reply, as some gateways send it:
   * {@code {"error": {...}}} or {@code {"error": "..."}} with no {@code choices} or {@code content}; or
   * {@code null} when it carries none.
   */
  public static JsonNode errorInstead(String body) {
    // most bodies are replies: only those that mention an error are parsed twice
    if (body == null || !body.contains("\"error\"") || !body.stripLeading().startsWith("{")) {
      return null;
    }
    try {
      JsonNode json = JSON.readTree(body);
      JsonNode error = json.path("error");
      boolean isError = error.isObject() || (error.isTextual() && !error.asText().isBlank());
      return isError && !json.has("choices") && !json.has("content") ? error : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** The type an Anthropic-style error names ({@code overloaded_error}), or {@code ""}. */
  public static String type(String body) {
    if (body == null || !body.stripLeading().startsWith("{")) {
      return "";
    }
    try {
      return JSON.readTree(body).at("/error/type").asText("");
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * What a JSON parser found wrong with a body, in one line and without the parser's source excerpt (Jackson's
   * message spans lines, which an incident's message in Cockpit shows as they are).
   */
  public static String parseProblem(com.fasterxml.jackson.core.JacksonException problem) {
    String original = problem.getOriginalMessage();
    String line = original == null ? "" : firstLine(original);
    return "not the JSON the API sends (" + cut(line.isEmpty() ? problem.getClass().getSimpleName() : line) + ")";
  }

  private static String firstLine(String text) {
    return text.lines().map(String::strip).filter(line -> !line.isEmpty()).findFirst().orElse("");
  }

  private static String cut(String text) {
    return text.length() > MAX_SUMMARY ? text.substring(0, MAX_SUMMARY) + "…" : text;
  }
}
