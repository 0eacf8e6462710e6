package dev.agentloop.internal.llm.scripted;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatMessage.ToolResultMessage;
import dev.agentloop.spi.ChatMessage.UserMessage;
import dev.agentloop.spi.ModelRequest;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills a scripted reply from the tool results the model received, so that the scripted demo model
 * reacts to what people change: an edited observation, edited arguments, a rejected or failed call.
 * Placeholders, with n counting from 1 the tool results since the question the reply answers (the current
 * turn's of a conversation, as a scenario's turns count from it), so that a scenario reads its own results
 * in whichever turn of a conversation it answers:
 *
 * <ul>
 *   <li>{@code {{result:n}}}: the n-th tool result as the model read it (a failure as "ERROR: …");
 *   <li>{@code {{number:n}}}: its first number ("391" of "391", "400" of "it is 400"), else its text;
 *   <li>{@code {{line:n:words}}}: its first line or sentence that contains the words (any case), else
 *       its text; e.g. {@code {{line:2:from abroad}}} of a policy document.
 *   <li>{@code {{earlier-result:n}}}, {@code {{earlier-number:n}}}, {@code {{earlier-line:n:words}}}: the same of
 *       the tool results the model read before the current question (the earlier turns', oldest first): a
 *       follow-up that builds on what an earlier turn computed;
 *   <li>{@code {{find:words}}}: the words and the rest of their sentence, from the first tool result or
 *       user message of the whole prompt that holds them (any case), else "(not in the prompt: words)";
 *       e.g. {@code {{find:vault code}}} of "The vault code is 4711." is "vault code is 4711.". Unlike the
 *       others it reads what the prompt shows wherever it shows it, a digest of older steps included;
 *   <li>{@code {{turn}}}: the number of the model turn (from 1), so that a long scripted run can make a
 *       different call at every turn.
 * </ul>
 *
 * <p>A tool result the run does not have reads "(no result n)": a script that asks for more than the
 * run has shows that, instead of failing the run.
 */
final class ToolResultTemplate {

  private static final Pattern PLACEHOLDER = Pattern.compile(
      "\\{\\{(?:(earlier-)?(result|number|line):(\\d+)(?::([^}]*))?|find:([^}]+)|(turn))}}");
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");
  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\R");

  /** The tool results since the current question, and those before it. */
  private final List<String> results;
  private final List<String> earlier;
  /** The texts of the prompt's tool results and user messages, in their order: what {@code find} searches. */
  private final List<String> texts;

  private final int turn;

  private ToolResultTemplate(List<String> results, List<String> earlier, List<String> texts, int turn) {
    this.results = results;
    this.earlier = earlier;
    this.texts = texts;
    this.turn = turn;
  }

  /** The template over the tool results of the request's messages, in their order. */
  static ToolResultTemplate of(ModelRequest request) {
    List<ChatMessage> messages = request.messages();
    int asked = questionAt(messages, request.run().question());
    return new ToolResultTemplate(toolResults(messages.subList(asked, messages.size())),
        toolResults(messages.subList(0, asked)),
        messages.stream().map(ToolResultTemplate::searchable).flatMap(java.util.Optional::stream).toList(),
        request.run().turn());
  }

  /** Where the current question was asked last: the start of the current turn; 0 where the prompt does not show it. */
  private static int questionAt(List<ChatMessage> messages, String question) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof UserMessage user && user.text().equals(question)) {
        return i;
      }
    }
    return 0;
  }

  private static List<String> toolResults(List<ChatMessage> messages) {
    return messages.stream().filter(ToolResultMessage.class::isInstance).map(m -> ((ToolResultMessage) m).text())
        .toList();
  }

  private static java.util.Optional<String> searchable(ChatMessage message) {
    if (message instanceof ToolResultMessage result) {
      return java.util.Optional.of(result.text());
    }
    return message instanceof UserMessage user ? java.util.Optional.of(user.text()) : java.util.Optional.empty();
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
      String value = m.group(6) != null ? String.valueOf(turn) : m.group(5) != null ? find(m.group(5))
          : value(m.group(1) == null ? results : earlier, m.group(2), Integer.parseInt(m.group(3)), m.group(4));
      if (insideJsonString) {
        value = new String(JsonStringEncoder.getInstance().quoteAsString(value));
      }
      m.appendReplacement(filled, Matcher.quoteReplacement(value));
    }
    return m.appendTail(filled).toString();
  }

  private static String value(List<String> results, String kind, int n, String words) {
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

  private String find(String words) {
    String wanted = words.strip().toLowerCase(Locale.ROOT);
    for (String text : texts) {
      for (String sentence : SENTENCE_END.split(text)) {
        int at = sentence.toLowerCase(Locale.ROOT).indexOf(wanted);
        if (at >= 0) {
          return sentence.substring(at).strip();
        }
      }
    }
    return "(not in the prompt: " + words.strip() + ")";
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
