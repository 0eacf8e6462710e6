package dev.agentloop.benchmark;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simple tokenizer for the token cost benchmark's fake providers: words in pieces of up to four
 * letters, numbers of up to three digits, each other sign, each run of spaces. Tokens are kept as ids
 * (one per distinct piece) so that prompts of a full history (some 100,000 tokens at turn 200) can be
 * compared and cached without holding millions of strings. Not thread-safe: one per provider.
 */
final class Tokenizer {

  private static final Pattern TOKEN = Pattern.compile("\\s?[A-Za-z]{1,4}|\\s?[0-9]{1,3}|\\s?\\S|\\s+");

  private final Map<String, Integer> ids = new HashMap<>();
  private int[] tokens = new int[4_096];
  private int size;

  /** Starts a new prompt. */
  void start() {
    size = 0;
  }

  /** Appends a text's tokens to the prompt; returns the prompt's tokens so far. */
  int add(String text) {
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      if (size == tokens.length) {
        tokens = Arrays.copyOf(tokens, size * 2);
      }
      tokens[size++] = ids.computeIfAbsent(m.group(), piece -> ids.size());
    }
    return size;
  }

  /** The prompt's tokens. */
  int[] prompt() {
    return Arrays.copyOf(tokens, size);
  }

  /** How many tokens two prompts share from their start. */
  static int commonPrefix(int[] a, int[] b) {
    int at = Arrays.mismatch(a, b);
    return at < 0 ? a.length : at;
  }
}
