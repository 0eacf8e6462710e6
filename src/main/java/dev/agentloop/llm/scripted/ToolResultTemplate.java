package dev.agentloop.llm.scripted;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.agentloop.llm.ChatMessage.ToolResultMessage;
import dev.agentloop.llm.ModelRequest;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills a scripted reply from the tool results the model received, so that the scripted demo model
 * reacts to what people change: an edited observation, edited arguments, a rejected or failed call.
 * Placeholders, with n counting the tool results on the run's active path from 1:
 *
 * <ul>
 *   <li>{@code {{result:n}}}: the n-th tool result as the model read it (a failure as "ERROR: …");
 *   <li>{@code {{number:n}}}: its first number ("391" of "391", "400" of "it is 400"), else its text;
 *   <li>{@code {{line:n:words}}}: its first line or sentence that contains the words (any case), else
 *       its text; e.g. {@code {{line:2:from abroad}}} of a policy document.
 * </ul>
 *
 * <p>A tool result the run does not have reads "(no result n)": a script that asks for more than the
 * run has shows that, instead of failing the run.
 */
final class ToolResultTemplate {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(result|number|line):(\\d+)(?::([^}]*))?}}");
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");
  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\R");

  private final List<String> results;

  private ToolResultTemplate(List<String> results) {
    this.results = results;
  }

  /** The template over the tool results of the request's messages, in their order. */
  static ToolResultTemplate of(ModelRequest request) {
    return new ToolResultTemplate(request.messages().stream()
        .filter(ToolResultMessage.class::isInstance).map(m -> ((ToolResultMessage) m).text()).toList());
  }

  /** The text with its placeholders filled; {@code null} stays {@code null}. */
  String fill(String text) {
    return text == null ? null : fill(text, false);
  }

  /** JSON text (a call's arguments) with its placeholders filled as the content of JSON strings. */
  String fillJson(String json) {
    return json == null ? null : fill(json, true);
  }

  private String fill(String text, boolean insideJsonString) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder filled = new StringBuilder();
    while (m.find()) {
      String value = value(m.group(1), Integer.parseInt(m.group(2)), m.group(3));
      if (insideJsonString) {
        value = new String(JsonStringEncoder.getInstance().quoteAsString(value));
      }
      m.appendReplacement(filled, Matcher.quoteReplacement(value));
    }
    return m.appendTail(filled).toString();
  }

  private String value(String kind, int n, String words) {
    if (n < 1 || n > results.size()) {
      return "(no result " + n + ")";
    }
    String result = results.get(n - 1).strip();
    return switch (kind) {
      case "number" -> {
        Matcher number = NUMBER.matcher(result);
        yield number.find() ? number.group() : result;
      }
      case "line" -> line(result, words == null ? "" : words);
      default -> result;
    };
  }

  private static String line(String result, String words) {
    String wanted = words.strip().toLowerCase(Locale.ROOT);
    for (String sentence : SENTENCE_END.split(result)) {
      String candidate = sentence.strip().replaceFirst("^[-*#]+\\s*", "");
      if (!candidate.isEmpty() && candidate.toLowerCase(Locale.ROOT).contains(wanted)) {
        return candidate;
      }
    }
    return result;
  }
}
