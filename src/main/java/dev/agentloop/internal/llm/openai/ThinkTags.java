package dev.agentloop.internal.llm.openai;

import java.util.ArrayList;
import java.util.List;

/**
 * Separates a reasoning model's thinking from its reply. Qwen3, DeepSeek-R1 distills and others
 * served by vLLM, Ollama or LM Studio without a reasoning parser put their reasoning into the content,
 * as {@code <think>…</think>} before the reply. Three shapes come over the wire:
 * <ul>
 *   <li>{@code <think>reasoning</think>reply} (also several blocks, and whitespace before the first);
 *   <li>{@code reasoning</think>reply}: the chat template already opened the tag in the prompt;
 *   <li>{@code <think>reasoning} with no end: the model ran out of tokens, or never stopped thinking —
 *       all of it is reasoning and the reply is empty.
 * </ul>
 * An empty block ({@code <think>\n\n</think>}, Qwen3 with thinking switched off) leaves no reasoning.
 * A {@code <think>} later in a reply that does not begin with one is the reply's text; a {@code </think>}
 * with no {@code <think>} before it is read as the second shape.
 */
final class ThinkTags {

  private static final String OPEN = "<think>";
  private static final String CLOSE = "</think>";

  /** A reply's text without its reasoning, and the reasoning ("" when there is none). */
  record Split(String text, String reasoning) {}

  private ThinkTags() {}

  static Split split(String content) {
    if (content == null) {
      return new Split("", "");
    }
    List<String> reasoning = new ArrayList<>();
    String rest = content;
    int close = rest.indexOf(CLOSE);
    if (close >= 0 && !startsWithOpen(rest) && !rest.substring(0, close).contains(OPEN)) {
      reasoning.add(rest.substring(0, close));
      rest = rest.substring(close + CLOSE.length());
    }
    while (startsWithOpen(rest)) {
      String inner = rest.stripLeading().substring(OPEN.length());
      int end = inner.indexOf(CLOSE);
      if (end < 0) {
        reasoning.add(inner);
        rest = "";
      } else {
        reasoning.add(inner.substring(0, end));
        rest = inner.substring(end + CLOSE.length());
      }
    }
    if (reasoning.isEmpty()) {
      return new Split(content, "");
    }
    String thoughts = String.join("\n\n", reasoning.stream().map(String::strip).filter(s -> !s.isEmpty()).toList());
    return new Split(rest.strip(), thoughts);
  }

  /** The reasoning a provider sent in a field of its own (DeepSeek's {@code reasoning_content}) and the tags' reasoning. */
  static String join(String field, String fromTags) {
    String first = field == null ? "" : field.strip();
    return first.isEmpty() ? fromTags : fromTags.isEmpty() ? first : first + "\n\n" + fromTags;
  }

  private static boolean startsWithOpen(String text) {
    return text.stripLeading().startsWith(OPEN);
  }
}
